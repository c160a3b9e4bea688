import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey export`: a document's records as CSV, JSON or its property list, to stdout or to
/// a file written atomically that replaces nothing unless `--force` says so.
struct ExportCommand: Equatable {
    static let shape = "survey export [--doc NAME] [--format csv|json|plist|odk-csv|odk-xml] [--output FILE|FOLDER [--force]] [--group-names] [--raw] [--complete-only]"

    var doc: String?
    var format: DataFormat
    /// nil or "-" for stdout.
    var output: String?
    var force: Bool
    /// `group-question` column names in the ODK CSV set.
    var groupNames = false
    /// CSV cells as they are, without the `'` that keeps a formula from running.
    var raw = false
    /// Incomplete surveys left out (else written with their `incomplete` mark).
    var completeOnly = false

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        output = options.output
        force = options.force
        groupNames = options.groupNames
        raw = options.raw
        completeOnly = options.completeOnly
        let given = try DataFormat.parse(options.format, allowed: [.csv, .json, .plist, .odkCSV, .odkXML], command: "export")
        format = given ?? output.flatMap(DataFormat.guess(fromPath:)) ?? .csv
        if format.isFolder, output == nil || output == "-" {
            throw CommandLineOptions.UsageError(description: "--format \(format.rawValue) writes a folder of files: add --output FOLDER")
        }
        if groupNames, format != .odkCSV {
            throw CommandLineOptions.UsageError(description: "--group-names only works with --format odk-csv")
        }
        if raw, format != .csv, format != .odkCSV {
            throw CommandLineOptions.UsageError(description: "--raw only changes CSV: --format csv or odk-csv")
        }
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: false)
            if format.isFolder, let output {
                let written = try ODKExport(format: format, folder: output, force: force, groupNames: groupNames, raw: raw,
                                            completeOnly: completeOnly)
                    .write(store: store, name: target.name, questionnaire: questionnaire)
                for refused in written.refused { ShellOutput.error("\(refused): not exported") }
                ShellOutput.line("Exported \(counted(written.surveys, "survey")) from “\(target.name)” to \(output)" + incompleteNote(written))
                return written.refused.isEmpty ? 0 : 1
            }
            let reader = try RecordBatchReader(store: store, name: target.name)
            guard let output, output != "-" else {
                try RecordOutput.writeToStandardOutput(reader, as: format, questionnaire: questionnaire, raw: raw,
                                                       completeOnly: completeOnly)
                return 0
            }
            // A relative path is taken from the current directory, as a shell user expects.
            // The records stream into the temporary file, which replaces nothing until whole.
            let url = URL(fileURLWithPath: output)
            var written = RecordOutput.Written()
            var unread: RecordBatchReader? = reader
            do {
                try ExportFile.write(to: url, replacing: force) { write in
                    // Written a second time, in place, when the file's owner cannot be kept
                    // (`AtomicFile.write`): the records are then read again.
                    let records = try unread ?? RecordBatchReader(store: store, name: target.name)
                    unread = nil
                    written = try RecordOutput.write(records, as: format, questionnaire: questionnaire, raw: raw,
                                                     completeOnly: completeOnly) { bytes in
                        try write(bytes)
                        return true
                    }
                }
            } catch is ExportFile.AlreadyExists {
                throw DocumentError("\(output) already exists (add --force to replace it)")
            }
            ShellOutput.line("Exported \(counted(written.surveys, "survey")) from “\(target.name)” to \(output)" + incompleteNote(written))
            return 0
        }
    }

    /// What the export did with incomplete surveys, after the count: " (2 incomplete, marked in
    /// their incomplete column; --complete-only leaves them out)", or " (2 incomplete left out)".
    private func incompleteNote(_ written: RecordOutput.Written) -> String {
        guard written.incomplete > 0 else { return "" }
        if completeOnly { return " (\(written.incomplete) incomplete left out)" }
        let mark = format == .odkXML ? "an <incomplete> element" : format == .csv || format == .odkCSV ? "their incomplete column" : "incomplete: true"
        return " (\(written.incomplete) incomplete, marked by \(mark); --complete-only leaves them out)"
    }
}

extension ExportCommand: ReadsItsWords {
    static let name = "export"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["export"], synopsis: "[--doc NAME] [--format csv|json|plist|odk-csv|odk-xml] [--output FILE|FOLDER [--force]] [--group-names] [--raw] [--complete-only]", arguments: [],
                    help: "the records to stdout, or atomically to --output FILE (an existing FILE is replaced only with --force). The format is --format, else the extension of FILE, else csv. A CSV cell a spreadsheet would run as a formula (text beginning = + - @, a tab or CR, but not a number such as -3 or a geopoint such as -6.8 39.28 0 0) begins with ' (import takes it off; --raw writes cells as they are). A roster (a repeat's members) has no place in the plain CSV: such an export is refused, pointing to odk-csv or json. odk-csv writes ODK's CSV set into FOLDER (FORMID.csv and one FORMID-REPEAT.csv per repeat, joined by KEY and PARENT_KEY; --group-names for group-question columns); odk-xml writes each survey as an ODK submission in ODK Briefcase's layout (FOLDER/ODK Briefcase Storage/forms/TITLE/instances/uuid…/submission.xml). An incomplete survey (kept in the app before it passed the form's rules) is written with its mark, incomplete: true (a column of that name, an <incomplete> element); --complete-only leaves such surveys out"),
    ]

    static let options: [OptionSpec] = [
        .format,
        .output,
        OptionSpec(names: ["--force"], placeholder: nil, completion: .none,
                   help: "let export replace an existing --output FILE") { options, _ in options.force = true },
        OptionSpec(names: ["--group-names"], placeholder: nil, completion: .none,
                   help: "export --format odk-csv: name a question in a group group-question, as ODK Central and Briefcase do") { options, _ in options.groupNames = true },
        .raw,
        .completeOnly,
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { false }
}

extension OptionSpec {
    /// Shared by export (a file or, for the ODK formats, a folder) and decrypt (a folder).
    static let output = OptionSpec(names: ["--output"], placeholder: "FILE", completion: .file,
                                   help: "where export writes (default stdout); the folder decrypt writes into (default the current one)") { $0.output = $1 }

    /// Shared by export and list: only the complete surveys.
    static let completeOnly = OptionSpec(names: ["--complete-only"], placeholder: nil, completion: .none,
                                         help: "export, list: leave out incomplete surveys (kept before they passed the form's rules)") { options, _ in
        options.completeOnly = true
    }

    /// Shared by export and list, the commands that write CSV.
    static let raw = OptionSpec(names: ["--raw"], placeholder: nil, completion: .none,
                                help: "export, list: CSV cells as they are, without the ' that keeps a formula (= + - @) from running in a spreadsheet") { options, _ in options.raw = true }
}
