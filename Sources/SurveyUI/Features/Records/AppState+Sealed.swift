import SurveyValues
import SurveyForms

/// A survey encrypted for the data manager's key (issue 31, `Record.isSealed`): the list
/// shows it by its `publishable` answers or as "(encrypted)", and it can be browsed (its id,
/// times and publishable answers), deleted, and its Add undone; anything that would open it
/// for editing (typing, the picker, a member, clearing its answers) or copy it is refused
/// with why, before anything changes, as another role's survey is (`AppState+Owners`).
/// Nothing here can read it: only the private key, which never comes to a field laptop, can.
extension AppState {
    /// `update` when the form shows an encrypted survey: the key runs on a copy, and one whose
    /// copy would start changing it, or change it, is refused with the state as it was.
    mutating func updateGuardingSealedSurveys(_ action: Action) -> [Effect] {
        if action == .records(.undo) || action == .records(.redo) { return updateRefusingUnsealing(action) }
        guard action.isUserInput, case .record(let i) = shown, records.indices.contains(i), records[i].isSealed else {
            return updateGuardingOthersSurveys(action)
        }
        var trial = self
        let effects = trial.updateGuardingOthersSurveys(action)
        guard let record = KeyTrial(before: self, after: trial, effects: effects).sealedSurveyTouched else {
            self = trial
            return effects
        }
        statusLine.warn(session.sealedSurveyRemark(record))
        return []
    }

    /// Ctrl-Z and Ctrl-Y, wherever the highlight is: one that would put an encrypted survey
    /// back as it was before its finish (in clear, its attachments' plaintext already gone from
    /// the media folder) is refused; undoing an Add or a delete of one is not (the survey goes
    /// or comes back encrypted).
    private mutating func updateRefusingUnsealing(_ action: Action) -> [Effect] {
        guard let before = document?.records else { return updateGuardingOthersSurveys(action) }
        var sealed: [String: Record] = [:]
        for record in before where record.isSealed { if let id = record.instanceID { sealed[id] = record } }
        guard !sealed.isEmpty else { return updateGuardingOthersSurveys(action) }
        var trial = self
        let effects = trial.updateGuardingOthersSurveys(action)
        let unsealed = trial.records.first { record in
            guard let id = record.instanceID, let was = sealed[id] else { return false }
            return !record.isSealed && record != was
        }
        guard let unsealed, let id = unsealed.instanceID, let was = sealed[id] else {
            self = trial
            return effects
        }
        statusLine.warn("Not \(action == .records(.undo) ? "undone" : "redone"): \(session.quotedTitle(was)) is encrypted now; "
            + "that would put it back in clear")
        return []
    }
}
