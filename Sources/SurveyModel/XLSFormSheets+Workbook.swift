import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An .xlsx workbook's sheets as rows of text: the workbook part names the sheets, its
/// relationships say which file holds each, shared strings hold most text. Cells keep their
/// column (`C7` is the third cell of row 7), so a blank cell stays a blank column.
extension XLSFormSheets {
    public static func workbook(_ data: Data) throws -> XLSFormSheets {
        let zip = try ZipArchive(data)
        guard let workbookXML = try zip.contents(of: "xl/workbook.xml") else {
            throw DocumentError("not a .xlsx workbook (no xl/workbook.xml)")
        }
        let relations = try zip.contents(of: "xl/_rels/workbook.xml.rels").map { XMLElements.collect($0, element: "Relationship") } ?? []
        let targets = Dictionary(relations.compactMap { r in r["Id"].flatMap { id in r["Target"].map { (id, $0) } } },
                                 uniquingKeysWith: { a, _ in a })
        let shared = try zip.contents(of: "xl/sharedStrings.xml").map(SharedStrings.parse) ?? []
        var sheets: [(name: String, rows: [Row])] = []
        for sheet in XMLElements.collect(workbookXML, element: "sheet") {
            guard let name = sheet["name"], let id = sheet["r:id"], let target = targets[id] else { continue }
            let path = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
            guard let xml = try zip.contents(of: path) else { continue }
            sheets.append((name, WorksheetRows.parse(xml, shared: shared)))
        }
        guard !sheets.isEmpty else { throw DocumentError("the workbook has no sheets") }
        return XLSFormSheets(sheets: sheets)
    }
}

/// The attributes of every element of one name in an XML part.
private final class XMLElements: NSObject, XMLParserDelegate {
    let element: String
    var found: [[String: String]] = []
    init(_ element: String) { self.element = element }

    static func collect(_ data: Data, element: String) -> [[String: String]] {
        let delegate = XMLElements(element)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.parse()
        return delegate.found
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == element || qualifiedName == element { found.append(attributes) }
    }
}

/// `<si>` items in order, each the text of its `<t>` runs.
private final class SharedStrings: NSObject, XMLParserDelegate {
    var strings: [String] = []
    private var current: String?
    private var inText = false

    static func parse(_ data: Data) -> [String] {
        let delegate = SharedStrings()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.parse()
        return delegate.strings
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "si" { current = "" }
        if name == "t" { inText = true }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { current? += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "t" { inText = false }
        if name == "si" {
            strings.append(current ?? "")
            current = nil
        }
    }
}

/// A worksheet's rows: each `<c r="C7" t="s|inlineStr|str|b|n">` placed at its column.
private final class WorksheetRows: NSObject, XMLParserDelegate {
    let shared: [String]
    var rows: [XLSFormSheets.Row] = []
    private var rowNumber = 0
    private var cells: [String] = []
    private var cellColumn = 0
    private var cellType = ""
    private var text = ""
    private var capturing = false

    init(shared: [String]) { self.shared = shared }

    static func parse(_ data: Data, shared: [String]) -> [XLSFormSheets.Row] {
        let delegate = WorksheetRows(shared: shared)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.parse()
        return delegate.rows
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "row":
            rowNumber = attributes["r"].flatMap(Int.init) ?? rowNumber + 1
            cells = []
        case "c":
            cellColumn = attributes["r"].map(Self.column) ?? cells.count
            cellType = attributes["t"] ?? "n"
            text = ""
        case "v", "t":
            capturing = true
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "v", "t": capturing = false
        case "c":
            let value: String
            switch cellType {
            case "s": value = Int(text).flatMap { shared.indices.contains($0) ? shared[$0] : nil } ?? ""
            case "b": value = text == "1" ? "TRUE" : "FALSE"
            default: value = text
            }
            while cells.count < cellColumn { cells.append("") }
            if cells.count == cellColumn { cells.append(value) } else { cells[cellColumn] = value }
        case "row":
            rows.append(XLSFormSheets.Row(number: rowNumber, cells: cells))
        default: break
        }
    }

    /// `C7` → 2 (A is 0).
    static func column(_ reference: String) -> Int {
        var n = 0
        for scalar in reference.unicodeScalars {
            guard ("A"..."Z").contains(scalar) else { break }
            n = n * 26 + Int(scalar.value - 64)
        }
        return max(0, n - 1)
    }
}
