import FoundationEssentials
import SurveyValues

/// An XLSForm's sheets as rows of text, whatever the file was: the workbook, or the two
/// plain-text layouts pyxform also reads, where the first column names a sheet on the row
/// that starts it and every row of the sheet leaves that column empty (CSV, or a Markdown
/// table in the same layout). Row numbers are kept as the file counts them, so a problem can
/// be reported where the designer will look.
public struct XLSFormSheets: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        /// 1-based, as a spreadsheet (or the text file's line) numbers it.
        public let number: Int
        public let cells: [String]
    }

    /// By sheet name as written (compared case-insensitively by `sheet(named:)`).
    public var sheets: [(name: String, rows: [Row])]
    /// A workbook (.xlsx): pyxform refuses one whose sheet heads two columns alike, where in
    /// its text layouts the last such column silently wins (`XLSFormReader+Headers.swift`).
    public var isWorkbook = false

    public static func == (a: XLSFormSheets, b: XLSFormSheets) -> Bool {
        a.sheets.map(\.name) == b.sheets.map(\.name) && a.sheets.map(\.rows) == b.sheets.map(\.rows)
    }

    public init(sheets: [(name: String, rows: [Row])]) {
        self.sheets = sheets
    }

    /// The rows of a sheet, its name matched ignoring case and blanks around it.
    public func sheet(named name: String) -> [Row]? {
        sheets.first { $0.name.trimmingWhitespace().lowercased() == name }?.rows
    }

    /// pyxform's CSV layout.
    public static func csv(_ text: String) throws -> XLSFormSheets {
        let lines = try CSV.rows(text, separator: CSV.separator(guessedFrom: text))
        return try grouped(lines.enumerated().map { ($0.offset + 1, $0.element) })
    }

    /// pyxform's Markdown layout: `| sheet |` rows start sheets, `| | a | b |` rows are theirs;
    /// separator rows (`|---|`) and anything outside a table are skipped.
    public static func markdown(_ text: String) throws -> XLSFormSheets {
        var numbered: [(Int, [String])] = []
        for (i, line) in text.linesSeparatedByEachBreak().enumerated() {
            var t = line.trimmingWhitespace()
            guard t.hasPrefix("|") else { continue }
            t.removeFirst()
            if t.hasSuffix("|") { t.removeLast() }
            let cells = t.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            if cells.allSatisfy({ $0.isEmpty || $0.allSatisfy { "-: ".contains($0) } }) && cells.contains(where: { $0.contains("-") }) {
                continue
            }
            numbered.append((i + 1, cells))
        }
        return try grouped(numbered)
    }

    /// Splits numbered rows at the rows whose first cell names a sheet; drops the first
    /// (indenting) column.
    private static func grouped(_ lines: [(Int, [String])]) throws -> XLSFormSheets {
        var sheets: [(name: String, rows: [Row])] = []
        for (number, cells) in lines {
            let first = cells.first?.trimmingWhitespace() ?? ""
            if !first.isEmpty {
                sheets.append((first, []))
                // pyxform also allows a sheet's header on the same row as its name.
                let rest = Array(cells.dropFirst())
                if rest.contains(where: { !$0.trimmingWhitespace().isEmpty }) {
                    sheets[sheets.count - 1].rows.append(Row(number: number, cells: rest))
                }
                continue
            }
            guard !sheets.isEmpty else {
                if cells.contains(where: { !$0.trimmingWhitespace().isEmpty }) {
                    throw DocumentError("line \(number): a row before any sheet name (the first column names the sheet: survey, choices, settings)")
                }
                continue
            }
            sheets[sheets.count - 1].rows.append(Row(number: number, cells: Array(cells.dropFirst())))
        }
        guard !sheets.isEmpty else { throw DocumentError("no sheets: the first column must name them (survey, choices, settings)") }
        return XLSFormSheets(sheets: sheets)
    }
}
