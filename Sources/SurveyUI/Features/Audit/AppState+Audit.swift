import SurveyValues
import SurveyForms

/// The audit log (a form with an `audit` row, ODK Collect's shape): after every action
/// (`update`) the form's place is compared with the trail's, and the events follow from the
/// difference, as Collect's `AuditEventLogger` follows its screens (`AuditTrail.follow`, the
/// trail's own reducer, from what it reads here: `auditContext`). Keying a New form starts
/// its log (`form start`); starting to change a stored survey resumes it (`form resume`);
/// while a survey's log is open, each question the highlight rests on is a `question` event
/// from when it was entered to when it was left. Leaving a stored survey ends its log
/// (`form save` if a change was saved, `form exit`) and writes it; a New form's log is
/// written when it is added (`form save`, `form exit`, `form finalize`) or kept incomplete.
extension AppState {
    /// The form's audit settings; nil when it keeps no log.
    var auditSettings: AuditSettings? {
        AuditSettings(form: session.questionnaire.form)
    }

    /// What the audit log reads of the app (`AuditTrail.follow`).
    var auditContext: AuditTrail.Context {
        let app = self
        return AuditTrail.Context(
            settings: auditSettings, formEncrypts: session.questionnaire.form?.publicKey != nil, clock: environment.clock,
            documentName: documentName, documentRead: document != nil, shown: shown, records: records, draft: draft,
            draftQuestionnaire: draftQuestionnaire, questionnaire: session.questionnaire, typing: editing != nil,
            popoverOpen: popover != nil, login: environment.device.username,
            highlighted: {
                guard case .field(let i) = app.formItem else { return nil }
                let outline = app.outline
                guard outline.heading(i) == nil else { return nil }
                let field = outline.field(i)
                guard field.kind != .groupStart, field.kind != .groupEnd else { return nil }
                return (outline.path(i), field)
            })
    }

    // MARK: The prompts

    /// Enter on a prompt.
    mutating func commitAuditPrompt() -> [Effect] {
        guard case .audit(let prompt) = popover else { return [] }
        let text = prompt.input.text.trimmingWhitespace()
        switch prompt.kind {
        case .user:
            guard !text.isEmpty else {
                warn("Type who is keying: the form logs a name with every answer")
                return []
            }
            popovers.dismiss()
            audit.identify(text)
            tell("Keying as \(text)")
            return []
        case .reason:
            giveReason(text, on: prompt)
            return []
        }
    }

    /// Esc on a prompt: who is keying stays unknown and nothing is keyed; a change waiting
    /// for its reason is not saved, its text still on the form (`AppState+ChangeReasons`).
    mutating func cancelAuditPrompt() {
        guard case .audit(let prompt) = popover else { return }
        popovers.dismiss()
        switch prompt.kind {
        case .user:
            form.stopEditing()
            tell("Nothing keyed: the form asks who is keying first")
        case .reason:
            keepChangeUnsaved(prompt)
        }
    }
}
