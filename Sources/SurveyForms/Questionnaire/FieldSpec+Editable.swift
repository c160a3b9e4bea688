import SurveyValues
/// Values the form shows only as a placeholder ("(list of 2 items)"). Typing would start from
/// the placeholder and replace a list of phone numbers with "(list of 2 items)3", so such a
/// field is read-only in the form and its value is kept exactly.
extension FieldSpec {
    public func canEditAsText(_ value: PropertyValue) -> Bool {
        switch value {
        case .data, .array, .dictionary: return false
        case .string, .integer, .real, .bool, .date: return true
        }
    }
}
