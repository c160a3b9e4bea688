import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey deleted`: the surveys deleted from a document, still kept beside it, with the id
/// `survey undelete` takes: a table for people, or CSV or JSON for programs.
struct DeletedCommand: Equatable {
    static let shape = "survey deleted [--doc NAME] [--format table|csv|json]"

    var doc: String?
    var format: DataFormat

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "deleted") ?? .table
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            // Reading the document first reports one that cannot be read, as `list` does.
            _ = try store.load(target.name).get()
            let deleted = store.deletedRecords(for: target.name)
            switch format {
            case .table, .plist, .odkCSV, .odkXML: DeletedTable.lines(deleted, questionnaire: questionnaire).forEach(ShellOutput.line)
            case .csv:
                // A roster has no cell (`UncarriedAnswer`), here as in `export`.
                if let uncarried = questionnaire.csvUncarried(deleted.map(\.record)) { throw uncarried }
                StandardOutput.write(DeletedRecord.csvText(deleted, questionnaire: questionnaire))
            case .json: StandardOutput.write(DeletedRecord.jsonText(deleted, questionnaire: questionnaire))
            }
            return 0
        }
    }
}

extension DeletedCommand: ReadsItsWords {
    static let name = "deleted"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["deleted"], synopsis: "[--doc NAME] [--format table|csv|json]", arguments: [],
                    help: "the surveys deleted from the document, kept in .NAME.deleted.plist beside it: when (local time), id and name; or CSV or JSON with the date (UTC) and the whole survey"),
    ]

    static let options: [OptionSpec] = [.format]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { false }
}
