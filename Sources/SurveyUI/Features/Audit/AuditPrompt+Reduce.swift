import SurveyValues
import SurveyForms

/// The audit prompts' own reducer (issue 29: a child reducer): Enter and Esc on who is keying
/// or why a stored survey is changed, decided from the prompt alone, and what they ask of the
/// app as a value. `AppState.reduce(_: AuditAction)` does what is asked: the trail learns the
/// name or the reason, and what the change waited on is put back (`AppState+ChangeReasons`).
extension AuditPrompt {
    /// What a key on the prompt asks of the app.
    enum Request: Equatable {
        /// The prompt stays, and the status says why.
        case warn(String)
        /// Who is keying: the prompt closes, and the trail knows them.
        case identify(String)
        /// Esc on who is keying: the prompt closes; nothing is keyed (the entry begun goes).
        case keyNothing
        /// A reason given: the prompt closes, the trail keeps it for the change waiting, and
        /// what was open when the key came is put back for the key to be replayed.
        case giveReason(String, for: ChangeAwaitingReason?)
        /// Esc on a reason: the prompt closes, nothing is saved, what was open is open again.
        case keepUnsaved(ChangeAwaitingReason?)
    }

    func reduce(_ action: AuditAction) -> Request {
        let text = input.text.trimmingWhitespace()
        switch (action, kind) {
        case (.commitPrompt, .user):
            return text.isEmpty ? .warn("Type who is keying: the form logs a name with every answer") : .identify(text)
        case (.commitPrompt, .reason):
            return text.isEmpty ? .warn("Type why the survey is changed (Esc: not now, nothing is saved)")
                                : .giveReason(text, for: waiting)
        case (.cancelPrompt, .user):
            return .keyNothing
        case (.cancelPrompt, .reason):
            return .keepUnsaved(waiting)
        }
    }
}
