import FoundationEssentials
import SurveyValues

/// Deleted surveys for programs (`survey deleted --format csv|json`), in the shapes
/// `survey export` uses, with the moment of deletion first. Dates are ISO 8601 in UTC
/// (`2024-03-05T09:07:02Z`), as the JSON export writes any date.
extension DeletedRecord {
    /// Header `deletedAt` and then the export's columns (`Questionnaire.csvTable`).
    public static func csvText(_ deleted: [DeletedRecord], questionnaire: Questionnaire = .standard) -> String {
        let table = questionnaire.csvTable(deleted.map(\.record))
        let rows = zip(deleted, table.rows).map { entry, cells in [isoText(entry.deletedAt)] + cells }
        return CSV.text([["deletedAt"] + table.header] + rows)
    }

    /// An array of `{"deletedAt": "…", "record": {…}}`, as the file holds them; each record
    /// is the object `survey export --format json` writes.
    public static func jsonText(_ deleted: [DeletedRecord], questionnaire: Questionnaire = .standard) -> String {
        let keys = SurveyDocument.JSONKeys(questionnaire)
        let objects = deleted.map { entry in
            PropertyValue.jsonContainer("{", "}", [
                PropertyValue.jsonString(deletedAtKey) + ": " + PropertyValue.jsonString(isoText(entry.deletedAt)),
                PropertyValue.jsonString(recordKey) + ": "
                    + SurveyDocument.jsonObject(entry.record, keys: keys, indent: "    "),
            ], indent: "  ")
        }
        return PropertyValue.jsonContainer("[", "]", objects, indent: "") + "\n"
    }

    private static func isoText(_ date: Date) -> String {
        CivilTime.iso8601(date)
    }
}
