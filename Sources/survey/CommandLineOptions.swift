import Foundation

/// What the command line asked for. Parsed by hand: the toolchain ships no argument parser
/// and no outside packages can be fetched here.
///
/// Options may come before or after the command words (`survey docs --dir X` and
/// `survey --dir X docs` are the same); `--` ends the options, so a document name that
/// starts with "-" can still be given (`survey docs new -- -draft-`).
struct CommandLineOptions: Equatable {
    var dir: String?
    var doc: String?
    var splitWidth = 80
    var showHelp = false
    var showVersion = false
    /// --format, --output and --force, for list, export and import.
    var format: String?
    var output: String?
    var force = false
    /// `survey add` answers by flag (`["--first": "Ana"]`); see `AddCommand.fieldFlags`.
    var answers: [String: String] = [:]
    /// The words that are not options, in order: `["docs", "rename", "A", "B"]`.
    var words: [String] = []

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Printed after a usage error: short, so the error itself stays in view.
    static let synopsis = """
    usage: survey [--dir DIR] [--doc NAME] [--split-width N]
           survey docs [--dir DIR]
           survey docs new NAME
           survey docs rename OLD NEW
           survey docs rm NAME
           survey docs restore [NAME]
           survey list [--doc NAME] [--format table|csv|json]
           survey add [--doc NAME] --first X --last Y [--address A] [--phone P] [--age N]
           survey export [--doc NAME] [--format csv|json|plist] [--output FILE [--force]]
           survey import FILE [--doc NAME] [--format csv|json|plist]
           survey deleted [--doc NAME] [--format table|csv|json]
           survey undelete ID [--doc NAME]
    """

    static let usage = synopsis + "\n\n" + """
    Full-screen survey entry. Documents are NAME.plist files in the document folder:
    --dir DIR, else $SURVEY_HOME, else $XDG_DATA_HOME/survey, else ~/.local/share/survey.
    Without --doc the app opens the document last used in that folder, else the first one,
    else a new "Untitled".

    commands:
      docs                 list the documents: name, records ("?" when the file cannot be
                           read) and when it was last modified
      docs new NAME        create an empty document
      docs rename OLD NEW  rename a document; its unsent New form follows it
      docs rm NAME         move a document to the trash (.trash/ in the document folder)
      docs restore [NAME]  bring back the most recent deletion (of NAME) under its old name,
                           or "NAME 2" when that name is taken again

    Records from a shell: list, add, export, import, deleted and undelete work on --doc
    NAME, else on the document the app would open (never creating one: only add and import
    create the document --doc names when it does not exist yet). They never change what the
    app opens. Every survey carries an id, instanceID (uuid:…), given when it is added or
    imported without one, and to the document's surveys found without one at that save.
      list                 the records: an aligned table (#, name, phone, age), or the CSV or
                           JSON that export writes (with each survey's instanceID)
      add                  append one survey; every answer is checked as the form checks it
                           (age a whole number from 0 to 150 or empty, text within its length,
                           no control characters but tab and line breaks, which the form
                           cannot type but XML keeps; blanks around text are dropped, and a
                           survey with no answer is refused) and all refusals are printed,
                           nothing saved. Each option may be given once
      export               the records to stdout, or atomically to --output FILE (an existing
                           FILE is replaced only with --force). The format is --format, else
                           the extension of FILE, else csv
      import FILE          append the records of FILE ("-" for stdin; format from --format or
                           the extension .csv, .json, .plist or .xml). Every record is checked
                           first: one bad record and nothing is imported (row 3: age "abc":
                           reason). CSV rows are numbered as a spreadsheet shows them (the
                           header is row 1); JSON and plist records count from 1 (record 2).
                           A survey whose instanceID the document already has is refused
      deleted              the surveys deleted from the document, kept in .NAME.deleted.plist
                           beside it: when (local time), id and name; or CSV or JSON with the
                           date (UTC) and the whole survey
      undelete ID          put the deleted survey with that id back at the end of the
                           document (refused when the document already has a survey with it)

    Formats:
      csv    RFC 4180, UTF-8, CRLF line ends. Header firstName,lastName,address,phone,age,
             instanceID; answers as the form shows them, the id empty when there is none yet;
             other keys are not exported. On import a header
             names a field by key or label, in any case ("First name"); other columns are
             kept as text under their header name; a byte order mark is skipped; columns may
             be separated by commas, semicolons or tabs (whichever the header holds most)
      json   an array of objects: the five keys always (null when unanswered; age a number,
             or the text stored when it is not one), instanceID (null when there is none
             yet), then the record's other keys sorted.
             Dates become ISO 8601 strings and data base64 strings (they come back as text).
             On import an age may be written 42.0 (42.5 is refused)
      plist  the document file's XML, as survey writes it

    Names: blanks around a name and a typed ".plist" are dropped. A name cannot be empty,
    contain "/" or control characters, start with ".", or be longer than 100 characters
    (200 bytes). Names that differ only in case or accent composition are the same name.
    Put -- before a name that starts with "-": survey docs rm -- -old-

    options:
      --dir DIR          document folder (created when missing); works with every command
      --doc NAME         open (or create) the document NAME; the document of list, add,
                         export, import, deleted and undelete
      --format FORMAT    table, csv, json or plist (list, export, import, deleted)
      --output FILE      where export writes (default stdout)
      --force            let export replace an existing --output FILE
      --split-width N    columns at which the list and form sit side by side (default 80)
      -h, --help         show this help
      --version          show the version
      --                 end of options: every later argument is a word

    The last document used in each folder, and the record showing in each document, are
    kept in $XDG_STATE_HOME/survey/state.plist (else ~/.local/state/survey/state.plist).

    Exit status: 0 done, 1 refused (the reason is printed) or output that could not be
    written, 2 usage error (an option given twice, an argument, $SURVEY_HOME,
    $XDG_DATA_HOME, $XDG_STATE_HOME or $HOME that is not UTF-8). A reader that stops early
    (survey list | head -1) ends survey quietly, with the status it would have had.
    """

    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        var options = CommandLineOptions()
        var rest = arguments[...]
        /// Each option that takes a value may be given once: with two, one of them would be
        /// ignored silently, and a script's author meant something by both.
        var given: [String: String] = [:]
        func value(for flag: String, inline: String?) throws -> String {
            guard let v = inline ?? rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            if let earlier = given[flag] {
                throw UsageError(description: "\(flag) is given twice (“\(earlier)” and “\(v)”): give it once")
            }
            given[flag] = v
            return v
        }
        while let arg = rest.popFirst() {
            if arg == "--" {
                options.words += rest
                break
            }
            guard arg.hasPrefix("-"), arg != "-" else {
                options.words.append(arg)
                continue
            }
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            switch name {
            case "--dir": options.dir = try value(for: name, inline: inline)
            case "--doc": options.doc = try value(for: name, inline: inline)
            case "--split-width":
                let text = try value(for: name, inline: inline)
                guard let n = Int(text), n >= 1 else {
                    throw UsageError(description: "--split-width needs a whole number of columns, got “\(text)”")
                }
                options.splitWidth = n
            case "--format": options.format = try value(for: name, inline: inline)
            case "--output": options.output = try value(for: name, inline: inline)
            case "--force": options.force = true
            case _ where AddCommand.fieldFlags[name] != nil:
                options.answers[name] = try value(for: name, inline: inline)
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            default: throw UsageError(description: "unknown option “\(arg)” (put -- before a name that starts with \"-\")")
            }
        }
        return options
    }

    /// The command the words ask for; nil (no words) starts the app. See `Command.parse`.
    func command() throws -> Command? {
        try Command.parse(self)
    }
}
