import SurveyValues
import SurveyForms

/// The audit log's own reducer (issue 29: a child reducer, as `VerifySession.reduce`): after
/// every action the trail compares the form's place (`Context`) with its own, and the events
/// follow from the difference, as Collect's `AuditEventLogger` follows its screens; the
/// features' hooks (a New form stored, a change saved, a member added) are its methods too.
/// What it asks of the app comes back as values: the writes (`Effect.noteAudit`) and the
/// prompt for who is keying. `AppState` only builds the context and routes (`AppState+Audit`).
extension AuditTrail {
    /// What the audit log reads of the app.
    struct Context {
        /// The form's audit settings; nil when it keeps no log.
        var settings: AuditSettings?
        /// Whether the form has a `public_key` (its surveys are encrypted when finished).
        var formEncrypts: Bool
        var clock: WallClock
        /// The document's name, and whether it was read (an unreadable one keeps no log).
        var documentName: String
        var documentRead: Bool
        var shown: AppState.Shown
        var records: RecordList
        var draft: Record
        /// The New form's questionnaire and the stored surveys': their nodes name the events.
        var draftQuestionnaire: Questionnaire
        var questionnaire: Questionnaire
        /// Whether an answer is being typed: a survey's log begins with its first.
        var typing: Bool
        var popoverOpen: Bool
        /// Who this machine says is logged in: the prompt for who is keying starts with it.
        var login: String
        /// The question the highlight rests on (its path and field), nil on a heading, a
        /// group's bounds, Clear or Add: asked only while a log is open (it walks the form).
        var highlighted: () -> (path: AnswerPath, field: FieldSpec)?

        /// The survey on the form as the audit log names it: nil for the New form, else its
        /// id (a survey without one yet, just found so, has no log until it has one).
        var here: String?? {
            switch shown {
            case .draft: return .some(nil)
            case .record(let i): return records[i].instanceID.map { .some($0) } ?? nil
            }
        }

        func questionnaire(draft isDraft: Bool) -> Questionnaire { isDraft ? draftQuestionnaire : questionnaire }
    }

    /// What following one action asks of the app.
    struct Followed: Equatable {
        /// The action's effects, the log's writes placed before a quit or another document's opening.
        var effects: [Effect]
        /// Who is keying, asked before the first answer of the run (`identify-user`).
        var prompt: AuditPrompt?
    }

    /// After every action: the events the move made, and the writes it calls for.
    mutating func follow(_ effects: [Effect], in context: Context) -> Followed {
        guard let settings = context.settings, context.documentRead else {
            if draft != nil || stored != nil { self = AuditTrail(keeping: user, reason: reason) }
            return Followed(effects: effects)
        }
        let now = tick(context.clock.now)
        var written: [Effect] = []
        if document != context.documentName {
            // Another document: the stored survey's log goes to the one it belongs to.
            if let old = document { written += endStored(at: now, settings: settings, document: old, in: context) }
            dropDraft()
            follow(document: context.documentName)
        }
        let here = context.here
        if let stored, here != .some(stored.survey) {
            written += endStored(at: now, settings: settings, document: context.documentName, in: context)
        }
        if draft?.open != nil, here != .some(nil) {
            closeQuestion(draft: true, at: now, answer: answer(of: draft?.open, draft: true, in: context),
                          trackChanges: settings.trackChanges)
        }
        guard let here else { return Followed(effects: Self.place(written, before: effects)) }
        let isDraft = here == nil
        if session(draft: isDraft) == nil, context.typing {
            begin(survey: here, at: now)
        }
        if session(draft: isDraft) != nil {
            followQuestion(draft: isDraft, at: now, settings: settings, in: context)
        }
        if effects.contains(.quit) {
            written += endStored(at: now, settings: settings, document: context.documentName, in: context)
        }
        var prompt: AuditPrompt?
        if settings.identifyUser, user == nil, context.typing, !context.popoverOpen {
            prompt = AuditPrompt(kind: .user, input: TextInput(text: context.login, selectingAll: true))
        }
        return Followed(effects: Self.place(written, before: effects), prompt: prompt)
    }

    /// The audit writes go before a quit or an opening of another document.
    private static func place(_ written: [Effect], before effects: [Effect]) -> [Effect] {
        guard !written.isEmpty else { return effects }
        if let i = effects.firstIndex(where: { if case .openDocument = $0 { true } else { $0 == .quit } }) {
            return Array(effects[..<i]) + written + effects[i...]
        }
        return effects + written
    }

    /// The highlight moved to another question of the survey whose log is open: the one it
    /// left ends, the one it is on starts.
    private mutating func followQuestion(draft isDraft: Bool, at now: Int64, settings: AuditSettings, in context: Context) {
        let current = highlightedQuestion(at: now, draft: isDraft, in: context)
        let open = session(draft: isDraft)?.open
        guard current?.node != open?.node else { return }
        if open != nil {
            closeQuestion(draft: isDraft, at: now, answer: answer(of: open, draft: isDraft, in: context), trackChanges: settings.trackChanges)
        }
        if let current { openQuestion(current, draft: isDraft) }
    }

    private func highlightedQuestion(at now: Int64, draft isDraft: Bool, in context: Context) -> OpenQuestion? {
        guard let (path, field) = context.highlighted(),
              let node = context.questionnaire(draft: isDraft).auditNode(path) else { return nil }
        let record: Record = switch context.shown {
        case .record(let i): context.records[i]
        case .draft: context.draft
        }
        return OpenQuestion(node: node, path: path, field: field, start: now,
                            old: field.displayText(Self.value(at: path, in: record)))
    }

    private static func value(at path: AnswerPath, in record: Record) -> PropertyValue? {
        path.steps.isEmpty ? record[path.name] : record.value(at: path)
    }

    /// The open question's answer now, in the survey it belongs to.
    private func answer(of open: OpenQuestion?, draft isDraft: Bool, in context: Context, record: Record? = nil) -> String? {
        guard let open else { return nil }
        let survey: Record? = record ?? (isDraft ? context.draft : stored.flatMap { s in context.records.first { $0.instanceID == s.survey } })
        return survey.map { open.field.displayText(Self.value(at: open.path, in: $0)) }
    }

    /// Ends the stored survey's log and writes it.
    private mutating func endStored(at now: Int64, settings: AuditSettings, document: String, in context: Context) -> [Effect] {
        guard let stored else { return [] }
        closeQuestion(draft: false, at: now, answer: answer(of: stored.open, draft: false, in: context), trackChanges: settings.trackChanges)
        let events = finish(draft: false, at: now, with: stored.changed ? [.formSave, .formExit] : [.formExit])
        return [.noteAudit(document: document, events, addedSurvey: nil)]
    }

    // MARK: Hooks where the features act

    /// The New form was stored as survey `index` ([ Add ]: finalized; kept incomplete: not).
    mutating func draftStored(as index: Int, finalized: Bool, in context: Context) -> [Effect] {
        guard let settings = context.settings, draft != nil, context.records.indices.contains(index) else { return [] }
        let now = tick(context.clock.now)
        closeQuestion(draft: true, at: now, answer: answer(of: draft?.open, draft: true, in: context, record: context.records[index]),
                      trackChanges: settings.trackChanges)
        let events = finish(draft: true, at: now, with: finalized ? [.formSave, .formExit, .formFinalize] : [.formSave, .formExit])
        return [.noteAudit(document: context.documentName, events, addedSurvey: AddedSurvey(context.records[index], near: index))]
    }

    /// [ Finish ] of stored survey `index` on a form with a `public_key`: its open log ends
    /// now (`form save`, `form exit`, `form finalize`), in the save that encrypts the survey,
    /// so its lines travel inside it; ended when the keyer leaves, they would find the survey
    /// already encrypted.
    mutating func storedSurveyFinished(_ index: Int, in context: Context) -> [Effect] {
        guard let settings = context.settings, context.formEncrypts, context.records.indices.contains(index),
              let stored, stored.survey == context.records[index].instanceID else { return [] }
        let now = tick(context.clock.now)
        closeQuestion(draft: false, at: now, answer: answer(of: stored.open, draft: false, in: context, record: context.records[index]),
                      trackChanges: settings.trackChanges)
        let events = finish(draft: false, at: now, with: [.formSave, .formExit, .formFinalize])
        return [.noteAudit(document: context.documentName, events, addedSurvey: nil)]
    }

    /// A change to the survey on the form was saved: a stored survey's log ends with `form save`.
    mutating func changeSaved(in context: Context) {
        if context.settings != nil, case .record = context.shown { noteChanged() }
    }

    /// An event at a place of the survey on the form (`add repeat`, `delete repeat`,
    /// `constraint error`), its log begun if it was not yet.
    mutating func note(_ kind: AuditEvent.Kind, at path: AnswerPath, in context: Context) {
        guard context.settings != nil, let here = context.here else { return }
        let isDraft = here == nil
        let now = tick(context.clock.now)
        if session(draft: isDraft) == nil { begin(survey: here, at: now) }
        let node = context.questionnaire(draft: isDraft).auditNode(path) ?? ""
        add(AuditEvent(kind: kind, node: node, start: now, end: kind == .addRepeat ? now : nil), draft: isDraft)
    }
}
