import SurveyModel
import SurveyUI

/// The `survey list` table: a header, then one aligned row per record, numbered as the app
/// numbers them ("Added survey 3"):
///
///     #  NAME          PHONE     AGE
///     1  Smith, John   555-1234   20
///     2  Jones, Doris  555-1234   40
///
/// Names are the app's list titles ("Last, First", or a designer's form's `instance_name`).
/// PHONE and AGE are shown when the questionnaire has questions named `phone` and `age`.
/// Columns are padded by terminal width (TextWidth), so wide characters keep them straight;
/// line breaks and tabs inside a value become spaces so every record stays on one line;
/// numbers and ages are right-aligned; trailing blanks are dropped. Like `survey docs`, an
/// empty document prints the header.
enum RecordTable {
    static func lines(_ records: [Record], questionnaire: Questionnaire = .standard) -> [String] {
        let extra = [("PHONE", "phone", false), ("AGE", "age", true)].compactMap { title, key, right in
            questionnaire.field(forKey: key).map { (title, $0, right) }
        }
        let rows = records.enumerated().map { index, record in
            [String(index + 1), oneLine(questionnaire.title(of: record))]
                + extra.map { oneLine(record.text(for: $0.1)) }
        }
        let header = ["#", "NAME"] + extra.map(\.0)
        let rightAligned = [true, false] + extra.map(\.2)
        let widths = header.indices.map { column in
            ([header] + rows).map { TextWidth.width(of: ShellOutput.printable($0[column])) }.max() ?? 0
        }
        return ([header] + rows).map { cells in
            let padded = cells.indices.map { column -> String in
                let text = ShellOutput.printable(cells[column])
                let pad = String(repeating: " ", count: max(0, widths[column] - TextWidth.width(of: text)))
                return rightAligned[column] ? pad + text : text + pad
            }
            var line = padded.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
    }
}
