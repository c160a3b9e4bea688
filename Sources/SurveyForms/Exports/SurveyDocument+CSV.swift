import FoundationEssentials
import SurveyValues

/// A document as a spreadsheet sees it: one header row of questionnaire keys and
/// `instanceID`, then one row per record with each answer as the form shows it
/// (`FieldSpec.displayText`) and the record's id (empty when it has none yet). The id is
/// there so a row can be traced back to its record, and so importing the same file twice is
/// refused.
///
/// For the original five, other keys are left out of an export: a spreadsheet has no place
/// for lists or dictionaries, and JSON exists for a lossless copy. A document with a
/// designer's form (`Questionnaire.csvTable`) has its answers in form order, then
/// `instanceID`, `formID`, `formVersion`, then every other key any record holds, sorted:
/// answers to questions a newer version of the form no longer asks are data too.
extension SurveyDocument {
    public func csvText(questionnaire: Questionnaire = .standard, raw: Bool = false) -> String {
        let table = questionnaire.csvTable(Array(records), raw: raw)
        return CSV.text([table.header] + table.rows)
    }

    /// Records from CSV text (UTF-8, header row first), each answer a string still to be
    /// judged by `Questionnaire.checkImport`. See `numberedRecords(csv:)`.
    public static func records(csv text: String, questionnaire: Questionnaire = .standard) throws -> [Record] {
        try numberedRecords(csv: text, questionnaire: questionnaire).map(\.record)
    }

    /// Records from CSV text, each with its row as a spreadsheet numbers it: the header is
    /// row 1, every line break outside quotes starts the next row, and empty lines count
    /// (a spreadsheet shows them) though they hold no record. See `csvImport(_:questionnaire:)`.
    public static func numberedRecords(csv text: String, questionnaire: Questionnaire = .standard)
        throws -> [(row: Int, record: Record)] {
        try csvImport(text, questionnaire: questionnaire).rows
    }

    /// What a CSV import found: the records by row, and the header cells that named no
    /// question (kept as text under their own names; `survey import` lists them).
    public struct CSVImport {
        public let rows: [(row: Int, record: Record)]
        public let unmatched: [String]
        /// ODK's `SET-OF-…` columns: the file is the main table of an ODK set, whose repeat
        /// tables this import did not read.
        public let setOfColumns: [String]
    }

    /// Records from CSV text, with the header cells that named no question.
    ///
    /// Fields are separated by commas, semicolons or tabs, whichever the header row holds
    /// most (`CSV.separator(guessedFrom:)`). A header cell names a questionnaire field by
    /// its key or its label, ignoring case and surrounding blanks ("firstName",
    /// "FIRSTNAME", "First name"), by its path through groups as ODK and KoboToolbox write
    /// it (`visit-visit_time`, `visit/visit_time`), and `instanceID` in any case or as
    /// `meta-instanceID` / `meta/instanceID` (`ImportHeader`). ODK's `KEY` is the survey's id
    /// when no column gives it (ODK Central writes both; they agree); its `SET-OF-…` columns
    /// are dropped (the repeat tables hold the instances). Any other header keeps its column
    /// as string values under that name, so nothing in the file is lost. An empty
    /// `instanceID` cell means no id (`append` gives one). Columns the file lacks stay absent from
    /// the records. With a designer's form, `formID` and `formVersion` are matched in any case
    /// too, an empty cell is no answer (ODK leaves unanswered questions out), so an
    /// export's empty columns come back as nothing, and a time in ODK's format
    /// (`09:30:00.000+03:00`) is the time of day keyed (`09:30:00`). Refused as a whole (a `DocumentError`): no header, a header cell that is
    /// empty or names a field twice, a header naming no questionnaire field at all (probably
    /// not a survey file, or split at the wrong separator: the message says which was used),
    /// and a row whose number of values differs from the header's (a value would land in
    /// the wrong column or be dropped).
    public static func csvImport(_ text: String, questionnaire: Questionnaire = .standard) throws -> CSVImport {
        let separator = CSV.separator(guessedFrom: text)
        let rows = try CSV.rows(text, separator: separator).enumerated()
            .map { (row: $0.offset + 1, cells: $0.element) }
            .filter { $0.cells != [""] }
        guard let header = rows.first else {
            throw DocumentError("the CSV text is empty: it needs a header row naming the columns")
        }
        let reading = try ImportHeader(header.cells.map(SpreadsheetFormula.unescaped), scope: questionnaire, nodes: questionnaire.tree)
        guard reading.namesAnAnswer(of: questionnaire) else {
            let expected = questionnaire.recordFields.map(\.key).joined(separator: ", ")
            let names: [Unicode.Scalar: String] = [",": "commas", ";": "semicolons", "\t": "tabs"]
            throw DocumentError("the header row names none of the survey's columns (\(expected)); "
                + "it was split at \(names[separator] ?? "“\(separator)”"), the separator it holds most "
                + "(of commas, semicolons and tabs)")
        }
        let kinds = reading.columns.map { column -> FieldKind? in
            if case .value(let key) = column { questionnaire.field(forKey: key)?.kind } else { nil }
        }
        let hasID = reading.columns.contains(.value(Record.instanceIDKey))
        let records = try rows.dropFirst().map { row, cells in
            guard cells.count == reading.columns.count else {
                throw DocumentError(
                    "row \(row): \(counted(cells.count, "value")), but the header names \(counted(reading.columns.count, "column"))")
            }
            var values: [String: PropertyValue] = [:]
            for (i, cell) in cells.enumerated() {
                switch reading.columns[i] {
                case .value(let key): values[key] = .string(ODKValue.cell(cell, kind: kinds[i]))
                case .key: if !hasID { values[Record.instanceIDKey] = .string(cell) }
                case .parentKey, .setOf: break
                }
            }
            if questionnaire.form != nil { values = values.filter { $0.value != .string("") } }
            if case .string(let id) = values[Record.instanceIDKey] {
                // Spreadsheets pad cells, and an id is compared exactly; an empty cell is no id.
                let trimmed = id.trimmingWhitespace()
                values[Record.instanceIDKey] = trimmed.isEmpty ? nil : .string(trimmed)
            }
            return (row, Record(values))
        }
        let setOf = zip(header.cells, reading.columns).filter { $0.1 == .setOf }.map(\.0)
        return CSVImport(rows: records, unmatched: reading.unmatched, setOfColumns: setOf)
    }
}
