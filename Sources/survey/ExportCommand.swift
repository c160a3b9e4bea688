import Foundation
import SurveyModel

/// `survey export`: a document's records as CSV, JSON or its property list, to stdout or to
/// a file written atomically that replaces nothing unless `--force` says so.
struct ExportCommand: Equatable {
    static let shape = "survey export [--doc NAME] [--format csv|json|plist] [--output FILE [--force]]"

    var doc: String?
    var format: DataFormat
    /// nil or "-" for stdout.
    var output: String?
    var force: Bool

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try Command.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        output = options.output
        force = options.force
        let given = try DataFormat.parse(options.format, allowed: [.csv, .json, .plist], command: "export")
        format = given ?? output.flatMap(DataFormat.guess(fromPath:)) ?? .csv
    }

    /// The bytes of `document` in `format` (table is not a file format and never reaches here),
    /// with the columns of its questionnaire.
    static func encoded(_ document: SurveyDocument, as format: DataFormat, questionnaire: Questionnaire) throws -> Data {
        switch format {
        case .csv, .table: return Data(document.csvText(questionnaire: questionnaire).utf8)
        case .json: return Data(document.jsonText(questionnaire: questionnaire).utf8)
        case .plist: return try document.propertyListData()
        }
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        do {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            let document = try store.loadWithJournal(target.name).get()
            let data = try Self.encoded(document, as: format, questionnaire: questionnaire)
            guard let output, output != "-" else {
                StandardOutput.write(data)
                return 0
            }
            // A relative path is taken from the current directory, as a shell user expects.
            let url = URL(fileURLWithPath: output)
            do {
                try ExportFile.write(data, to: url, replacing: force)
            } catch is ExportFile.AlreadyExists {
                throw DocumentError("\(output) already exists (add --force to replace it)")
            }
            let count = document.records.count
            ShellOutput.line("Exported \(counted(count, "survey")) from “\(target.name)” to \(output)")
            return 0
        } catch {
            ShellOutput.failure(error)
            return 1
        }
    }
}
