import SurveyValues
import SurveyForms

/// The audit log (a form with an `audit` row, ODK Collect's shape): after every action
/// (`update`) the form's place is compared with the trail's, and the events follow from the
/// difference, as Collect's `AuditEventLogger` follows its screens. Keying a New form starts
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

    /// The survey on the form as the audit log names it: nil for the New form, else its id
    /// (a survey without one yet, just found so, has no log until it has one).
    private var auditSurveyHere: String?? {
        switch shown {
        case .draft: return .some(nil)
        case .record(let i): return records[i].instanceID.map { .some($0) } ?? nil
        }
    }

    /// After every action: the events the move made, and the writes it calls for.
    mutating func followAudit(after effects: [Effect]) -> [Effect] {
        guard let settings = auditSettings, document != nil else {
            if audit.draft != nil || audit.stored != nil { audit = AuditTrail(keeping: audit.user, reason: audit.reason) }
            return effects
        }
        let now = audit.tick(environment.clock.now)
        var written: [Effect] = []
        if audit.document != documentName {
            // Another document: the stored survey's log goes to the one it belongs to.
            if let old = audit.document { written += endStoredAudit(at: now, settings: settings, document: old) }
            audit.dropDraft()
            audit.follow(document: documentName)
        }
        let here = auditSurveyHere
        if let stored = audit.stored, here != .some(stored.survey) {
            written += endStoredAudit(at: now, settings: settings, document: documentName)
        }
        if audit.draft?.open != nil, here != .some(nil) {
            audit.closeQuestion(draft: true, at: now, answer: auditAnswer(of: audit.draft?.open, draft: true),
                                trackChanges: settings.trackChanges)
        }
        guard let here else { return placeBefore(written, in: effects) }
        let isDraft = here == nil
        if audit.session(draft: isDraft) == nil, editing != nil {
            audit.begin(survey: here, at: now)
        }
        if audit.session(draft: isDraft) != nil {
            followQuestion(draft: isDraft, at: now, settings: settings)
        }
        if effects.contains(.quit) {
            written += endStoredAudit(at: now, settings: settings, document: documentName)
        }
        // Who is keying, before the first answer of the run (`identify-user`).
        if settings.identifyUser, audit.user == nil, editing != nil, popover == nil {
            popovers.present(.audit(AuditPrompt(kind: .user, input: TextInput(text: environment.device.username, selectingAll: true))))
        }
        return placeBefore(written, in: effects)
    }

    /// The audit writes go before a quit or an opening of another document.
    private func placeBefore(_ written: [Effect], in effects: [Effect]) -> [Effect] {
        guard !written.isEmpty else { return effects }
        if let i = effects.firstIndex(where: { if case .openDocument = $0 { true } else { $0 == .quit } }) {
            return Array(effects[..<i]) + written + effects[i...]
        }
        return effects + written
    }

    /// The highlight moved to another question of the survey whose log is open: the one it
    /// left ends, the one it is on starts.
    private mutating func followQuestion(draft isDraft: Bool, at now: Int64, settings: AuditSettings) {
        let current = highlightedAuditQuestion(at: now, draft: isDraft)
        let open = audit.session(draft: isDraft)?.open
        guard current?.node != open?.node else { return }
        if open != nil {
            audit.closeQuestion(draft: isDraft, at: now, answer: auditAnswer(of: open, draft: isDraft), trackChanges: settings.trackChanges)
        }
        if let current { audit.openQuestion(current, draft: isDraft) }
    }

    private func highlightedAuditQuestion(at now: Int64, draft isDraft: Bool) -> AuditTrail.OpenQuestion? {
        guard case .field(let i) = formItem else { return nil }
        let outline = self.outline
        guard outline.heading(i) == nil else { return nil }
        let field = outline.field(i)
        guard field.kind != .groupStart, field.kind != .groupEnd else { return nil }
        let path = outline.path(i)
        guard let node = (isDraft ? draftQuestionnaire : session.questionnaire).auditNode(path) else { return nil }
        return AuditTrail.OpenQuestion(node: node, path: path, field: field, start: now,
                                       old: field.displayText(Self.auditValue(at: path, in: formRecord)))
    }

    private static func auditValue(at path: AnswerPath, in record: Record) -> PropertyValue? {
        path.steps.isEmpty ? record[path.name] : record.value(at: path)
    }

    /// The open question's answer now, in the survey it belongs to.
    private func auditAnswer(of open: AuditTrail.OpenQuestion?, draft isDraft: Bool, in record: Record? = nil) -> String? {
        guard let open else { return nil }
        let survey: Record? = record ?? (isDraft ? draft : audit.stored.flatMap { s in records.first { $0.instanceID == s.survey } })
        return survey.map { open.field.displayText(Self.auditValue(at: open.path, in: $0)) }
    }

    /// Ends the stored survey's log and writes it.
    private mutating func endStoredAudit(at now: Int64, settings: AuditSettings, document: String) -> [Effect] {
        guard let stored = audit.stored else { return [] }
        audit.closeQuestion(draft: false, at: now, answer: auditAnswer(of: stored.open, draft: false), trackChanges: settings.trackChanges)
        let events = audit.finish(draft: false, at: now, with: stored.changed ? [.formSave, .formExit] : [.formExit])
        return [.noteAudit(document: document, events, addedSurvey: nil)]
    }

    // MARK: Hooks where the features act

    /// The New form was stored as survey `index` ([ Add ]: finalized; kept incomplete: not).
    mutating func auditDraftStored(as index: Int, finalized: Bool) -> [Effect] {
        guard let settings = auditSettings, audit.draft != nil, records.indices.contains(index) else { return [] }
        let now = audit.tick(environment.clock.now)
        audit.closeQuestion(draft: true, at: now, answer: auditAnswer(of: audit.draft?.open, draft: true, in: records[index]),
                            trackChanges: settings.trackChanges)
        let events = audit.finish(draft: true, at: now, with: finalized ? [.formSave, .formExit, .formFinalize] : [.formSave, .formExit])
        return [.noteAudit(document: documentName, events, addedSurvey: AddedSurvey(records[index], near: index))]
    }

    /// [ Finish ] of stored survey `index` on a form with a `public_key`: its open log ends
    /// now (`form save`, `form exit`, `form finalize`), in the save that encrypts the survey,
    /// so its lines travel inside it; ended when the keyer leaves, they would find the survey
    /// already encrypted.
    mutating func auditStoredSurveyFinished(_ index: Int) -> [Effect] {
        guard let settings = auditSettings, session.questionnaire.form?.publicKey != nil,
              records.indices.contains(index), let stored = audit.stored, stored.survey == records[index].instanceID else { return [] }
        let now = audit.tick(environment.clock.now)
        audit.closeQuestion(draft: false, at: now, answer: auditAnswer(of: stored.open, draft: false, in: records[index]),
                            trackChanges: settings.trackChanges)
        let events = audit.finish(draft: false, at: now, with: [.formSave, .formExit, .formFinalize])
        return [.noteAudit(document: documentName, events, addedSurvey: nil)]
    }

    /// A change to the stored survey on the form was saved.
    mutating func auditChangeSaved() {
        if auditSettings != nil, case .record = shown { audit.noteChanged() }
    }

    /// An event at a place of the survey on the form (`add repeat`, `delete repeat`,
    /// `constraint error`), its log begun if it was not yet.
    mutating func auditNote(_ kind: AuditEvent.Kind, at path: AnswerPath) {
        guard auditSettings != nil, let here = auditSurveyHere else { return }
        let isDraft = here == nil
        let now = audit.tick(environment.clock.now)
        if audit.session(draft: isDraft) == nil { audit.begin(survey: here, at: now) }
        let node = (isDraft ? draftQuestionnaire : session.questionnaire).auditNode(path) ?? ""
        audit.add(AuditEvent(kind: kind, node: node, start: now, end: kind == .addRepeat ? now : nil), draft: isDraft)
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
