import Foundation

/// A document as a spreadsheet sees it: one header row of questionnaire keys, then one row
/// per record with each answer as the form shows it (`FieldSpec.displayText`). Keys the
/// questionnaire does not know are left out of an export: a spreadsheet has no place for
/// lists or dictionaries, and JSON exists for a lossless copy.
extension SurveyDocument {
    public func csvText(questionnaire: Questionnaire = .standard) -> String {
        let header = questionnaire.fields.map(\.key)
        let rows = records.map { record in questionnaire.fields.map { record.text(for: $0) } }
        return CSV.text([header] + rows)
    }

    /// Records from CSV text (UTF-8, header row first), each answer a string still to be
    /// judged by `Questionnaire.checkImport`.
    ///
    /// A header cell names a questionnaire field by its key or its label, ignoring case and
    /// surrounding blanks ("firstName", "FIRSTNAME", "First name"); any other header keeps
    /// its column as string values under that name, so nothing in the file is lost. Columns
    /// the file lacks stay absent from the records. Empty lines are skipped. Refused as a
    /// whole (a `DocumentError`): no header, a header cell that is empty or names a field
    /// twice, a header naming no questionnaire field at all (probably not a survey file),
    /// and a row whose number of values differs from the header's (a value would land in
    /// the wrong column or be dropped).
    public static func records(csv text: String, questionnaire: Questionnaire = .standard) throws -> [Record] {
        let rows = try CSV.rows(text).filter { $0 != [""] }
        guard let header = rows.first else {
            throw DocumentError("the CSV text is empty: it needs a header row naming the columns")
        }
        let keys = try columnKeys(header, questionnaire: questionnaire)
        return try rows.dropFirst().enumerated().map { index, row in
            guard row.count == keys.count else {
                throw DocumentError(
                    "row \(index + 1): \(counted(row.count, "value")), but the header names \(counted(keys.count, "column"))")
            }
            return Record(Dictionary(uniqueKeysWithValues: zip(keys, row.map(PropertyValue.string))))
        }
    }

    /// The record key each header cell stands for.
    private static func columnKeys(_ header: [String], questionnaire: Questionnaire) throws -> [String] {
        var keys: [String] = []
        for (index, cell) in header.enumerated() {
            let name = cell.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw DocumentError("column \(index + 1) has no name in the header row")
            }
            let key = questionnaire.fields.first {
                $0.key.caseInsensitiveCompare(name) == .orderedSame
                    || $0.label.caseInsensitiveCompare(name) == .orderedSame
            }?.key ?? name
            if let earlier = keys.firstIndex(of: key) {
                throw DocumentError("columns \(earlier + 1) and \(index + 1) of the header both name “\(key)”")
            }
            keys.append(key)
        }
        guard keys.contains(where: { questionnaire.field(forKey: $0) != nil }) else {
            let expected = questionnaire.fields.map(\.key).joined(separator: ", ")
            throw DocumentError("the header row names none of the survey's columns (\(expected))")
        }
        return keys
    }
}
