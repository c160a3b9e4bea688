import SurveyValues
/// The five original questions written as an XLSForm (`survey form default`): the starting
/// point a designer edits, and proof that the default form is an ordinary one.
extension Questionnaire {
    public var xlsFormCSV: String {
        var rows: [[String]] = [["survey", "", "", "", "", "", ""],
                                ["", "type", "name", "label", "hint", "constraint", "constraint_message"]]
        for field in fields {
            switch field.kind {
            case .text(let maxLength):
                rows.append(["", "text", field.key, field.label, field.info, "string-length(.) <= \(maxLength)",
                             "\(field.label) is limited to \(maxLength) characters"])
            case .wholeNumber(let range):
                rows.append(["", "integer", field.key, field.label, field.info,
                             ". >= \(range.lowerBound) and . <= \(range.upperBound)",
                             "\(field.label) must be a whole number from \(range.lowerBound) to \(range.upperBound), or empty"])
            default:
                continue   // the original five are text and whole numbers only
            }
        }
        rows.append(["settings", "", "", "", "", "", ""])
        rows.append(["", "form_title", "form_id", "version", "instance_name", "", ""])
        rows.append(["", "Survey", "survey", "1", "concat(${lastName}, ', ', ${firstName})", "", ""])
        return CSV.text(rows)
    }
}
