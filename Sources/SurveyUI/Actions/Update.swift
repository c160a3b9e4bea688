import SurveyValues
import SurveyForms

/// The app's one transition function (TCA's reducer, Bubble Tea's Update): every key, click,
/// resize and effect outcome goes through here. The rules every action shares are stated
/// once, here; then each nest of `Action` goes to its feature's reducer below, each case a
/// few lines calling a small `mutating` helper. Shared logic lives in the helpers, never in
/// actions that send other actions.
public func update(_ state: inout AppState, _ action: Action) -> [Effect] {
    // While the rest of the document loads, nothing may change it (`AppState+Loading`); nor
    // ever, when its form cannot be used (`AppState+ReadOnly`); nor another role's survey
    // (`AppState+Owners`), nor an encrypted one (`AppState+Sealed`). A change to a stored survey
    // may wait for its reason (`AppState+ChangeReasons`).
    let searching = state.list.searchFollowed
    let newForm = state.newFormOnScreen
    // The keyer statistics' keystrokes: what the keyer pressed on the New form.
    if newForm != nil, action.isUserInput, state.popover == nil { state.form.countDraftKey() }
    var effects = state.session.formTrouble != nil ? state.updateReadOnly(action)
        : state.session.loading == nil ? state.updateAskingReasons(action) : state.updateWhileLoading(action)
    state.settleUnsavedMember(after: effects)
    // A New form left for another survey is kept as an incomplete one (`AppState+Incomplete`).
    effects = state.keepNewFormLeft(newForm, by: action, effects: effects)
    // The audit log follows the keyer (`AppState+Audit`).
    // A form without an `audit` row and no log open has nothing to follow: no context is built.
    if state.audit.draft != nil || state.audit.stored != nil || state.auditSettings != nil {
        let followed = state.audit.follow(effects, in: state.auditContext)
        if let prompt = followed.prompt { state.popovers.present(.audit(prompt)) }
        effects = followed.effects
    }
    state.followQuestionnaire()
    state.keepShownListRows()
    return effects + state.list.searchEffects(since: searching)
}

func transition(_ state: inout AppState, _ action: Action) -> [Effect] {
    let shownStatus = state.status   // a click hits the screen as drawn, with this message on it
    if action.clearsStatus {
        state.statusLine.clear()
        if case .form(.beginEditing(inserting: .some)) = action {} else { state.form.holdNewForm(false) }
    }
    // A key or Enter on the save-as box that appeared unasked (the file vanished) is said, not
    // typed, while the box holds its keys (`PopoverState.refusesNamingKey`).
    if action.typesIntoTheName,
       state.popovers.refusesNamingKey(at: state.environment.clock.now, holdingFor: AppState.recoveryChoiceHold) {
        state.statusLine.warn(state.session.namingHeldRemark)
        return []
    }
    switch action {
    case .app(let action): return state.reduce(action, drawnWith: shownStatus)
    case .list(let action): return state.reduce(action)
    case .form(let action): return state.reduce(action)
    case .text(let action): return state.reduce(action)
    case .picker(let action): return state.reduce(action)
    case .tree(let action): return state.reduce(action)
    case .verify(let action): return state.reduce(action)
    case .audit(let action): return state.reduce(action)
    case .records(let action): return state.reduce(action)
    case .documents(let action): return state.reduce(action)
    case .sync(let action): return state.reduce(action)
    case .system(let event): return state.reduce(event)
    case .outcome(let outcome): return state.reduce(outcome)
    }
}

extension Action {
    /// Whether the user asked for this: every nest but what an effect found and what the
    /// terminal or the runtime reports.
    var isUserInput: Bool {
        switch self {
        case .app, .list, .form, .text, .picker, .tree, .verify, .audit, .records, .documents, .sync: true
        case .outcome, .system: false
        }
    }

    /// Input from the user clears the last message; resizes and effects' outcomes don't,
    /// nor does F1, whose help shows the message in full.
    var clearsStatus: Bool { isUserInput && self != .app(.showHelp) }

    /// What would type into the save-as box or save under its name: held back while the box
    /// that appeared unasked holds its keys.
    var typesIntoTheName: Bool {
        switch self {
        case .text, .documents(.saveUnderName): true
        default: false
        }
    }
}

extension AppState {
    /// The rule for an action that leaves the field being typed, stated once: the field is
    /// committed first, and a value its rule refuses keeps the action from happening (the
    /// typed text stays, the status says why). The commit's effects come first.
    mutating func committingField(goingOn: Bool = false, then action: (inout AppState) -> [Effect]) -> [Effect] {
        guard let effects = commitEditing(goingOn: goingOn) else { return [] }
        return effects + action(&self)
    }

    mutating func reduce(_ action: AppAction, drawnWith shownStatus: StatusMessage?) -> [Effect] {
        switch action {
        case .click(let point):
            return click(at: point, drawnWith: shownStatus)
        case .wheel(let delta, let point):
            wheel(delta, at: point)
        case .showList:
            return committingField { $0.showList() }
        case .showHelp:
            return committingField { state in
                // Help over a list explains that list, and closing it goes back there.
                state.popovers.showHelp()
                return []
            }
        case .scrollHelp(let delta):
            popovers.scrollHelp(by: delta, most: HelpPopover.make(from: self).maxScroll(layout: layout))
        case .closePopover:
            popovers.close(backToTheListFor: list.filterInput != nil && !isSplit)
        case .quit:
            // Ctrl-Q and Ctrl-C always quit: a valid field is kept, a refused one is dropped
            // (so not `committingField`, where a refused value stops the action).
            // Only records that exist nowhere but in memory make it ask once first.
            guard confirmLeavingUnsavedDocument() else { return [] }
            return (commitEditing() ?? []) + [.quit]
        }
        return []
    }

    mutating func reduce(_ action: ListAction) -> [Effect] {
        switch action {
        case .focusForm:
            popovers.dismiss()
            screen.moveFocus(to: .form)
            return []
        case .beginFilter:
            return committingField { $0.beginFilter() }
        default:
            // The list's own keys (`SurveyListState.reduce`).
            return follow(list.reduce(action, in: listContext))
        }
    }

    mutating func reduce(_ action: FormAction) -> [Effect] {
        switch action {
        case .previousRecord, .nextRecord:
            // The list's to decide (`SurveyListState.step`): the record before or after.
            let showingRecord = if case .record = shown { true } else { false }
            return follow(list.step(by: action == .nextRecord ? 1 : -1, showingRecord: showingRecord, in: listContext))
        case .moveHighlight, .cycleHighlight, .activate, .cancelEditing, .toggleNextFormAfterAdd:
            // The form's own keys (`FormState.reduce`).
            return follow(form.reduce(action, in: formContext))
        case .beginEditing(let character):
            beginEditing(inserting: character)
        case .commitAndMove(let delta, let wrap):
            if let copy = attachTypedPath(then: .move(delta, wrap: wrap)) { return copy }
            return committingField(goingOn: delta > 0) { $0.follow($0.form.reduce(action, in: $0.formContext)) }
        case .commitField:
            if let copy = attachTypedPath(then: .stay) { return copy }
            return commitEditing() ?? []
        case .commitAndAdvance:
            if let copy = attachTypedPath(then: .advance) { return copy }
            if let leave = form.leavingEmptyMember(in: formContext) {
                _ = follow(leave)
                return []
            }
            return committingField(goingOn: true) { $0.follow($0.form.reduce(action, in: $0.formContext)) }
        case .nextLanguage:
            switchLanguage()
        case .addInstance:
            return committingField { $0.addInstance() }
        case .requestInstanceDelete:
            return committingField { $0.requestInstanceDelete(); return [] }
        case .answerRoster(let yes):
            return answerRoster(yes)
        case .jumpToEdge, .movePage, .stepInstance:
            // The form's own too, once a typed answer is kept.
            return committingField { $0.follow($0.form.reduce(action, in: $0.formContext)) }
        case .nextProblem:
            return committingField { $0.jumpToNextProblem(); return [] }
        case .clearAnswer:
            return clearHighlightedAnswer()
        }
        return []
    }

    mutating func reduce(_ action: TextAction) -> [Effect] {
        switch action {
        case .insert(let character):
            typeCharacter(character)
        case .paste(let text):
            return paste(text)
        case .deleteBackward, .deleteForward, .caretLeft, .caretRight, .caretHome, .caretEnd, .caretWordLeft,
             .caretWordRight, .deleteWordBackward, .deleteToStart, .deleteToEnd:
            editActiveText { $0.apply(action) }
        }
        return []
    }

    mutating func reduce(_ action: RecordAction) -> [Effect] {
        switch action {
        case .newRecord:
            // Never a new survey under verification's box (its corrections go to the survey verified).
            if case .verify = popover {
                statusLine.warn("Verifying: Esc stops (what is verified stays), then ^N starts a new survey")
                return []
            }
            guard let committed = commitEditing() else { return [] }
            let started = startNewRecord()
            // A New form kept as incomplete carries the committed answer in its one save.
            return started.contains(.saveDocument) ? committed.filter { $0 != .saveDraft } + started : committed + started
        case .keepIncomplete:
            return keepIncomplete()
        case .requestRecordDelete:
            return requestRecordDelete()
        case .confirmQuestion:
            return confirmQuestion()
        case .cancelQuestion:
            if let remark = form.cancelQuestion(surveys: records, onNewForm: shown == .draft, title: { session.quotedTitle($0) }) {
                statusLine.tell(remark)
            }
            return []
        case .requestClearNotAsked:
            return requestClearNotAsked()
        case .bringBackBeforeLastChange:
            return bringBackBeforeLastChange()
        case .undo:
            return committingField { $0.undoLast() }
        case .redo:
            return committingField { $0.redoLast() }
        }
    }

    mutating func reduce(_ action: DocumentsAction) -> [Effect] {
        switch action {
        case .show:
            // F3 (after the typed answer is kept: a refused value keeps the manager closed): the
            // manager opens on the current document and reads the folder afresh.
            return committingField { state in
                state.popovers.present(.documents)
                state.manager = DocumentManagerState(highlighting: state.documentName)
                return [.listDocuments]
            }
        case .toggleInfo:
            // F4 (after the typed answer is kept): facts about the document in the form's place, and back.
            return committingField { state in
                let survey = if case .record(let i) = state.shown { state.records[i].instanceID } else { String?.none }
                return state.screen.toggleInfo(split: state.layout.isSplit, survey: survey)
            }
        case .manager(let action):
            return reduce(action)
        case .confirmDelete:
            return popovers.confirmDelete().map { [$0] } ?? []
        case .cancelDelete:
            popovers.present(.documents)
        case .saveUnderName:
            // (Not while the box that appeared unasked holds its keys: `transition`.)
            guard case .saveAs(let buffer) = popover else { return [] }
            return [.saveDocumentAs(buffer.text)]
        case .dismissSaveAs:
            popovers.dismiss()
            statusLine.warn("“\(documentName)” is only in memory now: press F3 to switch, or change a field to be asked again")
        case .mergeRecovery, .discardRecovery, .postponeRecovery, .keyNotAChoice:
            return answerRecoveryOffer(action)
        }
        return []
    }

    mutating func reduce(_ event: SystemEvent) -> [Effect] {
        switch event {
        case .resized(let size):
            resize(to: size)
            return []
        case .terminate:
            // SIGTERM, SIGHUP or a closed terminal: a valid field is saved as on any quit;
            // whatever would still exist only in memory goes to a recovery file; then the app
            // leaves without asking (there is no one left to answer).
            let effects = commitEditing() ?? []
            session.confirmLeaving()
            return effects + [.keepUnsavedWork, .quit]
        case .refreshTick:
            return popover == .documents && manager.renaming == nil ? [.listDocuments] : []
        }
    }

    /// What an effect found: each nest goes to its feature's reducer, beside the feature's
    /// other code.
    mutating func reduce(_ outcome: Outcome) -> [Effect] {
        switch outcome {
        case .documents(let outcome): return reduce(outcome)
        case .saving(let outcome): return reduce(outcome)
        case .loading(let outcome): return reduce(outcome)
        case .recovery(let outcome): return reduce(outcome)
        case .search(let outcome): return follow(list.reduce(outcome, in: listContext))
        case .sync(let outcome): return reduce(outcome)
        case .verify(let outcome): return reduce(outcome)
        case .form(let outcome): return reduce(outcome)
        }
    }
}
