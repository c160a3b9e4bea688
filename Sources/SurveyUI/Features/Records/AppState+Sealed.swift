import SurveyValues
import SurveyForms

/// A survey encrypted for the data manager's key (issue 31, `Record.isSealed`): the list
/// shows it by its `publishable` answers or as "(encrypted)", and it can be browsed (its id,
/// times and publishable answers), deleted, and its Add undone; anything that would open it
/// for editing (typing, the picker, a member, clearing its answers) or copy it is refused
/// with why, before anything changes, as another role's survey is (`AppState+Owners`).
/// Nothing here can read it: only the private key, which never comes to a field laptop, can.
extension AppState {
    /// "“(encrypted)” is encrypted for the data manager's key: it cannot be opened here".
    func sealedSurveyRemark(_ record: Record) -> String {
        "\(session.quotedTitle(record)) is encrypted for the data manager's key: it cannot be opened here"
    }

    /// `update` when the form shows an encrypted survey: the key runs on a copy, and one whose
    /// copy would start changing it, or change it, is refused with the state as it was.
    mutating func updateGuardingSealedSurveys(_ action: Action) -> [Effect] {
        if action == .records(.undo) || action == .records(.redo) { return updateRefusingUnsealing(action) }
        guard action.isUserInput, case .record(let i) = shown, records.indices.contains(i), records[i].isSealed else {
            return updateGuardingOthersSurveys(action)
        }
        var trial = self
        let effects = trial.updateGuardingOthersSurveys(action)
        guard let record = sealedSurveyTouched(by: trial, effects) else {
            self = trial
            return effects
        }
        warn(sealedSurveyRemark(record))
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
        warn("Not \(action == .records(.undo) ? "undone" : "redone"): \(session.quotedTitle(was)) is encrypted now; "
            + "that would put it back in clear")
        return []
    }

    /// The encrypted survey that `trial`, this state after a key, starts changing, copies or
    /// changes.
    private func sealedSurveyTouched(by trial: AppState, _ effects: [Effect]) -> Record? {
        func sealed(_ i: Int) -> Record? {
            records.indices.contains(i) && records[i].isSealed ? records[i] : nil
        }
        if case .record(let i) = trial.shown {
            let pickerOpened: Bool = if case .picker = trial.popover, trial.popover != popover { true } else { false }
            let starts = (trial.editing != nil && editing == nil) || pickerOpened
                || (trial.form.unsavedMember != nil && form.unsavedMember == nil)
                || (trial.form.rosterQuestion != nil && form.rosterQuestion == nil)
            if starts, let found = sealed(i) { return found }
        }
        if trial.form.pendingQuestion != form.pendingQuestion {
            switch trial.form.pendingQuestion {
            case .copy(let i)?, .clearNotAsked(let i, _)?: if let found = sealed(i) { return found }
            default: break
            }
        }
        // A change in place (not a delete, nor an Add undone): the ones that differ.
        if trial.records.count == records.count, !trial.records.isSameStorage(as: records) {
            for i in trial.records.differingIndices(from: records) { if let found = sealed(i) { return found } }
        }
        return nil
    }
}
