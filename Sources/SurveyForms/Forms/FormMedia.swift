import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues

/// The lists a form reads from files beside it (ODK's "media" files): the choices of
/// `select_one_from_file fruits.csv`, and the tables of `pulldata('fruits', …)` and
/// `instance('fruits')/root/item[…]`. Read once when the form is opened with its folder, so a
/// 5,000-row list is parsed once per questionnaire, not once per keystroke; every expression
/// then reads the same rows. A class compared by identity first, so comparing two
/// questionnaires (which the app does on every frame) never walks the rows.
public final class FormMedia: Equatable, Sendable {
    /// Each file's rows, every column by its header, by instance name: the file name
    /// without `.csv` or `.xml`, as pyxform names the secondary instance.
    public let tables: [String: [[String: String]]]

    public init(tables: [String: [[String: String]]] = [:]) {
        self.tables = tables
    }

    public static let none = FormMedia()

    public static func == (a: FormMedia, b: FormMedia) -> Bool { a === b || a.tables == b.tables }

    /// The extensions of a list file, as pyxform allows them (a `.geojson` list is not read here).
    static let listExtensions = ["csv", "xml"]

    /// `fruits` for `fruits.csv`.
    package static func instanceName(of file: String) -> String {
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// The largest list file read (100,000 villages with a few columns are a few MB).
    package static let maximumListBytes = 128 * 1_048_576

    static func isListFile(_ name: String) -> Bool {
        listExtensions.contains { name.lowercased().hasSuffix("." + $0) }
    }

    /// A list file read: its rows, every column by its header (a CSV) or element name (XML).
    struct Table {
        var rows: [[String: String]] = []
        /// Where each row is in the file, to name it in a warning: its row counting the
        /// header as row 1 (a CSV, where it is the line when no cell spans lines), or its
        /// `item` counting from 1 (XML).
        var places: [Int] = []
        /// A CSV's header, or the element names an XML list's items hold, in file order.
        var columns: [String] = []
        var isXML = false

        /// "row 3", "item 3".
        func place(_ index: Int) -> String { (isXML ? "item " : "row ") + String(places[index]) }
    }

    /// The rows of a list file: a CSV's header names the columns; an XML list is
    /// `<root><item><name>…</name><label>…</label></item>…</root>`, as ODK reads it. Text that
    /// is not UTF-8 is refused with its line (it was read with U+FFFD in place of the bytes,
    /// so a choice named `céleri` in Latin-1 never matched an answer).
    static func table(of bytes: [UInt8], named name: String) throws -> Table {
        guard var text = String(validating: bytes, as: UTF8.self) else {
            let valid = bytes.withUnsafeBufferPointer { validUTF8Prefix($0) }
            let line = bytes[..<valid].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw DocumentError("line \(line) is not UTF-8 text (save the file as “CSV UTF-8”, or XML in UTF-8)")
        }
        if name.lowercased().hasSuffix(".xml") { return xmlTable(bytes) }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = try CSV.rows(text, separator: CSV.separator(guessedFrom: text))
        guard let header = lines.first?.map({ $0.trimmingWhitespace() }) else { return Table() }
        var table = Table(columns: header)
        for (offset, cells) in lines.enumerated().dropFirst() where cells.contains(where: { !$0.isEmpty }) {
            var row: [String: String] = [:]
            for (i, column) in header.enumerated() where !column.isEmpty && i < cells.count { row[column] = cells[i] }
            table.rows.append(row)
            table.places.append(offset + 1)
        }
        return table
    }

    /// How many bytes at the start of `bytes` are well-formed UTF-8.
    private static func validUTF8Prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var valid = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): valid += UTF8.width(scalar)
            case .emptyInput, .error: return valid
            }
        }
    }

    /// The rows of `xmlTable`, for the tests.
    static func xmlRows(_ bytes: [UInt8]) -> [[String: String]] { xmlTable(bytes).rows }

    /// Each `item` element's children, by element name.
    static func xmlTable(_ bytes: [UInt8]) -> Table {
        var table = Table(isXML: true)
        var item: [String: String]?
        var field: String?
        var text = ""
        var count = 0
        func note(_ name: String) { if !table.columns.contains(name) { table.columns.append(name) } }
        for event in XMLTagScanner.events(bytes) {
            switch event {
            case .start(let name, _, let selfClosing):
                if name == "item" {
                    count += 1
                    item = selfClosing ? nil : [:]
                    if selfClosing { table.rows.append([:]); table.places.append(count) }
                } else if item != nil {
                    field = selfClosing ? nil : name
                    text = ""
                    if selfClosing { item?[name] = ""; note(name) }
                }
            case .text(let t):
                if field != nil { text += t }
            case .end(let name):
                if name == "item", let done = item {
                    table.rows.append(done)
                    table.places.append(count)
                    item = nil
                } else if name == field {
                    item?[name] = text.trimmingWhitespaceAndNewlines()
                    note(name)
                    field = nil
                }
            }
        }
        return table
    }

    /// The choices of a list file a `select_…_from_file` question reads, and what is wrong
    /// with it, each said with the file and where in it: no `name` column (the list is then
    /// empty), rows without a name (left out), names given twice (both kept, as ODK Collect
    /// shows them; an answer cannot tell them apart).
    static func choices(of table: Table, file: String) -> (choices: [XLSForm.Choice], problems: [String]) {
        guard table.rows.isEmpty || table.columns.contains("name") else {
            let columns = table.columns.filter { !$0.isEmpty }
            return ([], ["the list file \(file) has no name column (\(columns.isEmpty ? "it has no columns" : "its columns: " + columns.joined(separator: ", "))): "
                         + "its list is empty"])
        }
        var choices: [XLSForm.Choice] = []
        var unnamed: [String] = []
        var seen: [String: Int] = [:]
        var twice: [(name: String, first: String, again: String)] = []
        for (index, row) in table.rows.enumerated() {
            guard let choice = XLSForm.Choice(row: row) else { unnamed.append(table.place(index)); continue }
            if let first = seen[choice.name] {
                twice.append((choice.name, table.place(first), table.place(index)))
            } else {
                seen[choice.name] = index
            }
            choices.append(choice)
        }
        var problems: [String] = []
        if !unnamed.isEmpty {
            problems.append("the list file \(file): \(listed(unnamed)) \(unnamed.count == 1 ? "has" : "have") no name: left out of the list")
        }
        if !twice.isEmpty {
            problems.append("the list file \(file) gives a name twice: "
                + listed(twice.map { "“\($0.name)” (\($0.first) and \($0.again))" })
                + ": an answer cannot tell them apart")
        }
        return (choices, problems)
    }

    /// The first ten of `items`, and how many more.
    private static func listed(_ items: [String]) -> String {
        items.prefix(10).joined(separator: ", ") + (items.count > 10 ? " and \(items.count - 10) more" : "")
    }
}

extension XLSForm.Choice {
    /// A list file's row as a choice: its `name`, its `label` (or `label::Language`)
    /// columns, and every other column for `choice_filter`.
    init?(row: [String: String]) {
        guard let name = row["name"]?.trimmingWhitespace(), !name.isEmpty else { return nil }
        var labels: [String: String] = [:]
        var extra: [String: String] = [:]
        for (key, value) in row where key != "name" {
            let column = XLSFormColumn(key)
            if column.name == "label" { labels[column.language ?? ""] = value } else { extra[key] = value }
        }
        self.init(name: XLSFormReader.excelText(name), labels: labels, extra: extra)
    }
}

extension XLSForm {
    /// Whether a choice list is a file beside the form (`select_one_from_file fruits.csv`).
    public static func isFileList(_ list: String) -> Bool { FormMedia.isListFile(list) }

    /// Every file the form reads, as it names them: the lists of its `select_…_from_file`
    /// questions, and `NAME.csv` for each `pulldata('NAME', …)` and for each
    /// `instance('NAME')` that is not one of its choice lists.
    public var mediaFiles: [String] {
        var files: [String] = []
        func add(_ file: String) { if !files.contains(file) { files.append(file) } }
        for q in allQuestions {
            if let list = q.kind.listName, Self.isFileList(list) { add(list) }
            for e in [q.required, q.constraint, q.relevant, q.calculation, q.choiceFilter, q.repeatCount].compactMap({ $0 }) {
                for name in e.instanceNames where choices[name] == nil { add(name + ".csv") }
            }
        }
        return files
    }

    /// The form with the files it reads loaded through `read`, and a warning for each file
    /// that is not there or cannot be read: the form still opens, its list empty until the
    /// file is attached. `read` gives a file's bytes by its name, nil when there is no such
    /// file: the storage reads a document's media folder (or the form's own folder for
    /// `survey form check`), so the forms touch no file.
    public func loadingMedia(reading read: (String) -> Result<[UInt8], DocumentError>?) -> (form: XLSForm, warnings: [XLSFormProblem]) {
        let files = mediaFiles
        guard !files.isEmpty else { return (self, []) }
        var form = self
        var tables: [String: [[String: String]]] = [:]
        var warnings: [XLSFormProblem] = []
        let choiceFiles = Set(allQuestions.compactMap(\.kind.listName).filter(Self.isFileList))
        for file in files {
            let instance = FormMedia.instanceName(of: file)
            var candidates = [file]
            // `pulldata('fruits', …)` reads fruits.csv, or an XML list of that name.
            if file.hasSuffix(".csv"), !allQuestions.contains(where: { $0.kind.listName == file }) { candidates.append(instance + ".xml") }
            guard let (name, bytes) = firstRead(of: candidates, read) else {
                warnings.append(XLSFormProblem(sheet: "survey", row: nil, column: nil,
                                               message: "the list file \(file) is not beside the form: attach it with survey form attach FORM \(file)"))
                continue
            }
            do {
                let table = try FormMedia.table(of: try bytes.get(), named: name)
                tables[instance] = table.rows
                if choiceFiles.contains(file) {
                    let (choices, problems) = FormMedia.choices(of: table, file: file)
                    form.choices[file] = choices
                    warnings += problems.map { XLSFormProblem(sheet: "survey", row: nil, column: nil, message: $0) }
                } else if Self.isFileList(file) {
                    form.choices[file] = table.rows.compactMap(XLSForm.Choice.init(row:))
                }
            } catch {
                warnings.append(XLSFormProblem(sheet: "survey", row: nil, column: nil,
                                               message: "the list file \(file) cannot be read: \((error as? DocumentError)?.message ?? "\(error)")"))
            }
        }
        for file in files where Self.isFileList(file) && form.choices[file] == nil { form.choices[file] = [] }
        form.media = FormMedia(tables: tables)
        return (form, warnings)
    }

    /// The first of `names` that `read` reads; else the first that is there but cannot be
    /// read, with why; nil when none is there. (`fruits.csv` unreadable beside a good
    /// `fruits.xml` reads the XML.)
    private func firstRead(of names: [String], _ read: (String) -> Result<[UInt8], DocumentError>?)
        -> (String, Result<[UInt8], DocumentError>)? {
        var unreadable: (String, Result<[UInt8], DocumentError>)?
        for name in names {
            switch read(name) {
            case .success(let bytes)?: return (name, .success(bytes))
            case .failure(let error)?: if unreadable == nil { unreadable = (name, .failure(error)) }
            case nil: continue
            }
        }
        return unreadable
    }

    /// The items of `instance('name')`: a choice list of the form (its `name`, `label` in
    /// `language` and other columns), else a file beside it.
    func instanceRows(_ name: String, language: String?) -> [[String: String]]? {
        if let table = media.tables[name] { return table }
        guard let list = choices[name] else { return nil }
        return list.map { choice in
            var row = choice.extra
            row["name"] = choice.name
            row["label"] = language.flatMap { choice.labels[$0] } ?? choice.labels[""] ?? choice.labels.values.sorted().first ?? ""
            return row
        }
    }
}
