import SurveyModel

/// The app's one transition function (TCA's reducer, Bubble Tea's Update): every key, click,
/// resize and effect outcome goes through here. Each case calls a small `mutating` helper;
/// shared logic lives in the helpers, never in actions that send other actions.
public func update(_ state: inout AppState, _ action: Action) -> [Effect] {
    // While the rest of the document loads, nothing may change it (`AppState+Loading`); nor
    // ever, when its form cannot be used (`AppState+ReadOnly`).
    let effects = state.formTrouble != nil ? state.updateReadOnly(action)
        : state.loading == nil ? transition(&state, action) : state.updateWhileLoading(action)
    state.followQuestionnaire()
    return effects
}

func transition(_ state: inout AppState, _ action: Action) -> [Effect] {
    let shownStatus = state.status   // a click hits the screen as drawn, with this message on it
    if action.isUserInput {
        state.status = nil
        if case .beginEditing(inserting: .some) = action {} else { state.heldNewFormShown = false }
    }
    switch action {
    case .resized(let size):
        state.resize(to: size)
    case .click(let point):
        return state.click(at: point, drawnWith: shownStatus)
    case .wheel(let delta, let point):
        state.wheel(delta, at: point)

    case .listMove(let delta):
        state.moveList(by: delta)
    case .listPage(let pages):
        state.pageList(by: pages)
    case .listToFirst:
        state.moveListCursor(toPosition: 0)
    case .listToLast:
        state.moveListCursor(toPosition: state.list.projection.count - 1)
    case .focusForm:
        state.popover = nil
        state.focus = .form

    case .previousRecord:
        state.stepRecord(by: -1)
    case .nextRecord:
        state.stepRecord(by: 1)
    case .moveHighlight(let delta):
        state.moveHighlight(by: delta, wrap: false)
    case .cycleHighlight(let delta):
        state.moveHighlight(by: delta, wrap: true)
    case .activate:
        return state.activateHighlighted()
    case .beginEditing(let character):
        state.beginEditing(inserting: character)

    case .insert(let character):
        state.typeCharacter(character)
    case .deleteBackward:
        state.editActiveText { $0.deleteBackward() }
    case .deleteForward:
        state.editActiveText { $0.deleteForward() }
    case .caretLeft:
        state.editActiveText { $0.moveCaret(by: -1) }
    case .caretRight:
        state.editActiveText { $0.moveCaret(by: 1) }
    case .caretHome:
        state.editActiveText { $0.moveCaretToStart() }
    case .caretEnd:
        state.editActiveText { $0.moveCaretToEnd() }
    case .caretWordLeft:
        state.editActiveText { $0.moveWordLeft() }
    case .caretWordRight:
        state.editActiveText { $0.moveWordRight() }
    case .deleteWordBackward:
        state.editActiveText { $0.deleteWordBackward() }
    case .deleteToStart:
        state.editActiveText { $0.deleteToStart() }
    case .deleteToEnd:
        state.editActiveText { $0.deleteToEnd() }
    case .commitAndMove(let delta, let wrap):
        return state.commitAndMove(by: delta, wrap: wrap)
    case .commitField:
        return state.commitEditing() ?? []
    case .commitAndAdvance:
        return state.commitAndAdvance()
    case .cancelEditing:
        state.editing = nil
    case .pickerMove(let delta):
        state.updatePicker { $0.move(by: delta) }
    case .pickerType(let c):
        return state.pickerType(c)
    case .pickerBackspace:
        state.updatePicker { $0.deleteBackward() }
    case .pickerChoose:
        return state.pickerChoose()
    case .pickerAccept(let delta):
        return state.pickerAccept(moving: delta)
    case .pickerClear:
        return state.pickerClear()
    case .nextLanguage:
        state.switchLanguage()
    case .toggleNextFormAfterAdd:
        state.addStartsNextForm.toggle()
        state.status = .init(state.addStartsNextForm
            ? "After Add on the New form: straight on to the next empty New form (F5 changes it)"
            : "After Add: the survey just added is shown (F5 changes it)")
    case .paste(let text):
        return state.paste(text)

    case .requestRecordDelete:
        return state.requestRecordDelete()
    case .confirmQuestion:
        return state.confirmQuestion()
    case .cancelQuestion:
        state.cancelQuestion()
    case .requestClearNotAsked:
        return state.requestClearNotAsked()
    case .undo:
        return state.undoLast()
    case .redo:
        return state.redoLast()
    case .beginFilter:
        return state.beginFilter()
    case .commitFilter:
        state.commitFilter()
    case .clearFilter:
        state.clearFilter()
    case .toggleSections:
        return state.toggleSections()
    case .cycleSortKey:
        return state.cycleSortKey()

    case .showList:
        return state.showList()
    case .showHelp:
        guard let effects = state.commitEditing() else { return [] }
        // Help over a list explains that list, and closing it goes back there.
        state.popover = state.popover.flatMap { $0 == .list || $0 == .documents ? $0 : nil }
        state.popoverUnderHelp = state.popover
        state.popover = .help
        return effects
    case .closePopover:
        state.closePopover()
    case .newRecord:
        return state.startNewRecord()
    case .quit:
        // Ctrl-Q and Ctrl-C always quit: a valid field is kept, a refused one is dropped.
        // Only records that exist nowhere but in memory make it ask once first.
        guard state.confirmLeavingUnsavedDocument() else { return [] }
        return (state.commitEditing() ?? []) + [.quit]

    case .showDocuments:
        return state.showDocuments()
    case .toggleInfo:
        return state.toggleInfo()
    case .managerMove(let delta):
        state.moveManagerCursor(to: state.managerCursor + delta)
    case .managerPage(let pages):
        state.moveManagerCursor(to: state.managerCursor + pages * max(1, state.managerViewportHeight - 1))
    case .managerToFirst:
        state.moveManagerCursor(to: 0)
    case .managerToLast:
        state.moveManagerCursor(to: state.documents.count - 1)
    case .openHighlightedDocument:
        return state.openHighlightedDocument()
    case .newDocument:
        return state.newDocument()
    case .beginRename:
        state.beginRename()
    case .commitRename:
        return state.commitRename()
    case .cancelRename:
        state.manager.renaming = nil
    case .requestDelete:
        state.requestDelete()
    case .confirmDelete:
        return state.confirmDelete()
    case .cancelDelete:
        state.popover = .documents
    case .restoreDeleted:
        return [.restoreDocument]
    case .saveUnderName:
        return state.saveUnderName()
    case .dismissSaveAs:
        state.popover = nil
        state.status = .init("“\(state.documentName)” is only in memory now: press F3 to switch, or change a field to be asked again",
                             kind: .error)
    case .refreshTick:
        return state.popover == .documents && state.manager.renaming == nil ? [.listDocuments] : []
    case .launched(let launch):
        state.launch(launch)
    case .identifyRecordsFoundWithoutIDs(let place):
        state.identifyRecordsInPlace()
        if let place, place.recordID != nil { state.restorePlace(place) }
    case .journalPutBack(let message):
        state.status = .init(message)

    case .documentSaved(let replaced):
        return state.documentWasSaved(replacedCharacters: replaced)
    case .documentSaveFailed(let message):
        state.lastSaveError = message
        let unkept = state.copiesKeptForDelete
        state.restoreAfterFailedSave(message)
        // The delete did not happen: its copy comes off the deleted list again.
        return unkept.isEmpty ? [] : [.forgetDeleted(unkept)]
    case .draftSaveFailed(let message):
        state.draftSaveFailed(message)
    case .deletedSurveysNotKept(let message):
        state.restoreRollback()
        state.status = .init("Not deleted: a copy could not be kept among the deleted surveys: \(message)", kind: .error)
    case .draftSaved:
        state.rollback = nil
        state.saveSucceeded()
    case .otherNewFormKept(let title, let file):
        state.otherNewFormKept(title: title, file: file)
    case .documentMovedOutside(let name):
        return state.documentMovedOutside(to: name)
    case .recoveriesFound(let list):
        state.recoveriesFound(list)
    case .recoveryRestored(let name, let count):
        return state.recoveryRestored(into: name, count: count)
    case .recoveryDiscarded(let count):
        return state.recoveryDiscarded(count: count)
    case .restoreRecovery:
        return state.restoreRecovery()
    case .discardRecovery:
        return state.discardRecovery()
    case .terminate:
        return state.terminate()
    case .documentsListed(let list):
        return state.documentsWereListed(list)
    case .documentOpened(let name, let loaded, let draft, let place, let form):
        return state.documentWasOpened(name, loaded: loaded, draft: draft, place: place, form: form)
    case .documentCreated(let name):
        return [.openDocument(name), .listDocuments]
    case .documentRenamed(let old, let new):
        return state.documentWasRenamed(from: old, to: new)
    case .documentDeleted(let name, let records, let replacement):
        return state.documentWasDeleted(name, records: records, replacement: replacement)
    case .documentRestored(let name):
        return state.documentWasRestored(name)
    case .documentSavedAs(let name):
        return state.documentWasSavedAs(name)
    case .documentVanished(let reason, let suggestion):
        return state.documentVanished(unreadable: reason, suggestion: suggestion)
    case .documentChangedOnDisk(let reloaded):
        return state.documentChangedOnDisk(reloaded)
    case .instanceIDsAssigned(let identified):
        state.document = identified
    case .documentMergedInBackground(let merged, let message, let isError):
        state.takeMergedDocument(merged)
        state.status = .init(message, kind: isError ? .error : .info)
    case .documentWriteFailed(let message):
        state.status = .init(message, kind: .error)
    case .quitHeldForUnsavedRecords:
        state.holdQuit()
    case .documentPartLoaded(let records, let percent):
        state.takeLoadedPart(records, percent: percent)
    case .documentLoadEnded(let end):
        state.finishLoading(end)
    case .searchIndexBuilt(let index):
        state.takeSearchIndex(index)
    case .documentOperationFailed(let message):
        state.status = .init(message, kind: .error)
        if case .confirmDelete = state.popover { state.popover = .documents }
    }
    return []
}

extension Action {
    /// Input from the user clears the last message; resizes and save outcomes don't, nor
    /// does F1, whose help shows the message in full.
    var isUserInput: Bool {
        switch self {
        case .resized, .refreshTick, .launched, .identifyRecordsFoundWithoutIDs, .journalPutBack, .documentSaved, .documentSaveFailed, .draftSaveFailed, .documentsListed,
             .documentOpened, .documentCreated, .documentRenamed, .documentDeleted, .documentRestored,
             .documentSavedAs, .documentVanished, .documentChangedOnDisk, .documentOperationFailed, .instanceIDsAssigned,
             .documentMergedInBackground, .documentWriteFailed, .documentPartLoaded, .documentLoadEnded, .searchIndexBuilt,
             .quitHeldForUnsavedRecords, .draftSaved, .deletedSurveysNotKept, .otherNewFormKept, .documentMovedOutside, .recoveriesFound,
             .recoveryRestored, .recoveryDiscarded, .terminate, .showHelp:
            return false
        default: return true
        }
    }
}
