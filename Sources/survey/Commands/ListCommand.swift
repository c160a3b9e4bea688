import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey list`: a document's records for a person (an aligned table) or for a program
/// (the same CSV or JSON that `survey export` writes).
struct ListCommand: Equatable {
    static let shape = "survey list [--doc NAME] [--format table|csv|json] [--raw] [--duplicates] [--complete-only]"

    var doc: String?
    var format: DataFormat
    /// CSV cells as they are, without the `'` that keeps a formula from running.
    var raw = false
    /// Only the surveys that share their ID items (the form's `id_items`) with another.
    var duplicates = false
    /// Incomplete surveys left out.
    var completeOnly = false

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "list") ?? .table
        raw = options.raw
        duplicates = options.duplicates
        completeOnly = options.completeOnly
        if duplicates, completeOnly {
            throw CommandLineOptions.UsageError(description: "--duplicates lists a table of every survey: leave out --complete-only")
        }
        if duplicates, format != .table {
            throw CommandLineOptions.UsageError(description: "--duplicates lists a table: leave out --format")
        }
        if raw, format != .csv {
            throw CommandLineOptions.UsageError(description: "--raw only changes CSV: --format csv")
        }
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            if duplicates { return try listDuplicates(store, target.name, questionnaire) }
            let reader = try RecordBatchReader(store: store, name: target.name)
            try RecordOutput.writeToStandardOutput(reader, as: format, questionnaire: questionnaire, raw: raw, completeOnly: completeOnly)
            return 0
        }
    }
}

extension ListCommand {
    /// `--duplicates`: each set of surveys sharing their ID items, "plot_id 12: 3, 17"
    /// with their names, as the list numbers them; exit 0 either way (a report, not a check).
    func listDuplicates(_ store: DocumentStore, _ name: String, _ questionnaire: Questionnaire) throws -> Int32 {
        guard !questionnaire.idItems.isEmpty else {
            throw DocumentError("the form of “\(name)” names no ID items: add an id_items column to its settings sheet "
                + "(the questions that identify a paper, e.g. plot_id)")
        }
        let records = try store.loadWithJournal(name).get().records
        let groups = questionnaire.duplicateGroups(in: records)
        for group in groups {
            let surveys = group.indices.map { "\($0 + 1) (\(questionnaire.title(of: records[$0])))" }
            ShellOutput.line("\(group.idItems): surveys " + surveys.joined(separator: ", "))
        }
        ShellOutput.line(groups.isEmpty ? "No two surveys share their ID items (\(questionnaire.idItems.joined(separator: ", ")))"
            : "\(counted(groups.count, "set")) of surveys share their ID items: each is one paper keyed twice, or papers the ID items do not tell apart")
        return 0
    }
}

extension ListCommand: ReadsItsWords {
    static let name = "list"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["list"], synopsis: "[--doc NAME] [--format table|csv|json] [--raw] [--duplicates] [--complete-only]", arguments: [],
                    help: "the records: an aligned table (#, name, phone, age; the name is the questionnaire's instance_name when it has one, after … for an incomplete survey), or the CSV or JSON that export writes (with each survey's instanceID)"),
    ]

    static let options: [OptionSpec] = [
        .format, .raw, .completeOnly,
        OptionSpec(names: ["--duplicates"], placeholder: nil, completion: .none,
                   help: "list: only the surveys whose ID items (the form's id_items) another survey shares") { options, _ in
            options.duplicates = true
        },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { false }
}
