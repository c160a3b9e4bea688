import FoundationEssentials
import SurveyModel

/// `survey list`: a document's records for a person (an aligned table) or for a program
/// (the same CSV or JSON that `survey export` writes).
struct ListCommand: Equatable {
    static let shape = "survey list [--doc NAME] [--format table|csv|json] [--raw]"

    var doc: String?
    var format: DataFormat
    /// CSV cells as they are, without the `'` that keeps a formula from running.
    var raw = false

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "list") ?? .table
        raw = options.raw
        if raw, format != .csv {
            throw CommandLineOptions.UsageError(description: "--raw only changes CSV: --format csv")
        }
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        do {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            let reader = try RecordBatchReader(store: store, name: target.name)
            try RecordOutput.writeToStandardOutput(reader, as: format, questionnaire: questionnaire, raw: raw)
            return 0
        } catch {
            ShellOutput.failure(error)
            return 1
        }
    }
}

extension ListCommand: ShellCommand {
    static let name = "list"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["list"], synopsis: "[--doc NAME] [--format table|csv|json] [--raw]", arguments: [],
                    help: "the records: an aligned table (#, name, phone, age; the name is the questionnaire's instance_name when it has one), or the CSV or JSON that export writes (with each survey's instanceID)"),
    ]

    static let options: [OptionSpec] = [.format, .raw]

    static func parse(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws -> ListCommand {
        try ListCommand(options, words)
    }

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { false }
}
