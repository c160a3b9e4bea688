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
            if replayed.contains(.saveDocument), replay.documentName == documentName,
               let changed = ChangeAwaitingReason.surveysChanged(from: document?.records, to: replay.document?.records),
               !changed.isEmpty, changed != [waiting.survey] {
                statusLine.warn("Not changed: the surveys moved while the reason was typed (a sync or another window); the reason is kept, "
                    + "press the key again")
                return effects
            }
            self = replay
            return effects + replayed
        }
        // Tried first: a key that may save a change, in a document where a reason may be asked.
        guard action.mayBeAKeyersChange,
              auditSettings?.changeReasons == true || session.sync?.anyApproved == true else { return updateGuardingSealedSurveys(action) }
        var trial = self
        let effects = trial.updateGuardingSealedSurveys(action)
        let given = audit
        guard effects.contains(.saveDocument), trial.documentName == documentName,
              let (id, rule) = ChangeAwaitingReason.surveyNeedingReason(
                  from: document?.records, to: trial.document?.records, formAsks: auditSettings?.changeReasons == true,
                  reviews: session.sync?.reviews ?? [:], reasonGiven: { given.reason(for: $0) != nil }) else {
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

    /// Opens the prompt over the form as the key found it, holding the key.
    private mutating func askReason(for id: String, rule: ChangeAwaitingReason.Rule, resuming action: Action) {
        let waiting = ChangeAwaitingReason(action: action, survey: id, rule: rule, popover: popover,
                                           rosterQuestion: form.rosterQuestion, question: form.pendingQuestion)
        // The y/n question would take the keys before the prompt (`inputMode`): Enter puts it back.
        form.askRoster(nil)
        form.ask(nil)
        popovers.present(.audit(AuditPrompt(kind: .reason, input: TextInput(text: ""), waiting: waiting)))
        let title = records.first { $0.instanceID == id }.map { session.quotedTitle($0) } ?? id
        switch rule {
        case .approved: statusLine.tell("A supervisor approved \(title): why is it changed? The reason is kept with the change")
        case .form: statusLine.tell("Why is \(title) changed? The form asks a reason before a stored survey is changed")
        }
    }
}

extension Action {
    /// Whether this key may save a keyer's change to a survey, so a reason may be asked for
    /// it. Typing into a box changes no survey (and is left alone, so no key copies a long
    /// answer); the manager's keys and the kept surveys' put back what an earlier session could
    /// not save, and a sync's merges are not the keyer's changes (their history says so). F3
    /// and F4 save a typed answer before they leave the form: they are tried like any key.
    var mayBeAKeyersChange: Bool {
        switch self {
        case .outcome, .system, .sync, .audit: return false
        case .documents(.show), .documents(.toggleInfo): return true
        case .documents: return false
        case .text(.paste): return true
        case .text: return false
        default: return true
        }
    }
}

extension ChangeAwaitingReason {
    /// The stored surveys (their ids) whose answers changed from `then` to `now`, the same
    /// document's records before and after a key; nil when surveys were added or removed
    /// (then places do not say which is which).
    static func surveysChanged(from then: RecordList?, to now: RecordList?) -> Set<String>? {
        guard let now, let then, now.count == then.count else { return nil }
        return Set(now.differingIndices(from: then).compactMap { then[$0].instanceID })
    }

    /// The first survey already stored whose answers changed from `then` to `now` (the same
    /// document's records before and after a key) that needs a reason not given yet
    /// (`reasonGiven`), and which rule asks it: the form (`formAsks`), or a supervisor's
    /// approval (`reviews`). An Add or a delete (the count changed) is not an edit, nor is a
    /// change to an incomplete survey, as in the history.
    static func surveyNeedingReason(from then: RecordList?, to now: RecordList?, formAsks: Bool, reviews: [String: SyncReview],
                                    reasonGiven: (String) -> Bool) -> (String, Rule)? {
        guard let now, let then, now.count == then.count else { return nil }
        for i in now.differingIndices(from: then) {
            guard let id = then[i].instanceID, now[i].instanceID == id, !then[i].isIncomplete, !reasonGiven(id) else { continue }
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
}
