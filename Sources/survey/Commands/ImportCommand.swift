import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey import FILE`: records from CSV, JSON or a property list appended to a document,
/// all or none. Every record is judged before anything is written, and the refusals are listed
/// together (up to `shownProblems`), so one run tells what to fix in the file.
struct ImportCommand: Equatable {
    static let shape = "survey import FILE|FOLDER [--doc NAME] [--format csv|json|plist|odk-csv]"
    /// Enough to see the pattern of what is wrong without burying the terminal.
    static let shownProblems = 20

    /// "-" reads stdin.
    var file: String
    var doc: String?
    var format: DataFormat

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        guard let file = words.first else {
            throw CommandLineOptions.UsageError(description: "missing file: \(Self.shape)")
        }
        try ShellCommands.expectNoArguments(words.dropFirst(), shape: Self.shape)
        let given = try DataFormat.parse(options.format, allowed: [.csv, .json, .plist, .odkCSV], command: "import")
        var isFolder = false
        let folder = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && isFolder
        guard let format = given ?? (folder ? .odkCSV : DataFormat.guess(fromPath: file)) else {
            throw CommandLineOptions.UsageError(
                description: "cannot tell the format of “\(file)” from its name: add --format csv, json or plist")
        }
        self.file = file
        self.doc = options.doc
        self.format = format
    }

    func run(store: DocumentStore, remembered: String?, clock: Questionnaire.Clock) -> Int32 {
        return ShellOutput.exitStatus {
            // The document's questionnaire decides what the columns mean and how every
            // record is judged, so it is read before the file.
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: true)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: true)
            let (records, places) = format == .odkCSV ? try odkSet(questionnaire: questionnaire)
                : try decoded(try contents(), questionnaire: questionnaire)
            let check = questionnaire.checkImport(records, places: places, clock: clock)
            note(check)
            guard check.problems.isEmpty else {
                report(check.problems)
                return 1
            }
            let existing: SurveyDocument? = if case .existing(let name) = target { try store.load(name).get() } else { nil }
            let duplicates = questionnaire.duplicateIDProblems(check.records, places: places,
                                                               existing: existing, documentName: target.name)
            guard duplicates.isEmpty else {
                report(duplicates)
                return 1
            }
            // Nothing to add to a document that exists: leave its file (and time) alone. A new
            // one is still created: the person asked for it by name.
            let nothingToDo = check.records.isEmpty && target == .existing(target.name)
            // Ids given here, not by the save: the entities they register are named from them.
            var identified = check.records.map { record in
                var record = record
                if record.instanceID == nil { record[Record.instanceIDKey] = .string(Record.newInstanceID()) }
                return record
            }
            // Updates carry the entities as the lists hold them now (ODK's baseVersion).
            _ = store.stampEntityBases(&identified, changed: identified.indices.map { ($0, nil) }, questionnaire: questionnaire, clock: clock)
            if !nothingToDo {
                try store.append(identified, to: target, questionnaire: questionnaire, leftInPlaintext: ShellOutput.error)
            }
            let count = check.records.count
            ShellOutput.line("Imported \(counted(count, "survey")) into “\(target.name)”")
            return EntitiesCommand.recordEntities(of: identified, in: store, questionnaire: questionnaire, clock: clock,
                                                  stored: "The surveys were imported")
        }
    }

    /// Everything on stdin (`FileHandle.readDataToEndOfFile` is full Foundation).
    private static func standardInput() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return data }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    private func contents() throws -> Data {
        if file == "-" { return Self.standardInput() }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
            throw DocumentError("\(file) does not exist")
        }
        if isFolder { throw DocumentError("\(file) is a folder, not a file") }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw DocumentError("\(file) could not be read")
        }
        return data
    }

    /// The records of ODK's CSV set (a folder, or its main table with the repeat tables
    /// beside it), joined, and each's row in the main table.
    private func odkSet(questionnaire: Questionnaire) throws -> ([Record], [ImportPlace]) {
        let files = try ODKSetFiles(path: file, formID: questionnaire.form?.formID)
        let read = try SurveyDocument.odkSetImport(main: files.main, repeats: files.repeats, questionnaire: questionnaire)
        note(unmatched: read.unmatched)
        return (read.rows.map(\.record), read.rows.map { .row($0.row) })
    }

    /// Says which header cells named no question (kept as text), so a misspelt column is
    /// seen before its question is reported unanswered. Only with a designer's form: the
    /// original five's import keeps other columns quietly, as it always did.
    private func note(unmatched: [String]) {
        guard !unmatched.isEmpty else { return }
        ShellOutput.error("note: \(counted(unmatched.count, "column")) named no question of the form and "
            + "\(unmatched.count == 1 ? "is" : "are") kept as text: \(unmatched.joined(separator: ", "))")
    }

    /// Says which calculations the file gave a value the form does not compute (the form's
    /// is stored), once for the whole file, and which members held no answer and are left
    /// out: nothing a person answered is lost, but the file and the document differ there.
    private func note(_ check: Questionnaire.ImportCheck) {
        let names = check.ignoredCalculations
        if !names.isEmpty {
            ShellOutput.error("note: \(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") calculated by the form: "
                + "the value\(names.count == 1 ? "" : "s") given \(names.count == 1 ? "is" : "are") ignored")
        }
        let dropped = check.droppedMembers
        for member in dropped.prefix(Self.shownProblems) {
            ShellOutput.error("note: \(member.place): \(member.field ?? "a member") holds no answer and is left out")
        }
        if dropped.count > Self.shownProblems {
            ShellOutput.error("note: …and \(dropped.count - Self.shownProblems) more members holding no answer")
        }
    }

    /// The records and where each was in the file: CSV rows as the spreadsheet numbers
    /// them, JSON and property-list records by position (they have no rows). Whole-file
    /// problems come back naming the file.
    private func decoded(_ data: Data, questionnaire: Questionnaire) throws -> ([Record], [ImportPlace]) {
        func numbered(_ records: [Record]) -> ([Record], [ImportPlace]) {
            (records, records.indices.map { .record($0 + 1) })
        }
        do {
            switch format {
            case .csv, .table, .odkCSV, .odkXML:
                guard let text = String(data: data, encoding: .utf8) else {
                    throw DocumentError("not UTF-8 text (save the spreadsheet as “CSV UTF-8”)")
                }
                let read = try SurveyDocument.csvImport(text, questionnaire: questionnaire)
                if questionnaire.form != nil {
                    note(unmatched: read.unmatched)
                    if !read.setOfColumns.isEmpty {
                        ShellOutput.error("note: \(read.setOfColumns.joined(separator: ", ")) says this is the main table of an ODK "
                            + "CSV set; its repeat tables are read with --format odk-csv (or give the folder)")
                    }
                }
                let rows = read.rows
                return (rows.map(\.record), rows.map { .row($0.row) })
            case .json:
                return numbered(try SurveyDocument.records(json: data))
            case .plist:
                return numbered(Array(try SurveyDocument(propertyListData: data).records))
            }
        } catch let error as DocumentError {
            throw DocumentError("\(file == "-" ? "stdin" : file): \(error.message)")
        }
    }

    private func report(_ problems: [ImportProblem]) {
        ShellOutput.error("nothing imported: \(file == "-" ? "stdin" : file) has \(counted(problems.count, "problem"))")
        problems.prefix(Self.shownProblems).forEach { ShellOutput.error($0.description) }
        if problems.count > Self.shownProblems {
            ShellOutput.error("…and \(problems.count - Self.shownProblems) more")
        }
    }
}

extension ImportCommand: ReadsItsWords {
    static let name = "import"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["import"], synopsis: "FILE|FOLDER [--doc NAME] [--format csv|json|plist|odk-csv]", arguments: [.file],
                    help: "append the records of FILE (\"-\" for stdin; format from --format or the extension .csv, .json, .plist or .xml). A FOLDER, or FILE with --format odk-csv, is ODK's CSV set (the main table FORMID.csv and its repeat tables FORMID-REPEAT.csv beside it, joined by KEY and PARENT_KEY). CSV headers may be ODK Central's and KoboToolbox's (group-question, group/question, meta-instanceID); columns that name no question are kept as text and named on stderr. Every record is checked first, as the form checks it (with a questionnaire: types, required, constraint, relevant and choice_filter; an answer to a question the form skips is refused), after the form computes its calculations (a value the file gives for one is ignored, with a note) and the members its repeat_count asks for: one bad record and nothing is imported (row 3: age \"abc\": reason). A roster member holding no answer is left out (with a note), or refused where repeat_count asks for it. Records without formID and formVersion get the questionnaire's. CSV rows are numbered as a spreadsheet shows them (the header is row 1); JSON and plist records count from 1 (record 2). A survey whose instanceID the document already has is refused"),
    ]

    static let options: [OptionSpec] = [.format]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered, clock: context.clock) }

    var changesDocuments: Bool { true }
}
