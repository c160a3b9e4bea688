import SurveyValues
import SurveyForms

/// Why a stored survey is changed (issue 31): asked before a change to a stored survey is
/// saved when the form says `track-changes-reasons`, and always when the survey's review
/// known on this laptop (the sync ledger's marks, `DocumentSession.sync`) is `approved`, with
/// or without an `audit` row. Once given it holds for that survey until the keyer is on
/// another (`AuditTrail.reason`); the edit history's line of each change carries it
/// (`Program+EditHistory`), and a form's audit log its `change reason` event.
///
/// Every key that changes a stored survey asks first, whatever the path (a typed answer, a
/// choice picked, Del, a member deleted or first answered, Ctrl-Z, a click elsewhere while
/// typing), because the question is asked of the key's result, not in each path: the key is
/// tried on a copy of the state, and when that copy saved a change to a survey that needs a
/// reason not given yet, the copy is dropped and the prompt opens holding the key
/// (`ChangeAwaitingReason`). Enter with a reason puts back what was open and replays the key,
/// so it does exactly what it would have; Esc saves nothing and leaves the form as the key
/// found it (the typed entry still in its box, the picker still open).
extension AppState {
    /// `update`'s step for a document that can change (after the read-only and loading
    /// rules): the key, unless it changes a stored survey that needs a reason first.
    mutating func updateAskingReasons(_ action: Action, resuming: Bool = false) -> [Effect] {
        // The keyer left the survey since the last key (never while a key waiting is resumed:
        // Ctrl-Z in the list changes a survey not on the form).
        if !resuming { audit.forgetReason(unlessOn: storedSurveyHere, in: documentName) }
        if action == .app(.quit), case .audit(let prompt) = popover, prompt.kind == .reason {
            // ^Q again on the prompt: quitting always quits; the change without its reason
            // is not saved, as a refused answer is not.
            popovers.dismiss()
            form.stopEditing()
        }
        if action == .audit(.commitPrompt), case .audit(let prompt) = popover, let waiting = prompt.waiting {
            let effects = updateGuardingSealedSurveys(action)
            guard audit.reason(for: waiting.survey) != nil else { return effects }
            // The key replayed on a copy first: surveys that moved meanwhile (a sync or another
            // window took one away) must not make it change another survey than the one the
            // reason was given for.
            var replay = self
            let replayed = replay.updateAskingReasons(waiting.action, resuming: true)
            if replayed.contains(.saveDocument), let changed = replay.storedSurveysChanged(since: self),
               !changed.isEmpty, changed != [waiting.survey] {
                warn("Not changed: the surveys moved while the reason was typed (a sync or another window); the reason is kept, "
                    + "press the key again")
                return effects
            }
            self = replay
            return effects + replayed
        }
        guard mayAskReasons(for: action) else { return updateGuardingSealedSurveys(action) }
        var trial = self
        let effects = trial.updateGuardingSealedSurveys(action)
        guard effects.contains(.saveDocument), let (id, rule) = trial.surveyNeedingReason(changedSince: self) else {
            self = trial
            return effects
        }
        askReason(for: id, rule: rule, resuming: action)
        return []
    }

    /// The stored survey on the form (its id), nil for the New form.
    private var storedSurveyHere: String? {
        if case .record(let i) = shown, records.indices.contains(i) { return records[i].instanceID }
        return nil
    }

    /// Whether `action` is tried first: a key that may save a change, in a document where a
    /// reason may be asked. Typing into a box changes no survey (and is left alone, so no
    /// key copies a long answer); the manager's keys and the kept surveys' put back what an
    /// earlier session could not save, and a sync's merges are not the keyer's changes (their
    /// history says so).
    private func mayAskReasons(for action: Action) -> Bool {
        switch action {
        case .outcome, .system, .sync, .audit: return false
        // F3 and F4 save a typed answer before they leave the form: they are tried like any
        // key; the manager's own keys and the kept surveys' are not the keyer's edits.
        case .documents(.show), .documents(.toggleInfo): break
        case .documents: return false
        case .text(.paste): break
        case .text: return false
        default: break
        }
        if auditSettings?.changeReasons == true { return true }
        return session.sync?.anyApproved == true
    }

    /// The stored surveys whose answers this state changed since `before`; nil when surveys
    /// were added or removed (then places do not say which is which).
    private func storedSurveysChanged(since before: AppState) -> Set<String>? {
        guard let now = document?.records, let then = before.document?.records, now.count == then.count,
              documentName == before.documentName else { return nil }
        return Set(now.differingIndices(from: then).compactMap { then[$0].instanceID })
    }

    /// The first survey already stored whose answers this state changed since `before`, that
    /// needs a reason not given yet, and which rule asks it. An Add or a delete (the count
    /// changed) is not an edit, nor is a change to an incomplete survey, as in the history.
    private func surveyNeedingReason(changedSince before: AppState) -> (String, ChangeAwaitingReason.Rule)? {
        guard let now = document?.records, let then = before.document?.records, now.count == then.count,
              documentName == before.documentName else { return nil }
        let formAsks = before.auditSettings?.changeReasons == true
        let reviews = before.session.sync?.reviews ?? [:]
        for i in now.differingIndices(from: then) {
            guard let id = then[i].instanceID, now[i].instanceID == id, !then[i].isIncomplete,
                  before.audit.reason(for: id) == nil else { continue }
            let approved = reviews[id]?.state == .approved
            // The entity an update started from is the app's note, not an answer keyed.
            var old = then[i].answers, new = now[i].answers
            old[EntityBase.recordKey] = nil
            new[EntityBase.recordKey] = nil
            guard approved || formAsks, !AnswerChanges.between(old, new).isEmpty else { continue }
            return (id, approved ? .approved : .form)
        }
        return nil
    }

    /// Opens the prompt over the form as the key found it, holding the key.
    private mutating func askReason(for id: String, rule: ChangeAwaitingReason.Rule, resuming action: Action) {
        let waiting = ChangeAwaitingReason(action: action, survey: id, rule: rule, popover: popover,
                                           rosterQuestion: form.rosterQuestion, question: form.pendingQuestion)
        // The y/n question would take the keys before the prompt (`inputMode`): Enter puts it back.
        form.askRoster(nil)
        form.ask(nil)
        popovers.present(.audit(AuditPrompt(kind: .reason, input: TextInput(text: ""), waiting: waiting)))
        let title = records.first { $0.instanceID == id }.map { quotedTitle($0) } ?? id
        switch rule {
        case .approved: tell("A supervisor approved \(title): why is it changed? The reason is kept with the change")
        case .form: tell("Why is \(title) changed? The form asks a reason before a stored survey is changed")
        }
    }
}
