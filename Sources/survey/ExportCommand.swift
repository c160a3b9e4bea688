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

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        do {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            let reader = try RecordBatchReader(store: store, name: target.name)
            guard let output, output != "-" else {
                try RecordOutput.writeToStandardOutput(reader, as: format, questionnaire: questionnaire)
                return 0
            }
            // A relative path is taken from the current directory, as a shell user expects.
            // The records stream into the temporary file, which replaces nothing until whole.
            let url = URL(fileURLWithPath: output)
            var count = 0
            var unread: RecordBatchReader? = reader
            do {
                try ExportFile.write(to: url, replacing: force) { write in
                    // Written a second time, in place, when the file's owner cannot be kept
                    // (`AtomicFile.write`): the records are then read again.
                    let records = try unread ?? RecordBatchReader(store: store, name: target.name)
                    unread = nil
                    count = try RecordOutput.write(records, as: format, questionnaire: questionnaire) { bytes in
                        try write(bytes)
                        return true
                    }
                }
            } catch is ExportFile.AlreadyExists {
                throw DocumentError("\(output) already exists (add --force to replace it)")
            }
            ShellOutput.line("Exported \(counted(count, "survey")) from “\(target.name)” to \(output)")
            return 0
        } catch {
            ShellOutput.failure(error)
            return 1
        }
    }
}
