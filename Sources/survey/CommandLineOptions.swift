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

    Names: blanks around a name and a typed ".plist" are dropped. A name cannot be empty,
    contain "/" or control characters, start with ".", or be longer than 100 characters
    (200 bytes). Names that differ only in case or accent composition are the same name.
    Put -- before a name that starts with "-": survey docs rm -- -old-

    options:
      --dir DIR          document folder (created when missing); works with every command
      --doc NAME         open (or create) the document NAME
      --split-width N    columns at which the list and form sit side by side (default 80)
      -h, --help         show this help
      --version          show the version
      --                 end of options: every later argument is a word

    The last document used in each folder, and the record showing in each document, are
    kept in $XDG_STATE_HOME/survey/state.plist (else ~/.local/state/survey/state.plist).

    Exit status: 0 done, 1 refused (the reason is printed), 2 usage error.
    """

    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        var options = CommandLineOptions()
        var rest = arguments[...]
        func value(for flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
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
            case "--dir": options.dir = try inline ?? value(for: name)
            case "--doc": options.doc = try inline ?? value(for: name)
            case "--split-width":
                let text = try inline ?? value(for: name)
                guard let n = Int(text), n >= 1 else {
                    throw UsageError(description: "--split-width needs a whole number of columns, got “\(text)”")
                }
                options.splitWidth = n
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            default: throw UsageError(description: "unknown option “\(arg)” (put -- before a name that starts with \"-\")")
            }
        }
        return options
    }

    /// The documents command the words ask for; nil (no words) starts the app.
    /// `--doc` and `--split-width` only concern the app and are ignored by `docs`.
    func command() throws -> DocsCommand? {
        guard let first = words.first else { return nil }
        guard first == "docs" else {
            throw UsageError(description: "unknown command “\(first)” (the only command is docs)")
        }
        return try DocsCommand.parse(words.dropFirst())
    }
}
