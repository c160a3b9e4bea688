import SurveyValues
import SurveyForms

/// Incomplete surveys (issue 30: as many interviews at once as the keyer wants, as ODK
/// Collect keeps drafts and CSEntry partial saves). A New form that holds answers the form's
/// rules do not pass yet is kept in the document, marked incomplete (`Record.isIncomplete`),
/// when the keyer leaves it for another survey, starts another New form (Ctrl-N) on it, or
/// asks (Ctrl-S): it is on disk at once, syncs and exports like any survey, and the New form
/// is empty for the next interview. The list marks it `…`, F4 counts it, and its `[ Finish ]`
/// (the place of `[ Add ]`) is [ Add ]'s gate: it becomes complete once every rule passes.
/// Each answer keyed is judged as always (type, constraint); only completeness is waived.
///
/// The New form file (`.NAME.draft.plist`) stays what keeps the form being keyed now safe
/// from a crash; quitting or switching documents keeps the New form there, as before.
extension AppState {
    /// The New form on screen before an action (`update` notes it), to tell when the action
    /// left it for another survey of the same document.
    struct NewFormOnScreen {
        let document: String
    }

    var newFormOnScreen: NewFormOnScreen? {
        form.showingDraft && document != nil ? NewFormOnScreen(document: documentName) : nil
    }

    /// Whether the New form can be kept in the document now: a designer's form (the original
    /// five have no rules, so [ Add ] always stores their survey), a document that can be
    /// written and is wholly read.
    var canKeepNewFormIncomplete: Bool {
        document != nil && session.loading == nil && session.formTrouble == nil && !session.documentMissing
            && draftQuestionnaire.form != nil && form.attaching == nil
    }

    /// Whether the New form, completed as [ Add ] completes it, passes every rule.
    var newFormPasses: Bool {
        let q = draftQuestionnaire
        let done = q.completed(draft, started: form.draftStarted, device: environment.device, clock: ruleClock)
        return FormInstance(q, record: done, clock: ruleClock).problems().isEmpty && q.emptyMemberProblems(in: done, clock: ruleClock).isEmpty
    }

    /// After every action (`update`): a New form left for another survey of the same
    /// document, holding answers that do not pass, is kept as an incomplete survey. Not when
    /// the action itself changed the document (an undo that showed the survey it touched):
    /// then the New form stays as it was, as before, and Ctrl-N brings it back.
    mutating func keepNewFormLeft(_ before: NewFormOnScreen?, by action: Action, effects: [Effect]) -> [Effect] {
        // The answer a click on the list committed on the way out is in it; a member added
        // by hand and left empty went before (`settleUnsavedMember`).
        guard let before, action.isUserInput, before.document == documentName, !form.showingDraft,
              canKeepNewFormIncomplete, !draft.isBlank(in: draftQuestionnaire),
              !effects.contains(where: { $0.changesDocument || $0 == .quit || $0 == .keepUnsavedWork }),
              !newFormPasses else { return effects }
        // The New form's own save is the one after the survey is stored (it removes the file,
        // or on a failed save writes the form put back).
        return effects.filter { $0 != .saveDraft } + keepNewFormIncomplete()
    }

    /// Stores the New form as an incomplete survey at the end of the document and empties the
    /// New form; what is shown is left to the caller. A failed save puts the New form back.
    mutating func keepNewFormIncomplete() -> [Effect] {
        let q = draftQuestionnaire
        var record = draft.withEmptyTextAnswers(in: q)
        record.removeValue(forKey: Record.instanceIDKey)
        record = q.keptIncomplete(record, started: form.draftStarted, device: environment.device, clock: ruleClock)
        rollback = captureRollback()
        let title = session.quotedTitle(record)
        session.expect(.change(.keptIncomplete, label: "keeping of \(title) as incomplete"))
        document?.records.append(record)
        let audited = audit.draftStored(as: recordCount - 1, finalized: false, in: auditContext)
        form.emptyDraft()
        statusLine.tell("Kept \(title) as incomplete survey \(recordCount) (… in the list; [ Finish ] there when it is done): the New form is empty")
        return [.saveDocument, .saveDraft] + audited
    }

    /// Ctrl-S: keep the New form as an incomplete survey, whatever its rules say, and start
    /// the next one. Its field is committed first (a refused value stops it).
    mutating func keepIncomplete() -> [Effect] {
        guard document != nil, let committed = commitEditing() else { return [] }
        switch shown {
        case .record(let i):
            if records[i].isIncomplete {
                statusLine.tell("\(session.quotedTitle(records[i])) is incomplete already: each answer is saved as it is keyed; [ Finish ] when it is done")
            } else {
                statusLine.tell("\(session.quotedTitle(records[i])) is complete: Ctrl-S keeps the New form as an incomplete survey")
            }
            return committed
        case .draft:
            break
        }
        guard draftQuestionnaire.form != nil else {
            statusLine.warn("The original five fields have no rules to finish later: [ Add ] stores the survey")
            return committed
        }
        guard !draft.isBlank(in: draftQuestionnaire) else {
            statusLine.tell("The New form is empty: nothing to keep")
            return committed
        }
        guard canKeepNewFormIncomplete else {
            statusLine.warn(session.loading != nil ? "\(stillLoading): changes are saved once the whole document is read"
                 : "“\(documentName)” cannot be written now: the New form keeps its answers")
            return committed
        }
        let kept = keepNewFormIncomplete()
        startNextNewForm()
        // The committed answer is in the survey kept: one save, then the emptied New form's.
        return committed.filter { $0 != .saveDraft } + kept
    }

    /// The empty New form, editing its first question: the next interview.
    mutating func startNextNewForm() {
        popovers.dismiss()
        screen.showForm(focused: true)
        shown = .draft
        form.highlight(firstFormItem)
        beginEditing(inserting: nil, selectingAnswer: true)
    }

    /// Whether the form's second button finishes the survey shown (`[ Finish ]`): it is
    /// incomplete.
    public var finishesShownSurvey: Bool {
        if case .record(let i) = shown, records.indices.contains(i) { return records[i].isIncomplete }
        return false
    }

    /// [ Finish ] on an incomplete survey: judged by every rule of the form as [ Add ] judges
    /// a New form (the first problem highlighted, the survey staying incomplete), then stored
    /// complete. One paper keyed twice (the form's ID items) is asked about first, as Add asks.
    mutating func finishSurvey(_ index: Int, rollback before: Rollback, effects: [Effect], allowingDuplicate: Bool = false) -> [Effect] {
        var effects = effects
        let q = session.questionnaire
        let record = records[index]
        var done = record
        if q.form != nil {
            done = q.finished(record, device: environment.device, clock: ruleClock)
            guard passesTheForm(done, refusal: "Not finished, still incomplete") else { return effects }
        } else {
            done.setIncomplete(false)
        }
        if !allowingDuplicate, let key = q.idItemsText(of: done),
           let other = records.indices.first(where: { $0 != index && q.idItemsText(of: records[$0]) == key }) {
            form.ask(.duplicate(other))
            statusLine.ask("Survey \(other + 1), \(session.quotedTitle(records[other])), has the same \(key): finish this one too? y/n")
            return effects
        }
        self.rollback = before
        session.expect(.change(.edit, label: "finishing of \(session.quotedTitle(record))"))
        document?.records[index] = done
        effects.removeAll { $0 == .saveDocument }   // one save carries the field and the survey
        effects.append(.saveDocument)
        effects += audit.storedSurveyFinished(index, in: auditContext)
        statusLine.tell("Finished \(session.quotedTitle(done)): survey \(index + 1) is complete")
        return effects
    }

    /// `y` to "the same ID items: finish this one too?".
    mutating func finishShownAllowingDuplicate() -> [Effect] {
        guard document != nil, case .record(let i) = shown, records[i].isIncomplete else { return [] }
        return finishSurvey(i, rollback: captureRollback(), effects: [], allowingDuplicate: true)
    }

    /// The mark the list shows before an incomplete survey's name.
    static let incompleteListMark = "…"

    /// How many surveys are incomplete, for F4; nil for a document too large to count on
    /// every frame (each survey's answers are stepped over).
    var incompleteCount: Int? {
        guard recordCount <= 200_000 else { return nil }
        var n = 0
        for record in records where record.isIncomplete { n += 1 }
        return n
    }
}
