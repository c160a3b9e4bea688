import SurveyValues
import SurveyForms

/// Another enumerator's survey (issue 28). The team's server lets only a survey's owner
/// change its answers or delete it; a supervisor only reviews. The app mirrors that, from the
/// ledger (`SyncSummary.othersSurveys`): the list marks such a survey `@ana`, the form's
/// heading says whose it is, and anything that would change it (typing, the picker, a member
/// added or deleted, delete, clearing answers, undo and redo, keeping mine in a conflict) is
/// refused with whose it is, before anything changes. Browsing, finding, copying it into a
/// new survey of one's own, and taking theirs in a conflict go on.
extension AppState {
    /// "“Kamau, John” is read-only here: it is ana's survey (only ana changes it; a
    /// supervisor reviews it)".
    func othersSurveyRemark(_ record: Record, owner: String) -> String {
        "\(session.quotedTitle(record)) is read-only here: \(SurveyOwner.reason(owner))"
    }

    /// `update` for a document holding others' surveys: a key runs on a copy, and one whose
    /// copy would start changing, or change, another's survey is refused, with the state as
    /// it was before the key (as a read-only document refuses, `AppState+ReadOnly`).
    mutating func updateGuardingOthersSurveys(_ action: Action) -> [Effect] {
        guard action.isUserInput, let others = session.sync?.othersSurveys, !others.isEmpty,
              !action.isLeftAloneByOwnersGuard(typing: editing != nil) else {
            return transition(&self, action)
        }
        var trial = self
        let effects = transition(&trial, action)
        guard let (owner, record) = othersSurveyTouched(by: trial, effects) else {
            self = trial
            return effects
        }
        warn(othersSurveyRemark(record, owner: owner))
        return []
    }

    /// The first survey of another role that `trial`, this state after a key, starts changing
    /// or changes, with its owner.
    private func othersSurveyTouched(by trial: AppState, _ effects: [Effect]) -> (String, Record)? {
        func others(_ i: Int, in state: AppState) -> (String, Record)? {
            guard state.records.indices.contains(i) else { return nil }
            let record = state.records[i]
            return session.othersOwner(of: record).map { ($0, record) }
        }
        // Starting on the survey the form shows: typing, the picker, a member added by hand
        // or asked about.
        if case .record(let i) = trial.shown {
            let pickerOpened: Bool = if case .picker = trial.popover, trial.popover != popover { true } else { false }
            let starts = (trial.editing != nil && editing == nil) || pickerOpened
                || (trial.form.unsavedMember != nil && form.unsavedMember == nil)
                || (trial.form.rosterQuestion != nil && form.rosterQuestion == nil)
            if starts, let found = others(i, in: trial) { return found }
        }
        // A y/n question about a stored survey: deleting it, clearing its answers (a copy is
        // a new survey, this laptop's).
        if trial.form.pendingQuestion != form.pendingQuestion {
            switch trial.form.pendingQuestion {
            case .delete(let i)?, .clearNotAsked(let i, _)?: if let found = others(i, in: trial) { return found }
            default: break
            }
        }
        for effect in effects {
            switch effect {
            case .keepDeleted(let removed):
                for record in removed { if let owner = session.othersOwner(of: record) { return (owner, record) } }
            case .resolveConflict(let id, _, true):
                if let owner = session.sync?.othersSurveys[id], let i = records.firstIndex(where: { $0.instanceID == id }) {
                    return (owner, records[i])
                }
            default: break
            }
        }
        // Any other change to stored surveys (undo, redo): the ones that differ. Unchanged
        // chunks of the list are skipped whole, so a key that changed one survey costs little.
        if trial.records.count == records.count, !trial.records.isSameStorage(as: records) {
            for i in trial.records.differingIndices(from: records) { if let found = others(i, in: self) { return found } }
        }
        return nil
    }
}

extension Action {
    /// Keys the guard of others' surveys leaves alone: those typed into an answer already
    /// being typed (`typing`), which change no survey (the answer is committed by a form key),
    /// run in place, with no copy, which would make each key copy a long answer
    /// (`FormState.editText`); and the documents' keys, whose one change to surveys is putting
    /// back what an earlier session could not save: refusing it would leave that work stuck,
    /// and a change to another's survey in it is kept as a conflict at the next sync, as any
    /// change from before.
    func isLeftAloneByOwnersGuard(typing: Bool) -> Bool {
        switch self {
        case .text(.paste): return false
        case .text: return typing
        case .documents: return true
        default: return false
        }
    }
}
