import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    static func instanceName(of file: String) -> String {
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// The largest list file read (100,000 villages with a few columns are a few MB).
    static let maximumListBytes = 128 * 1_048_576

    static func isListFile(_ name: String) -> Bool {
        listExtensions.contains { name.lowercased().hasSuffix("." + $0) }
    }

    /// The rows of a list file: a CSV's header names the columns; an XML list is
    /// `<root><item><name>…</name><label>…</label></item>…</root>`, as ODK reads it.
    static func rows(ofFileAt url: URL) throws -> [[String: String]] {
        // Before reading, as for the form itself: a FIFO or a device named villages.csv, or a
        // 3 GB file, is refused at once instead of hanging the app that opens the form.
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw DocumentError("\(url.lastPathComponent) could not be read") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw DocumentError("\(url.lastPathComponent) is not a regular file") }
        guard Int(info.st_size) <= maximumListBytes else {
            throw DocumentError("\(url.lastPathComponent) is \(Int(info.st_size) / 1_048_576) MB: a choice list is at most \(maximumListBytes / 1_048_576) MB")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DocumentError("\(url.lastPathComponent) could not be read")
        }
        if url.pathExtension.lowercased() == "xml" { return xmlRows(Array(data)) }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = try CSV.rows(text, separator: CSV.separator(guessedFrom: text))
        guard let header = lines.first?.map({ $0.trimmingWhitespace() }) else { return [] }
        return lines.dropFirst().compactMap { cells in
            guard cells.contains(where: { !$0.isEmpty }) else { return nil }
            var row: [String: String] = [:]
            for (i, column) in header.enumerated() where !column.isEmpty && i < cells.count { row[column] = cells[i] }
            return row
        }
    }

    /// Each `item` element's children, by element name.
    static func xmlRows(_ bytes: [UInt8]) -> [[String: String]] {
        var rows: [[String: String]] = []
        var item: [String: String]?
        var field: String?
        var text = ""
        for event in XMLTagScanner.events(bytes) {
            switch event {
            case .start(let name, _, let selfClosing):
                if name == "item" { item = selfClosing ? nil : [:]; if selfClosing { rows.append([:]) } }
                else if item != nil { field = selfClosing ? nil : name; text = ""; if selfClosing { item?[name] = "" } }
            case .text(let t):
                if field != nil { text += t }
            case .end(let name):
                if name == "item", let done = item { rows.append(done); item = nil }
                else if name == field { item?[name] = text.trimmingWhitespaceAndNewlines(); field = nil }
            }
        }
        return rows
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

    /// The form with the files it reads loaded from `folder` (a document's media folder, or
    /// the form's own folder for `survey form check`), and a warning for each file that is not
    /// there or cannot be read: the form still opens, its list empty until the file is attached.
    public func loadingMedia(from folder: URL?) -> (form: XLSForm, warnings: [XLSFormProblem]) {
        let files = mediaFiles
        guard !files.isEmpty else { return (self, []) }
        var form = self
        var tables: [String: [[String: String]]] = [:]
        var warnings: [XLSFormProblem] = []
        for file in files {
            let instance = FormMedia.instanceName(of: file)
            var candidates = [file]
            // `pulldata('fruits', …)` reads fruits.csv, or an XML list of that name.
            if file.hasSuffix(".csv"), !allQuestions.contains(where: { $0.kind.listName == file }) { candidates.append(instance + ".xml") }
            let found = folder.flatMap { folder in
                candidates.lazy.map { folder.appendingPathComponent($0) }.first { FileManager.default.fileExists(atPath: $0.path) }
            }
            guard let url = found else {
                warnings.append(XLSFormProblem(sheet: "survey", row: nil, column: nil,
                                               message: "the list file \(file) is not beside the form: attach it with survey form attach FORM \(file)"))
                continue
            }
            do {
                let rows = try FormMedia.rows(ofFileAt: url)
                tables[instance] = rows
                if Self.isFileList(file) { form.choices[file] = rows.compactMap(XLSForm.Choice.init(row:)) }
            } catch {
                warnings.append(XLSFormProblem(sheet: "survey", row: nil, column: nil,
                                               message: "the list file \(file) cannot be read: \((error as? DocumentError)?.message ?? "\(error)")"))
            }
        }
        for file in files where Self.isFileList(file) && form.choices[file] == nil { form.choices[file] = [] }
        form.media = FormMedia(tables: tables)
        return (form, warnings)
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
