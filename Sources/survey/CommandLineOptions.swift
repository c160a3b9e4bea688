import Foundation

/// What the command line asked for. Parsed by hand: the toolchain ships no argument parser
/// and no outside packages can be fetched here.
struct CommandLineOptions: Equatable {
    var dir: String?
    var doc: String?
    var splitWidth = 80
    var showHelp = false
    var showVersion = false

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = """
    usage: survey [--dir DIR] [--doc NAME] [--split-width N]

    Full-screen survey entry. Documents are NAME.plist files in the document folder:
    --dir DIR, else $SURVEY_HOME, else $XDG_DATA_HOME/survey, else ~/.local/share/survey.

    options:
      --dir DIR          document folder (created when missing)
      --doc NAME         open (or create) the document NAME
      --split-width N    columns at which the list and form sit side by side (default 80)
      -h, --help         show this help
      --version          show the version
    """

    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        var options = CommandLineOptions()
        var rest = arguments[...]
        func value(for flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return v
        }
        while let arg = rest.popFirst() {
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
                    throw UsageError(description: "--split-width needs a whole number of columns, got \"\(text)\"")
                }
                options.splitWidth = n
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            default: throw UsageError(description: "unknown argument \"\(arg)\"")
            }
        }
        return options
    }
}
