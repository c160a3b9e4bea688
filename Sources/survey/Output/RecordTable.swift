import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// The `survey list` table: a header, then one aligned row per record, numbered as the app
/// numbers them ("Added survey 3"):
///
///     #  NAME          PHONE     AGE
///     1  Smith, John   555-1234   20
///     2  Jones, Doris  555-1234   40
///
/// Names are the app's list titles ("Last, First", or a designer's form's `instance_name`),
/// an incomplete survey's after `…` (`Record.isIncomplete`).
/// PHONE and AGE are shown when the questionnaire has questions named `phone` and `age`.
/// Columns are padded by terminal width (TextWidth), so wide characters keep them straight;
/// line breaks and tabs inside a value become spaces so every record stays on one line;
/// numbers and ages are right-aligned; trailing blanks are dropped. Like `survey docs`, an
/// empty document prints the header.
///
/// The table streams: column widths come from the header and the first batch of rows (the
/// whole document when it is that small, so the table is then the same as when every row
/// was measured), the `#` column from the number of rows expected. A later cell wider than
/// its column pushes the rest of its own row right, as `ps` does; nothing is cut, and the
/// rows after it line up again.
struct RecordTable {
    private let extra: [(title: String, field: FieldSpec, right: Bool)]
    private let questionnaire: Questionnaire
    private let widths: [Int]
    private let rightAligned: [Bool]
    private var number = 0

    /// Widths from `first` (the rows to come first) and the header; the `#` column wide
    /// enough for `expectedCount` rows.
    init(questionnaire: Questionnaire, first: [Record], expectedCount: Int) {
        self.questionnaire = questionnaire
        extra = [("PHONE", "phone", false), ("AGE", "age", true)].compactMap { title, key, right in
            questionnaire.field(forKey: key).map { (title, $0, right) }
        }
        rightAligned = [true, false] + extra.map(\.right)
        var widths = (["#", "NAME"] + extra.map(\.title)).map { Self.cell($0).width }
        widths[0] = max(widths[0], String(max(first.count, expectedCount)).utf8.count)
        for record in first {
            for (column, text) in Self.cells(of: record, questionnaire: questionnaire, extra: extra).enumerated() {
                widths[column] = max(widths[column], Self.cell(text).width)
            }
        }
        self.widths = widths
    }

    private var header: [String] { ["#", "NAME"] + extra.map(\.title) }

    /// The header line, with its line break.
    func appendHeader(to out: inout [UInt8]) {
        appendLine(header, to: &out)
    }

    /// The next records' rows, numbered on from the rows before.
    mutating func append(_ records: [Record], to out: inout [UInt8]) {
        for record in records {
            number += 1
            var cells = Self.cells(of: record, questionnaire: questionnaire, extra: extra)
            cells[0] = String(number)
            appendLine(cells, to: &out)
        }
    }

    /// The whole table as lines, every row measured (a small table, e.g. in tests).
    static func lines(_ records: [Record], questionnaire: Questionnaire = .standard) -> [String] {
        var table = RecordTable(questionnaire: questionnaire, first: records, expectedCount: records.count)
        var bytes: [UInt8] = []
        table.appendHeader(to: &bytes)
        table.append(records, to: &bytes)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// A record's cells as text, before cleaning; the first (its number) left empty. An
    /// incomplete survey's name begins with `…`, as the app's list marks it.
    private static func cells(of record: Record, questionnaire: Questionnaire,
                              extra: [(title: String, field: FieldSpec, right: Bool)]) -> [String] {
        ["", (record.isIncomplete ? "… " : "") + questionnaire.title(of: record)] + extra.map { record.text(for: $0.field) }
    }

    private func appendLine(_ cells: [String], to out: inout [UInt8]) {
        let start = out.count
        for (column, text) in cells.enumerated() {
            if column > 0 { out.append(contentsOf: [0x20, 0x20]) }
            let (shown, width) = Self.cell(text)
            let pad = max(0, widths[column] - width)
            if rightAligned[column] { out.append(contentsOf: repeatElement(0x20, count: pad)) }
            out.append(contentsOf: shown.utf8)
            if !rightAligned[column] { out.append(contentsOf: repeatElement(0x20, count: pad)) }
        }
        while out.count > start, out.last == 0x20 { out.removeLast() }
        out.append(0x0A)
    }

    /// A cell as shown, on one line with control characters as U+FFFD
    /// (`ShellOutput.printable`), and its width on a terminal. Printable ASCII, nearly every
    /// cell, is shown as it is: one column a byte.
    private static func cell(_ text: String) -> (text: String, width: Int) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return (text, text.utf8.count) }
        if !text.unicodeScalars.contains(where: {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}"
        }) {
            return (text, TextWidth.width(of: text))   // nothing to replace: C0, DEL and C1 are the controls
        }
        let shown = ShellOutput.printable(String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        })))
        return (shown, TextWidth.width(of: shown))
    }
}
