import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// After a save: every change this save made to a survey already stored goes into the
/// document's edit history (`.NAME.history.jsonl`, issue 31): who (the login), when, each
/// answer from what to what, and why when the audit log asked. An Add or a delete is not an
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
            let changes = AnswerChanges.between(before.answers, after.answers)
            guard !changes.isEmpty else { continue }
            let reason = state.audit.stored.flatMap { $0.survey == id ? $0.reason : nil }
            entries.append(EditHistoryEntry(survey: id, at: now, by: login, changes: changes, reason: reason))
        }
        do {
            try store.appendHistory(entries, for: state.documentName)
            return []
        } catch {
            return [.documentOperationFailed("Saved, but the edit history was not kept: \(Self.describe(error))")]
        }
    }
}
