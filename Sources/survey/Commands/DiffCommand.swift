import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey diff A B`: independent double entry (issue 30). Two documents keyed from the same
/// papers, compared survey by survey and answer by answer (`DocumentDiff`). A and B are
/// documents in the folder, or files (another keyer's copy on a stick), only ever read.
/// The exit status is diff(1)'s, so a script can tell "they differ" from "could not compare":
/// 0 the same, 1 they differ, 2 trouble.
struct DiffCommand: Equatable {
    static let shape = "survey diff A B [--by FIELD[,FIELD...]] [--format table|csv|json]"

    var a: String
    var b: String
    var by: [String]
    var format: DataFormat

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        guard words.count == 2 else {
            throw CommandLineOptions.UsageError(description: (words.count < 2 ? "two documents to compare: " : "unexpected argument “\(words.dropFirst(2).first!)”: ") + Self.shape)
        }
        a = words[words.startIndex]
        b = words[words.startIndex + 1]
        by = options.by ?? []
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "diff") ?? .table
    }

    func run(store: DocumentStore) -> Int32 {
        let diff: DocumentDiff
        do {
            let (left, formA) = try Self.read(a, in: store)
            let (right, formB) = try Self.read(b, in: store)
            let form = formA ?? formB
            for name in by where !(form?.fields.contains { $0.key == name } ?? false) && !Self.anyHas(name, left) && !Self.anyHas(name, right) {
                let inRoster = form.map { Self.rosterHolds(name, $0) } ?? false
                throw DocumentError(inRoster
                    ? "“\(name)” is a question inside a roster: --by names answers of the survey itself (its ID items), not of its members"
                    : "no question or answer “\(name)” in \(a) or \(b): --by names the answers that identify a paper")
            }
            // Without --by, the form's ID items pair them (two keyers give one paper two ids).
            let pairing = by.isEmpty ? (formA ?? formB)?.idItems ?? [] : by
            diff = DocumentDiff(left, right, by: pairing, questionnaire: formA ?? formB ?? .standard)
        } catch {
            ShellOutput.failure(error)
            return 2
        }
        switch format {
        case .json: StandardOutput.write(diff.jsonText(a: a, b: b))
        case .csv: StandardOutput.write(CSV.text(diff.csvRows(a: a, b: b)))
        default: Self.table(diff, a: a, b: b).forEach(ShellOutput.line)
        }
        if format == .table { ShellOutput.line(diff.summary(a: a, b: b)) }
        return diff.isSame ? 0 : 1
    }

    /// A document of the folder by its name, else a file by its path; its surveys, and its
    /// form when it is a document here with one that can be used.
    static func read(_ word: String, in store: DocumentStore) throws -> ([Record], Questionnaire?) {
        if !word.contains("/"), store.exists(word) {
            // With its journal: answers an app still writing (or one that stopped) kept there.
            let document = try store.loadWithJournal(word).get()
            let form = store.documentForm(for: word)
            return (Array(document.records), form.trouble == nil ? form.questionnaire : nil)
        }
        guard word.contains("/") || word.hasSuffix(".plist") else {
            throw DocumentError("no document “\(word)” in \(store.folder.path) (a file is named by its path, e.g. ./\(word).plist)")
        }
        let url = URL(fileURLWithPath: word)
        let records = try OtherDocument.read(url).records
        // A copy on a stick with its form beside it (NAME.plist and its companions) is
        // judged by that form.
        let stem = String(url.lastPathComponent.dropLast(url.lastPathComponent.hasSuffix(".plist") ? 6 : 0))
        let beside = DocumentStore(folder: url.deletingLastPathComponent())
        if !stem.isEmpty, beside.exists(stem), beside.formURL(for: stem) != nil {
            let form = beside.documentForm(for: stem)
            if form.trouble == nil { return (records, form.questionnaire) }
        }
        return (records, nil)
    }

    /// Whether `name` is a question of some roster of `form` (not of the survey itself).
    private static func rosterHolds(_ name: String, _ form: Questionnaire) -> Bool {
        form.rosterScopes.contains { $0.fields.contains { $0.key == name } }
    }

    private static func anyHas(_ name: String, _ records: [Record]) -> Bool {
        records.contains { $0[name] != nil }
    }

    /// SURVEY, FIELD, then a column named by each document, aligned; long values cut to 30
    /// characters (survey and field whole).
    static func table(_ diff: DocumentDiff, a: String, b: String) -> [String] {
        guard !diff.differences.isEmpty || !diff.onlyInA.isEmpty || !diff.onlyInB.isEmpty else { return [] }
        let header = ["SURVEY", "FIELD", TextTable.cut(a), TextTable.cut(b)]
        var rows = diff.differences.map { [$0.survey, $0.field, TextTable.cut($0.a ?? "-"), TextTable.cut($0.b ?? "-")] }
        rows += diff.onlyInA.map { [$0, "(survey)", "present", "-"] }
        rows += diff.onlyInB.map { [$0, "(survey)", "-", "present"] }
        return TextTable.lines([header] + rows)
    }
}

extension DiffCommand: ReadsItsWords {
    static let name = "diff"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["diff"], synopsis: "A B [--by FIELD[,FIELD...]] [--format table|csv|json]", arguments: [.document, .document],
                    help: "independent double entry: where two documents keyed from the same papers differ, survey by survey and answer by answer (members by place); surveys pair by instanceID, or by the answers --by names; ids, calculations, metadata and notes are not compared; A and B are documents here or .plist files, only read; exit 0 when none differ, 1 when they do, 2 on trouble"),
    ]

    static let options: [OptionSpec] = [
        .format,
        OptionSpec(names: ["--by"], placeholder: "FIELDS", completion: .none,
                   help: "diff: pair surveys by these answers (comma-separated, e.g. plot_id or hh_id,visit), not by instanceID") { options, text in
            let names = text.split(separator: ",").map { String($0).trimmingWhitespace() }
            guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
                throw CommandLineOptions.UsageError(description: "--by needs question names separated by commas, got “\(text)”")
            }
            options.by = names
        },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store) }

    var changesDocuments: Bool { false }

    static var outputFailureStatus: Int32 { 2 }
}
