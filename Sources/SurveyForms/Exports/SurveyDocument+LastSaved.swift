import SurveyValues
/// The survey `${last-saved#name}` reads. ODK Collect means the most recent saved instance of
/// the form on the device; a document keeps no time of saving per survey, and Add appends, so
/// the last survey of the document is the one saved last (an edit to an older survey does not
/// make it the last saved, as it would in Collect). A new, empty document has none, and the
/// reference is empty, as in Collect before the first save.
extension SurveyDocument {
    public var lastSaved: Record? { records.last }
}

extension Questionnaire {
    /// Whether any rule, default or label reads `${last-saved#…}`: only then does a caller
    /// keep `lastSaved` up to date as surveys are added (building a survey's answers at
    /// every save costs something on forms that never read them).
    public var readsLastSaved: Bool {
        guard let form else { return false }
        return form.questions.contains { q in
            let expressions = [q.required, q.constraint, q.relevant, q.calculation, q.choiceFilter, q.repeatCount].compactMap { $0 }
            return expressions.contains { $0.fieldReferences.contains { FormExpression.lastSavedName($0) != nil } }
                || (q.defaultValue?.contains("last-saved#") ?? false)
                || q.labels.values.contains { $0.contains("last-saved#") }
        }
    }
}
