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
                // The log follows before the highlight is settled (`followQuestionnaire`): a key
                // that took away the member it was in (Ctrl-Z of an added member) leaves it past
                // the walk's end for that moment, on no question.
                guard outline.indices.contains(i), outline.heading(i) == nil else { return nil }
                let field = outline.field(i)
                guard field.kind != .groupStart, field.kind != .groupEnd else { return nil }
                return (outline.path(i), field)
            })
    }

    // MARK: The prompts

    /// Enter or Esc on a prompt (`AuditPrompt.reduce`), and what it asks done. Esc on who is
    /// keying leaves it unknown and nothing keyed; on a reason, the change waiting for it is
    /// not saved, its text still on the form (`AppState+ChangeReasons`).
    mutating func reduce(_ action: AuditAction) -> [Effect] {
        guard case .audit(let prompt) = popover else { return [] }
        switch prompt.reduce(action) {
        case .warn(let message):
            statusLine.warn(message)
        case .identify(let name):
            popovers.dismiss()
            audit.identify(name)
            statusLine.tell("Keying as \(name)")
        case .keyNothing:
            popovers.dismiss()
            form.stopEditing()
            statusLine.tell("Nothing keyed: the form asks who is keying first")
        case .giveReason(let text, let waiting):
            // Kept for the survey (and logged, with an audit row); what was open is put back
            // for the key it waits for (`updateAskingReasons` replays it).
            popovers.dismiss()
            guard let waiting else { return [] }
            audit.giveReason(text, for: waiting.survey, in: documentName, at: audit.tick(environment.clock.now),
                             logged: auditSettings != nil)
            if let open = waiting.popover { popovers.present(open) }
            form.askRoster(waiting.rosterQuestion)
            form.ask(waiting.question)
        case .keepUnsaved(let waiting):
            // Nothing saved: the entry typed is still in its box, the picker (or what else was
            // open) still open; a y/n question it answered is answered no.
            popovers.dismiss()
            if let open = waiting?.popover { popovers.present(open) }
            if editing != nil {
                statusLine.tell("Not saved: your entry is still on the form (Esc again puts the answer back)")
            } else if case .picker? = popover {
                statusLine.tell("Not saved: the choice is still picked (Esc leaves the answer as it was)")
            } else {
                statusLine.tell("Not saved: the survey is as it was")
            }
        }
        return []
    }
}
