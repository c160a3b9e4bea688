import SurveyValues
import SurveyForms

/// Undoing and redoing the keeping of a New form as an incomplete survey
/// (`AppState+Incomplete`), as the form sees it: the New form is the form's, so is what
/// an undo puts on it and what a redo empties (issue 29: the form's own, not `AppState`'s).
extension FormState {
    /// Undoing the keeping of a New form (`.keptIncomplete`) puts it back on the New form, as
    /// it was, when the New form is empty (by `questionnaire`, the New form's): a survey kept
    /// by a → pressed too soon is one Ctrl-Z away from where it was being keyed. Returns
    /// whether it did (the New form is shown; the app highlights its first question); `gone`
    /// is what the undo took out of the document.
    mutating func takeBackKeptSurvey(_ step: UndoHistory.Step, undoing: Bool, gone: [Record], in questionnaire: Questionnaire) -> Bool {
        guard undoing, step.kind == .keptIncomplete, gone.count == 1, draft.isBlank(in: questionnaire) else { return false }
        var back = gone[0]
        back.removeValue(forKey: Record.instanceIDKey)
        back.setIncomplete(false)
        setDraft(back)
        showDraft(true)
        return true
    }

    /// Redoing it: the survey is in the document again, so the New form holding it (unchanged
    /// since the undo) is emptied rather than kept twice. Returns whether it was.
    mutating func emptyIfKeptAgain(_ step: UndoHistory.Step, undoing: Bool, in questionnaire: Questionnaire) -> Bool {
        guard !undoing, step.kind == .keptIncomplete, let kept = step.after.records.last, !draft.isBlank(in: questionnaire) else { return false }
        var again = kept
        again.removeValue(forKey: Record.instanceIDKey)
        again.setIncomplete(false)
        guard again == draft else { return false }
        emptyDraft()
        return true
    }
}
