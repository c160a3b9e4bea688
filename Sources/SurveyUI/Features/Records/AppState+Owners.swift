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
        guard let (owner, record) = KeyTrial(before: self, after: trial, effects: effects).othersSurveyTouched else {
            self = trial
            return effects
        }
        statusLine.warn(session.othersSurveyRemark(record, owner: owner))
        return []
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
