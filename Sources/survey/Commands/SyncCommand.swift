import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyDatabase

/// `survey sync` (pull, then push), `survey pull`, `survey push` `[--doc NAME] [--db URL]`:
/// a document through the team's PostgreSQL (`DocumentSync`, the same as the app's F9).
/// Only what changed since the last sync travels; conflicts are kept, never settled by who
/// wrote last (`survey conflicts`, `survey resolve`).
struct SyncCommand: Equatable {
    enum Mode: String, Equatable { case sync, pull, push }

    var mode: Mode
    var doc: String?
    var db: String?

    var shape: String { "survey \(mode.rawValue) [--doc NAME] [--db URL]" }

    init(_ mode: Mode, _ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        self.mode = mode
        doc = options.doc
        db = options.db
        try ShellCommands.expectNoArguments(words, shape: shape)
    }

    func run(store: DocumentStore, remembered: String?, environment: [String: String]) -> Int32 {
        let target = ConnectionString.resolve(option: db, environment: environment)
        do {
            let document = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            _ = try store.commandQuestionnaire(for: document, changing: true)
            let result = try DocumentSync.run(store: store, document: document.name, target: target,
                                              device: SyncDevice.current(environment: environment),
                                              pull: mode != .push, push: mode != .pull,
                                              // The system's clock, read at each step: a sync can take minutes.
                                              at: { Date() },
                                              progress: ShellOutput.progress,
                                              // A wait is a line of its own, kept on the screen.
                                              waiting: { ShellOutput.endProgress(); ShellOutput.error($0) })
            ShellOutput.endProgress()
            if let warning = result.warning { ShellOutput.error("warning: \(warning)") }
            ShellOutput.line(result.message(for: document.name))
            for id in result.refused {
                ShellOutput.error("\(id): changed on the server since this laptop's version (or not yours): survey pull, then push again")
            }
            for row in result.setAside {
                ShellOutput.error("set aside: \(row.line) (not taken here; the one who wrote it or the data manager can fix it on the server)")
            }
            for row in result.notSent {
                ShellOutput.error("not sent: \(row.line) (the team's database refuses it; fix it here)")
            }
            for change in result.othersChanges { ShellOutput.error(change.line) }
            return result.conflicts.isEmpty && result.refused.isEmpty && result.setAside.isEmpty && result.notSent.isEmpty
                && result.othersChanges.isEmpty ? 0 : 2
        } catch {
            ShellOutput.endProgress()
            ShellOutput.error(DocumentSync.describe(error, target: target))
            return 1
        }
    }

    static let help: [Mode: String] = [
        .sync: "pull what changed on the team's PostgreSQL into the document, then push what changed here (conflicts are kept: exit 2)",
        .pull: "only pull: the server's changes since the last sync, merged three-way (conflicts kept)",
        .push: "only push: what changed here since the last sync; a survey changed on the server meanwhile is refused until pulled",
    ]
}

/// The three commands share `SyncCommand`; each is its own word in help and completion.
protocol SyncModeCommand: ShellCommand {
    static var mode: SyncCommand.Mode { get }
    var command: SyncCommand { get }
    init(command: SyncCommand)
}

extension SyncModeCommand {
    static var name: String { mode.rawValue }
    static var forms: [CommandSpec] {
        [CommandSpec(words: [mode.rawValue], synopsis: "[--doc NAME] [--db URL]", arguments: [], help: SyncCommand.help[mode]!)]
    }
    static var options: [OptionSpec] { DatabaseCommand.options }
    static func parse(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws -> Self {
        Self(command: try SyncCommand(mode, options, words))
    }
    func run(in context: CommandContext) -> Int32 {
        command.run(store: context.store, remembered: context.remembered, environment: ProcessInfo.processInfo.environment)
    }
    var changesDocuments: Bool { true }
}

struct SyncAllCommand: SyncModeCommand, Equatable {
    static let mode = SyncCommand.Mode.sync
    let command: SyncCommand
}

struct PullCommand: SyncModeCommand, Equatable {
    static let mode = SyncCommand.Mode.pull
    let command: SyncCommand
}

struct PushCommand: SyncModeCommand, Equatable {
    static let mode = SyncCommand.Mode.push
    let command: SyncCommand
}
