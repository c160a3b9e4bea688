import SurveyValues
/// The original app wrote every text answer, empty or not (`<string></string>`); only age
/// is left out when there is none. New records follow that shape so other tools reading
/// the file find every key they expect.
extension Record {
    public func withEmptyTextAnswers(in questionnaire: Questionnaire) -> Record {
        var copy = self
        guard questionnaire.form == nil else { return copy }   // ODK leaves unanswered questions out
        for field in questionnaire.fields {
            if case .text = field.kind, copy[field.key] == nil {
                copy[field.key] = .string("")
            }
        }
        return copy
    }
}
