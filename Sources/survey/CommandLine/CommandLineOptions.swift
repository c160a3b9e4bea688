import FoundationEssentials

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
    /// `--man`: print survey(1) as roff.
    var printManual = false
    /// `--completion bash|zsh`.
    var completionShell: String?
    /// --format, --output and --force, for list, export and import.
    var format: String?
    var output: String?
    var force = false
    /// `export --format odk-csv --group-names`: `group-question` column names, as ODK writes them.
    var groupNames = false
    /// `export`/`list --raw`: CSV cells as they are, no `'` before a formula.
    var raw = false
    /// `export`/`list --complete-only`: incomplete surveys left out.
    var completeOnly = false
    /// `add --incomplete`: kept as an incomplete survey.
    var incomplete = false
    /// `db init --db URL`: the team's PostgreSQL (a libpq connection string or URI).
    var db: String?
    /// `survey review`: the supervisor's words.
    var comment: String?
    /// `survey review --filter TEXT --reviewed STATE --form-id ID`: which surveys a bulk review is of.
    var reviewFilter: String?
    /// `history ID --local`: the edit history kept on this laptop, not the server's versions.
    var localHistory = false
    /// `history ID --bring-back N --reason TEXT`: the revision brought back, and why.
    var bringBack: String?
    var reason: String?
    var reviewed: String?
    var formID: String?
    /// `docs new NAME --form FILE`: the new document's questionnaire.
    var form: String?
    /// `entities --list NAME`: the one entity list shown.
    var entityList: String?
    var rebuildEntities = false
    /// `survey add` answers by flag (`["--first": "Ana"]`); see `AddCommand.fieldFlags`.
    var answers: [String: String] = [:]
    /// `survey add --set NAME=VALUE`, as given, in order.
    var sets: [String] = []
    /// `list --duplicates`: only the surveys whose ID items another survey shares.
    var duplicates = false
    /// `diff --by FIELD,FIELD`: the answers that pair two keyers' surveys of one paper.
    var by: [String]?
    /// `merge --dry-run`.
    var dryRun = false
    /// `resolve --mine`, `--theirs`, `--value TEXT`.
    var keepMine = false
    var keepTheirs = false
    var resolvedValue: String?
    /// `decrypt --key FILE`: the private key's PEM file.
    var key: String?
    /// `keys new --bits N`: the new RSA key's size.
    var bits: Int?
    /// `verify --every N --start K`, `--random PERCENT --seed S`: which surveys to verify.
    var verifyEvery: Int?
    var verifyStart: Int?
    var verifyRandom: Double?
    var verifySeed: UInt64?
    /// The words that are not options, in order: `["docs", "rename", "A", "B"]`.
    var words: [String] = []
    /// The options given, by their last name (`--help` for `-h`), in declaration order.
    var given: [String] = []

    struct UsageError: Error, CustomStringConvertible {
        let description: String
        /// The words read before an option was refused (`["docs", "new"]`), so the usage
        /// printed after it can be the command's own (`Usage.afterError`).
        var wordsBefore: [String] = []
    }

    /// `survey --help`, generated from `CommandSpec.all`, `OptionSpec.all` and `HelpText`.
    static var usage: String { Usage.full }

    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        var options = CommandLineOptions()
        do {
            try parse(arguments, into: &options)
        } catch var error as UsageError {
            error.wordsBefore = options.words
            throw error
        }
        return options
    }

    private static func parse(_ arguments: [String], into options: inout CommandLineOptions) throws {
        var rest = arguments[...]
        /// Each option that takes a value may be given once: with two, one of them would be
        /// ignored silently, and a script's author meant something by both.
        var given: [String: String] = [:]
        func value(for flag: String, inline: String?, repeatable: Bool) throws -> String {
            guard let v = inline ?? rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            if !repeatable, let earlier = given[flag] {
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
            guard let spec = OptionSpec.named(name) else {
                throw UsageError(description: "unknown option “\(arg)” (put -- before a name that starts with \"-\")")
            }
            if let canonical = spec.names.last, !options.given.contains(canonical) { options.given.append(canonical) }
            if spec.takesValue {
                try spec.apply(&options, value(for: name, inline: inline, repeatable: spec.repeatable))
            } else {
                try spec.apply(&options, "")
            }
        }
    }

    /// Asks only for text about survey (help, version, man page, completion): no command runs.
    var printsDocumentation: Bool { showHelp || showVersion || printManual || completionShell != nil }

    /// The command the words ask for; nil (no words) starts the app. See `ShellCommands.parse`.
    func command() throws -> (any ShellCommand)? {
        try ShellCommands.parse(self)
    }
}
