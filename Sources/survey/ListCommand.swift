import Foundation
import SurveyModel

/// `survey list`: a document's records for a person (an aligned table) or for a program
/// (the same CSV or JSON that `survey export` writes).
struct ListCommand: Equatable {
    static let shape = "survey list [--doc NAME] [--format table|csv|json]"

    var doc: String?
    var format: DataFormat

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try Command.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "list") ?? .table
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        do {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            let reader = try RecordBatchReader(store: store, name: target.name)
            try RecordOutput.writeToStandardOutput(reader, as: format, questionnaire: questionnaire)
            return 0
        } catch {
            ShellOutput.failure(error)
            return 1
        }
    }
}
