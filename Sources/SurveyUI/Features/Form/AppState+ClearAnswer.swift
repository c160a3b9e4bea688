import SurveyValues
import SurveyForms

/// Del on the form clears the highlighted answer (issue 30: one meaning on the form, as in
/// CSEntry and Collect, where Del once asked to delete the whole survey from under a keyer
/// who meant one answer). Deleting a survey stays on the list (d, Del there).
extension AppState {
    /// As if the answer were emptied and kept: the form's rules judge it (a required answer
    /// is refused, with the reason) and its calculations follow. On a stored survey it is a
    /// change like any other, which Ctrl-Z undoes; on the New form, which keeps no undo
    /// history, Ctrl-Z puts the cleared answer back too.
    mutating func clearHighlightedAnswer() -> [Effect] {
        guard document != nil, case .field(let i) = formItem else { return [] }
        let outline = self.outline
        guard outline.indices.contains(i), outline.isNavigable(i) else { return [] }
        guard outline.heading(i) == nil else {
            statusLine.tell("Del clears an answer; ^D deletes the member shown")
            return []
        }
        let label = outline.field(i).label
        let text = outline.storedText(i, in: formRecord)
        guard let old = outline.value(i, in: formRecord), !text.isEmpty else {
            statusLine.tell("\(label) has no answer to clear")
            return []
        }
        let before = formRecord
        form.beginEditing(EditBuffer(entry: i, text: "", original: text))
        guard let effects = commitEditing() else {
            form.stopEditing()
            return []
        }
        if shown == .draft {
            form.keepClearedAnswer(ClearedAnswer(path: outline.path(i), value: old, label: label, before: before, after: formRecord))
        }
        statusLine.tell("Cleared \(label): Ctrl-Z brings it back")
        return effects
    }

    /// Ctrl-Z on the New form right after Del: the answer back where it was, exactly as it
    /// was stored, the form's calculations following (nil when the last thing to take back
    /// is not a cleared answer).
    mutating func putBackClearedAnswer() -> [Effect]? {
        guard shown == .draft, case .answer(let cleared)? = form.draftUndo.last else { return nil }
        _ = form.takeDraftUndo()
        if let before = cleared.before, cleared.after == formRecord {
            // Nothing changed since the clear: the form as it was, settled then; settling the
            // answer's return as a new change would fire its triggers again.
            rollback = captureRollback()
            form.setDraft(before)
            form.startDraftClock(at: ruleClock.now)
            form.highlight(problemAt: cleared.path, in: formContext)
            statusLine.tell("Put back \(cleared.label)")
            return [.saveDraft]
        }
        var record = formRecord
        guard record.store(cleared.value, at: cleared.path) else {
            statusLine.warn("\(cleared.label) could not be put back: the survey holds something else there now")
            return []
        }
        let effects = changeFormRecord(to: record, roster: cleared.path, label: "put back")
        form.highlight(problemAt: cleared.path, in: formContext)
        statusLine.tell("Put back \(cleared.label)")
        return effects
    }
}
