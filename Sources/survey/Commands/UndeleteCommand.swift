import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey undelete ID`: puts a deleted survey back at the end of its document, by the id
/// `survey deleted` shows. The id must be given whole: a guess at a prefix could bring back
/// the wrong person.
struct UndeleteCommand: Equatable {
    static let shape = "survey undelete ID [--doc NAME]"

    var id: String
    var doc: String?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        id = try ShellCommands.onlyID(words, shape: Self.shape, whereToFind: "survey deleted lists them")
        doc = options.doc
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: true)
            let record = try store.undelete(id: id, from: target.name)
            let count = (try? store.load(target.name).get().records.count).map { " as survey \($0)" } ?? ""
            ShellOutput.line("Brought back \(questionnaire.title(of: record)) into “\(target.name)”\(count)")
            return 0
        }
    }
}

extension UndeleteCommand: ReadsItsWords {
    static let name = "undelete"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["undelete"], synopsis: "ID [--doc NAME]", arguments: [.none],
                    help: "put the deleted survey with that id back at the end of the document (refused when the document already has a survey with it)"),
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { true }
}
