import SurveyValues
import SurveyForms

/// A document whose form cannot be used (`FormTrouble`: it has errors, or the surveys carry
/// a `formID` and it is missing) is read-only. Its surveys can be browsed, found, sorted and
/// looked at in F4, and the document can be left, renamed or deleted as a file; anything
/// that would change its surveys or its New form is refused with the reason and the way to
/// mend it, and the state stays as it was before the key. The file is never written.
extension AppState {
    /// What the status line says while nothing else is said, and what a refused key says.
    public var readOnlyRemark: StatusMessage? {
        session.formTrouble.map { .init("Read-only: " + $0.remark(document: documentName), kind: .error) }
    }

    /// `update` for a read-only document: a key runs on a copy (as while loading, which it
    /// may also be), and one whose copy would change anything is refused.
    mutating func updateReadOnly(_ action: Action) -> [Effect] {
        // Outcomes of effects (a document opened, a listing, a part read) are always taken,
        // in place: a copy would make a part read copy the surveys read so far.
        guard action.isUserInput else {
            return session.loading == nil ? transition(&self, action) : updateWhileLoading(action)
        }
        // The New form's place says why nothing can be keyed (an empty document's surveys
        // give no questions to start on): keys that would start there are refused first.
        if shown == .draft, screen.focus == .form, popover == nil, action.startsTyping {
            statusLine.say(readOnlyRemark)
            return []
        }
        var trial = self
        let effects = trial.session.loading == nil ? transition(&trial, action) : trial.updateWhileLoading(action)
        guard refusesReadOnly(trial, effects) else {
            self = trial
            return effects
        }
        statusLine.say(readOnlyRemark)
        return []
    }

    /// Whether `trial`, this state after a key, starts changing a survey or the New form, or
    /// its effects would write them (`Effect.writesSurveys(of:)`): what a read-only document
    /// refuses.
    func refusesReadOnly(_ trial: AppState, _ effects: [Effect]) -> Bool {
        let writes = effects.contains { $0.writesSurveys(of: documentName) }
        let pickerOpened: Bool = if case .picker = trial.popover, trial.popover != popover { true } else { false }
        return writes
            || (trial.editing != nil && editing == nil)
            || pickerOpened
            || (trial.pendingRecordDelete != nil && pendingRecordDelete == nil)
            || trial.draft != draft
            || !(trial.document?.records.isSameStorage(as: records) ?? true)
            // The New form: nothing may be keyed into it.
            || (trial.form.showingDraft && !form.showingDraft)
    }
}

extension Action {
    /// Keys that start an answer on the form.
    var startsTyping: Bool {
        switch self {
        case .form(.activate), .form(.beginEditing), .text(.insert), .text(.paste): return true
        default: return false
        }
    }
}
