import FoundationEssentials
import SurveyUI

/// The shell's aligned tables (`deleted`, `conflicts`, `diff`): columns two spaces apart, as
/// wide as their widest cell on screen (`TextWidth`: a CJK name takes two columns per
/// character), the last column never padded.
enum TextTable {
    static func lines(_ rows: [[String]]) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        let widths = (0..<columns).map { column in
            rows.map { $0.indices.contains(column) ? TextWidth.width(of: $0[column]) : 0 }.max() ?? 0
        }
        return rows.map { cells in
            var line = cells.indices.map { column -> String in
                column == cells.count - 1 ? cells[column]
                    : cells[column] + String(repeating: " ", count: max(0, widths[column] - TextWidth.width(of: cells[column])))
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// A cell's text on one line, printable, cut to `limit` characters with `…`.
    static func cut(_ text: String, to limit: Int = 30) -> String {
        let flat = ShellOutput.printable(text.split(whereSeparator: \.isNewline).joined(separator: " "))
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }
}
