import SurveyValues
import SurveyForms
/// A document's records in an export format, made a batch at a time as they are read
/// (`RecordBatchReader`), so `survey export` and `survey list --format csv|json` start
/// writing at once. The bytes are exactly those of `csvText`, `jsonText` and
/// `propertyListData` on the whole document, which stay as the reference the tests compare
/// the stream with.
public struct ExportStream {
    public enum Format: Sendable {
        case csv, json, propertyList
    }

    private let format: Format
    private let columns: CSVColumns
    private let jsonKeys: SurveyDocument.JSONKeys
    private var propertyList = PropertyListWriter.surveys()
    private var count = 0

    /// With a designer's form, a CSV export has a column for every key any survey holds that
    /// the form does not ask (`Questionnaire.csvTable`): its header needs every survey read
    /// first, and their keys passed as `unknownKeys`.
    public static func needsEverySurveyFirst(_ format: Format, questionnaire: Questionnaire) -> Bool {
        format == .csv && questionnaire.form != nil
    }

    /// `raw`: CSV cells as they are, without the `'` that keeps a formula from running in a
    /// spreadsheet (`SpreadsheetFormula`).
    public init(_ format: Format, questionnaire: Questionnaire, unknownKeys: [String] = [], raw: Bool = false) {
        self.format = format
        columns = questionnaire.csvColumns(unknownKeys: unknownKeys, raw: raw)
        jsonKeys = SurveyDocument.JSONKeys(questionnaire)
    }

    /// What comes before the first survey: the CSV header, the JSON array's `[`, the
    /// property list's header.
    public mutating func start(into out: inout [UInt8]) {
        switch format {
        case .csv: Self.appendRow(columns.header, to: &out)
        case .json: out.append(UInt8(ascii: "["))
        case .propertyList: propertyList.drain { out.append(contentsOf: $0) }
        }
    }

    public mutating func append(_ records: [Record], into out: inout [UInt8]) {
        switch format {
        case .csv:
            for record in records { Self.appendRow(columns.cells(record), to: &out) }
        case .json:
            for record in records {
                out.append(contentsOf: (count == 0 ? "\n  " : ",\n  ").utf8)
                SurveyDocument.appendJSONObject(record, keys: jsonKeys, to: &out)
                count += 1
            }
        case .propertyList:
            for record in records { propertyList.appendSurvey(record) }
            propertyList.drain { out.append(contentsOf: $0) }
        }
    }

    /// What comes after the last survey.
    public mutating func end(into out: inout [UInt8]) {
        switch format {
        case .csv: break
        case .json: out.append(contentsOf: (count == 0 ? "]\n" : "\n]\n").utf8)
        case .propertyList:
            propertyList.endSurveys()
            propertyList.drain { out.append(contentsOf: $0) }
        }
    }

    /// One row as `CSV.text` writes it.
    private static func appendRow(_ cells: [String], to out: inout [UInt8]) {
        for (i, cell) in cells.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: CSV.field(cell).utf8)
        }
        out.append(contentsOf: [0x0D, 0x0A])
    }
}
