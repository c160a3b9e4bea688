/// The prose of `--help` and of the man page, and the two-column lists (files, environment,
/// exit status) both print. Commands and options come from `CommandSpec` and `OptionSpec`.
enum HelpText {
    static let summary = "full-screen field survey entry in the terminal, with commands for scripts"

    static let description = """
    Full-screen survey entry. Documents are NAME.plist files in the document folder: \
    --dir DIR, else $SURVEY_HOME, else $XDG_DATA_HOME/survey, else ~/.local/share/survey. \
    Without --doc the app opens the document last used in that folder, else the first one, \
    else a new "Untitled".
    """

    static let recordCommands = """
    Records from a shell: list, add, export, import, deleted, undelete, delete, merge, \
    conflicts and resolve work on --doc \
    NAME, else on the document the app would open (never creating one: only add and import \
    create the document --doc names when it does not exist yet). They never change what the \
    app opens. Every survey carries an id, instanceID (uuid:…), given when it is added or \
    imported without one, and to the document's surveys found without one at that save. \
    A document with a questionnaire (survey form attach) is read, checked and written by \
    its questions and rules, and its new surveys carry its formID and formVersion; a \
    questionnaire with errors stops these commands (exit 1, nothing written).
    """

    static let formats: [(String, String)] = [
        ("csv", "RFC 4180, UTF-8, CRLF line ends. Header firstName,lastName,address,phone,age,instanceID; answers as the form shows them, the id empty when there is none yet; other keys are not exported. A document with a questionnaire (NAME.form.xlsx, .csv or .md) has its questions' names in form order (no notes or groups), then instanceID,formID,formVersion, then every other key its surveys hold, sorted; an empty cell is no answer; a roster (a repeat's members) has no cell, so such a document is refused (use odk-csv or json). A cell a spreadsheet would run as a formula (text beginning = + - @, a tab or CR, but not a number such as -3 or a geopoint such as -6.8 39.28 0 0) is written with ' first (--raw: as it is). On import one ' before those characters is taken off; a header names a field by key or label, in any case (\"First name\"); other columns are kept as text under their header name; a byte order mark is skipped; columns may be separated by commas, semicolons or tabs (whichever the header holds most)"),
        ("json", "an array of objects: the five keys always (null when unanswered; age a number, or the text stored when it is not one), instanceID (null when there is none yet), then the record's other keys sorted. With a questionnaire: its questions in form order, instanceID, formID and formVersion always, then the others; integers and decimals are numbers, the rest text. Dates become ISO 8601 strings and data base64 strings (they come back as text). On import an age may be written 42.0 (42.5 is refused)"),
        ("plist", "the document file's XML, as survey writes it"),
    ]

    static let names = """
    Names: blanks around a name and a typed ".plist" are dropped. A name cannot be empty, \
    contain "/" or control characters, start with ".", or be longer than 100 characters \
    (200 bytes). Names that differ only in case or accent composition are the same name. \
    Put -- before a name that starts with "-": survey docs rm -- -old-
    """

    /// Relative to the document folder unless they start with `$` or `~`.
    static let files: [(String, String)] = [
        ("NAME.plist", "a document: an XML property list holding an array of dictionaries (firstName, lastName, address, phone, age, instanceID)"),
        (".NAME.draft.plist", "the document's New form, while it holds anything"),
        (".NAME.deleted.plist", "the surveys deleted from the document (survey deleted, survey undelete)"),
        (".NAME.sync.plist", "what the document's merges agreed on: each survey's last common answers and revision, unresolved conflicts (survey conflicts, survey resolve), review states; never a password"),
        (".NAME.sync-journal", "the sync ledger's changes since it was last written whole, read with it; goes wherever it goes"),
        (".NAME.recovered-DATE-PID.plist", "surveys that could not be saved where they belonged, offered back at the next start"),
        (".NAME.plist.backup-…", "a copy kept while another user's document is written in place; left only by an interrupted save"),
        (".NAME.plist.tmp-…", "a save's temporary file, removed at the next start once its writer has gone"),
        (".trash/", "deleted documents and discarded recovered surveys"),
        ("$XDG_STATE_HOME/survey/state.plist", "the last document used in each folder and the record showing in each document (else ~/.local/state/survey/state.plist)"),
        ("$XDG_STATE_HOME/survey/device-id", "this installation's id, part of the name its changes carry in a sync (drawn at the first use)"),
    ]

    static let environment: [(String, String)] = [
        ("SURVEY_HOME", "the document folder when --dir is not given"),
        ("XDG_DATA_HOME", "the document folder is $XDG_DATA_HOME/survey when neither --dir nor $SURVEY_HOME is given (else ~/.local/share/survey)"),
        ("XDG_STATE_HOME", "where state.plist and device-id are kept (else ~/.local/state)"),
        ("HOME", "the base of the default folders"),
        ("SURVEY_DEVICE", "the name this laptop's changes carry in a sync, its own on each laptop (else survey:, the host name and device-id)"),
        ("SURVEY_DB", "the team's PostgreSQL when --db is not given (a libpq connection string or URI); else libpq's own PGHOST, PGDATABASE, PGUSER, PGPASSWORD… and ~/.pgpass"),
        ("SURVEY_KEY_PASSPHRASE", "the private key's passphrase for survey keys new and survey decrypt, for scripts (else it is asked on the terminal, without echo)"),
        ("SURVEY_LIBPQ", "the libpq file survey db loads instead of libpq.so.5 (Debian's libpq5, needed only to sync)"),
        ("TERM", "the terminal the app draws on; it must be able to move the cursor (not dumb, and known to terminfo)"),
        ("NO_COLOR", "any non-empty value makes the app draw without colours"),
        ("LANG, LC_ALL, LC_CTYPE", "the locale; a UTF-8 one is needed to draw and type beyond ASCII"),
    ]

    static let exitStatus: [(String, String)] = [
        ("0", "done"),
        ("1", "refused (the reason is printed), or output that could not be written"),
        ("2", "usage error (an option given twice, an argument, $SURVEY_HOME, $XDG_DATA_HOME, $XDG_STATE_HOME or $HOME that is not UTF-8), or no terminal the app can draw on"),
        ("", "survey diff, as diff(1): 0 the same, 1 they differ, 2 trouble"),
    ]

    static let earlyReader = "A reader that stops early (survey list | head -1) ends survey quietly, with the status it would have had."
}
