import FoundationEssentials
import SurveyValues

/// An .xlsx workbook's sheets as rows of text (read with `XMLTagScanner`, not libxml2): the workbook part names the sheets, its
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
        let dates = XLSXDates(styles: try zip.contents(of: "xl/styles.xml"), workbook: workbookXML)
        var sheets: [(name: String, rows: [Row])] = []
        for sheet in XMLElements.collect(workbookXML, element: "sheet") {
            guard let name = sheet["name"], let id = sheet["r:id"], let target = targets[id] else { continue }
            let path = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
            guard let xml = try zip.contents(of: path) else { continue }
            sheets.append((name, WorksheetRows.parse(xml, shared: shared, dates: dates)))
        }
        guard !sheets.isEmpty else { throw DocumentError("the workbook has no sheets") }
        var result = XLSFormSheets(sheets: sheets)
        result.isWorkbook = true
        return result
    }
}

/// The attributes of every element of one name in an XML part.
private enum XMLElements {
    static func collect(_ data: Data, element: String) -> [[String: String]] {
        let local = element.split(separator: ":").last.map(String.init) ?? element
        return XMLTagScanner.events(Array(data)).compactMap {
            if case .start(local, let attributes, _) = $0 { return attributes }
            return nil
        }
    }
}

/// `<si>` items in order, each the text of its `<t>` runs.
private enum SharedStrings {
    static func parse(_ data: Data) -> [String] {
        var strings: [String] = []
        var current: String?
        var inText = false
        for event in XMLTagScanner.events(Array(data)) {
            switch event {
            case .start("si", _, _): current = ""
            case .start("t", _, _): inText = true
            case .end("t"): inText = false
            case .end("si"):
                strings.append(current ?? "")
                current = nil
            case .text(let text) where inText: current? += text
            default: break
            }
        }
        return strings
    }
}

/// A worksheet's rows: each `<c r="C7" t="s|inlineStr|str|b|n">` placed at its column; a
/// number whose style is a date's as pyxform writes the date (`XLSXDates`).
private enum WorksheetRows {
    static func parse(_ data: Data, shared: [String], dates: XLSXDates) -> [XLSFormSheets.Row] {
        var rows: [XLSFormSheets.Row] = []
        var rowNumber = 0
        var cells: [String] = []
        var column = 0
        var type = ""
        var style = 0
        var text = ""
        var capturing = false
        for event in XMLTagScanner.events(Array(data)) {
            switch event {
            case .start("row", let attributes, _):
                rowNumber = attributes["r"].flatMap(Int.init) ?? rowNumber + 1
                cells = []
            case .start("c", let attributes, _):
                column = attributes["r"].map(Self.column) ?? cells.count
                type = attributes["t"] ?? "n"
                style = attributes["s"].flatMap(Int.init) ?? 0
                text = ""
            case .start("v", _, _), .start("t", _, _): capturing = true
            case .end("v"), .end("t"): capturing = false
            case .text(let t) where capturing: text += t
            case .end("c"):
                let value: String
                switch type {
                case "s": value = Int(text).flatMap { shared.indices.contains($0) ? shared[$0] : nil } ?? ""
                case "b": value = text == "1" ? "TRUE" : "FALSE"
                case "n": value = dates.text(of: text, style: style) ?? text
                default: value = text
                }
                while cells.count < column { cells.append("") }
                if cells.count == column { cells.append(value) } else { cells[column] = value }
            case .end("row"):
                rows.append(XLSFormSheets.Row(number: rowNumber, cells: cells))
            default: break
            }
        }
        return rows
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
