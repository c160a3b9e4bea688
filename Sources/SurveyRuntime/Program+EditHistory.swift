import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// After a save: every change this save made to a survey already stored goes into the
/// document's edit history (`.NAME.history.jsonl`, issue 31): who (the login), when, each
/// answer from what to what, and why when the keyer was asked (`AppState+ChangeReasons`: the
/// form's `track-changes-reasons`, or a survey a supervisor approved). An Add or a delete is not an
/// edit (the document's count changed: nothing is noted), and an incomplete survey is still
/// being keyed. A line that cannot be written is said on the status line; the change itself
/// is saved.
extension Program {
    func recordHistory(of saved: SurveyDocument, since base: SurveyDocument?) -> [Outcome] {
        guard let base, saved.records.count == base.records.count else { return [] }
        let changed = saved.records.differingIndices(from: base.records)
        guard !changed.isEmpty else { return [] }
        let now = state.environment.clock.now
        // Who is keying as the form's `identify-user` named them, else the login.
        let login = state.audit.user ?? state.environment.device.username
        var entries: [EditHistoryEntry] = []
        for i in changed {
            let after = saved.records[i], before = base.records[i]
            // An encrypted survey's change is no answer-by-answer edit here: its answers are
            // not readable (the team's store keeps each version whole).
            guard let id = after.instanceID, before.instanceID == id, !before.isIncomplete, !after.isSealed else { continue }
            // The entity an update started from (`EntityBase`) is the app's note, not an answer keyed.
            var old = before.answers, new = after.answers
            old[EntityBase.recordKey] = nil
            new[EntityBase.recordKey] = nil
            let changes = AnswerChanges.between(old, new)
            guard !changes.isEmpty else { continue }
            let reason = state.audit.reason(for: id)
            entries.append(EditHistoryEntry(survey: id, at: now, by: login, changes: changes, reason: reason))
        }
        do {
            try store.appendHistory(entries, for: state.documentName)
            return []
        } catch {
            return [.documents(.operationFailed("Saved, but the edit history was not kept: \(Self.describe(error))"))]
        }
    }
}
