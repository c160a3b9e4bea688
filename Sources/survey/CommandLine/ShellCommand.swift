import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// One shell command (`survey list`, `survey docs …`), declaring itself: its words, its forms
/// for usage, the man page and completion, the options it takes beyond the ones every command
/// takes, how it reads its words, and how it runs (swift-argument-parser's `ParsableCommand`
/// shape, without the package). `ShellCommands.all` lists them; nothing else names them.
protocol ShellCommand {
    /// The first word: `list`, `docs`.
    static var name: String { get }
    /// Each form of the command, in the order usage lists them (`docs` has five).
    static var forms: [CommandSpec] { get }
    /// The options of its own; `OptionSpec.everywhere` are taken by every command.
    static var options: [OptionSpec] { get }
    /// The command from the options and the words after its name.
    static func parse(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws -> Self
    /// 0 done, 1 refused (the reason on stderr).
    func run(in context: CommandContext) -> Int32
    /// Whether it changes documents: when its stdout then fails, the change is still made,
    /// and the error says so, so a script does not run it again.
    var changesDocuments: Bool { get }
    /// The exit status when its output could not be written: 1, "refused", for most;
    /// `diff`'s 1 means "they differ", so its trouble is 2.
    static var outputFailureStatus: Int32 { get }
}

extension ShellCommand {
    static var outputFailureStatus: Int32 { 1 }
    /// No options of its own (most commands take only `OptionSpec.everywhere`'s and a few).
    static var options: [OptionSpec] { [] }
}

/// A command read by its own initializer from the options and its words: the `parse` of
/// nearly every command, written once (issue 29: the command boilerplate).
protocol ReadsItsWords: ShellCommand {
    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws
}

extension ReadsItsWords {
    static func parse(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws -> Self {
        try Self(options, words)
    }
}

/// What a command runs against: the document folder and the app's session memory.
struct CommandContext {
    let store: DocumentStore
    let stateURL: URL
    /// What the form's rules read as now (`today()`, `now()`, `start`): the moment the
    /// command started, in the local zone. Taken once, so a command is one moment.
    var clock = Questionnaire.Clock(now: Date())

    /// The document the app would open next; reading commands never change it.
    var remembered: String? { SessionMemory(url: stateURL).lastDocument(in: store.folder) }
}

/// The registry: every shell command, in the order help lists them.
enum ShellCommands {
    // Walked with `for` loops: Swift 6.3's SIL generation crashes on closures over these metatypes.
    static let all: [any ShellCommand.Type] = [
        DocsCommand.self, ListCommand.self, AddCommand.self, ExportCommand.self, ImportCommand.self,
        DeletedCommand.self, UndeleteCommand.self, DeleteCommand.self, MergeCommand.self, DiffCommand.self,
        VerifyCommand.self, StatsCommand.self, EntitiesCommand.self, ConflictsCommand.self, ResolveCommand.self, SyncAllCommand.self, PullCommand.self, PushCommand.self,
        ReviewCommand.self, HistoryCommand.self,
        FormCommand.self, DatabaseCommand.self, KeysCommand.self, DecryptCommand.self,
    ]

    /// The command named by the words; nil (no words) starts the app. Options that belong to
    /// another command are refused rather than ignored, so a misplaced `--output` cannot
    /// silently send data to stdout.
    static func parse(_ options: CommandLineOptions) throws -> (any ShellCommand)? {
        var command: (any ShellCommand.Type)?
        if let name = options.words.first {
            for type in all where type.name == name { command = type }
            guard command != nil else {
                var names: [String] = []
                for type in all { names.append(type.name) }
                throw CommandLineOptions.UsageError(description: "unknown command “\(name)” (use "
                    + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") + ")")
            }
        }
        try checkOptions(options, for: command)
        guard let command else { return nil }
        return try command.parse(options, options.words.dropFirst())
    }

    /// The options `command` (nil: the app) takes.
    static func offered(for command: (any ShellCommand.Type)?) -> [OptionSpec] {
        guard let command else { return OptionSpec.everywhere }
        return OptionSpec.everywhere + command.options
    }

    /// An option given to a command that does not take it names the commands that do.
    private static func checkOptions(_ options: CommandLineOptions, for command: (any ShellCommand.Type)?) throws {
        let taken = Set(offered(for: command).flatMap(\.names))
        for flag in options.given where !taken.contains(flag) {
            var takers: [String] = []
            for type in all where type.options.contains(where: { $0.names.contains(flag) }) { takers.append(type.name) }
            let names = takers.count == 1 ? takers[0] : takers.dropLast().joined(separator: ", ") + " and " + (takers.last ?? "")
            throw CommandLineOptions.UsageError(description: "\(flag) only works with survey \(names)")
        }
    }

    /// The one survey id a command of `shape` takes (`delete ID`, `history ID`), with no word
    /// after it; `whereToFind` says where ids are listed, for the message when it is missing.
    static func onlyID(_ words: ArraySlice<String>, shape: String, whereToFind: String? = nil) throws -> String {
        guard let id = words.first else {
            throw CommandLineOptions.UsageError(description: "missing id: \(shape)" + (whereToFind.map { " (\($0))" } ?? ""))
        }
        try expectNoArguments(words.dropFirst(), shape: shape)
        return id.trimmingWhitespace()
    }

    /// Words after the command name that a command without arguments does not expect.
    static func expectNoArguments(_ words: ArraySlice<String>, shape: String) throws {
        if let extra = words.first {
            throw CommandLineOptions.UsageError(description: "unexpected argument “\(extra)”: \(shape)")
        }
    }
}

extension ShellCommands {
    /// Every command's own options, in registry order (shared ones repeated).
    static var declaredOptions: [OptionSpec] {
        var options: [OptionSpec] = []
        for type in all { options += type.options }
        return options
    }

    /// Every form of every command, in registry order.
    static var forms: [CommandSpec] {
        var forms: [CommandSpec] = []
        for type in all { forms += type.forms }
        return forms
    }

    /// The command named `name`, if there is one.
    static func named(_ name: String) -> (any ShellCommand.Type)? {
        for type in all where type.name == name { return type }
        return nil
    }
}
