import SurveyValues
import SurveyForms
import SurveyUI

/// The New form's file carries the id its survey will be added under, from its first write:
/// an Add writes the survey (encrypted, for a form with a `public_key`) before it removes the
/// file, and a file left between the two is then known for a survey the document holds and
/// dropped when the document is next read (`AppState+StoredDraft`), never offered again in
/// clear. The id is given here, not in the UI core, which draws no random numbers.
extension Program {
    /// `draft` as its file is written: given a new id when it holds answers and has none
    /// (returned too, for `.saving(.draftIdentified)`).
    static func identifiedDraft(_ draft: Record, in questionnaire: Questionnaire) -> (Record, String?) {
        guard draft.instanceID == nil, !draft.isBlank(in: questionnaire) else { return (draft, nil) }
        var identified = draft
        let id = Record.newInstanceID()
        identified[Record.instanceIDKey] = .string(id)
        return (identified, id)
    }
}
