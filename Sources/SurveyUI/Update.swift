import SurveyModel

/// The app's one transition function (TCA's reducer, Bubble Tea's Update): every key, click,
/// resize and effect outcome goes through here. Each case calls a small `mutating` helper;
/// shared logic lives in the helpers, never in actions that send other actions.
public func update(_ state: inout AppState, _ action: Action) -> [Effect] {
    if action.isUserInput { state.status = nil }
    switch action {
    case .resized(let size):
        state.resize(to: size)
    case .click(let point):
        return state.click(at: point)

    case .listMove(let delta):
        state.moveListCursor(to: state.listCursor + delta)
    case .listPage(let pages):
        state.moveListCursor(to: state.listCursor + pages * max(1, state.listViewportHeight - 1))
    case .listToFirst:
        state.moveListCursor(to: 0)
    case .listToLast:
        state.moveListCursor(to: state.recordCount - 1)
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
        state.editing?.deleteBackward()
    case .deleteForward:
        state.editing?.deleteForward()
    case .caretLeft:
        state.editing?.moveCaret(by: -1)
    case .caretRight:
        state.editing?.moveCaret(by: 1)
    case .caretHome:
        state.editing?.moveCaretToStart()
    case .caretEnd:
        state.editing?.moveCaretToEnd()
    case .commitAndMove(let delta, let wrap):
        return state.commitAndMove(by: delta, wrap: wrap)
    case .commitField:
        return state.commitEditing() ?? []
    case .cancelEditing:
        state.editing = nil

    case .showList:
        return state.showList()
    case .showHelp:
        guard let effects = state.commitEditing() else { return [] }
        state.popover = .help
        return effects
    case .closePopover:
        state.popover = nil
    case .newRecord:
        return state.startNewRecord()
    case .clearForm:
        return state.clearForm()
    case .addRecord:
        return state.addRecord()
    case .quit:
        // Ctrl-Q and Ctrl-C always quit: a valid field is kept, a refused one is dropped.
        return (state.commitEditing() ?? []) + [.quit]

    case .documentSaved(let replaced):
        state.documentWasSaved(replacedCharacters: replaced)
    case .documentSaveFailed(let message):
        state.restoreAfterFailedSave(message)
    case .draftSaveFailed(let message):
        state.status = .init("Could not save the New form: \(message). It is kept in memory.", kind: .error)
    }
    return []
}

extension Action {
    /// Input from the user clears the last message; resizes and save outcomes don't.
    var isUserInput: Bool {
        switch self {
        case .resized, .documentSaved, .documentSaveFailed, .draftSaveFailed: return false
        default: return true
        }
    }
}
