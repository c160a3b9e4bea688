import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey delete ID`: the counterpart of `undelete`. The survey moves to the document's
/// deleted surveys (where `survey deleted` lists it and `undelete` brings it back), and the
/// next sync or merge sends its tombstone, so it is deleted on the other laptops too, and
/// kept there as well.
struct DeleteCommand: Equatable {
    static let shape = "survey delete ID [--doc NAME]"

    var id: String
    var doc: String?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        id = try ShellCommands.onlyID(words, shape: Self.shape, whereToFind: "survey list --format csv shows them")
        doc = options.doc
    }

    func run(store: DocumentStore, remembered: String?, at date: Date) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            let record = try store.deleteSurvey(id: id, from: target.name, at: date)
            ShellOutput.line("Deleted \(questionnaire.title(of: record)) from “\(target.name)”: "
                + "kept in its deleted surveys (survey undelete \(id))")
            return 0
        }
    }
}

extension DeleteCommand: ReadsItsWords {
    static let name = "delete"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["delete"], synopsis: "ID [--doc NAME]", arguments: [.none],
                    help: "move the survey with that id to the document's deleted surveys (undelete brings it back); the next sync or merge deletes it on the other laptops too"),
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered, at: context.clock.now) }

    var changesDocuments: Bool { true }
}
