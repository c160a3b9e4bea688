import SurveyModel

/// Everything the user (or the outcome of an effect) can ask of the app, named for the intent
/// rather than the key, so the key table can change without touching `update`.
public enum Action: Equatable, Sendable {
    // Terminal
    case resized(Size)
    case click(Point)

    // List (pane or popover)
    case listMove(Int)
    case listPage(Int)
    case listToFirst
    case listToLast
    case focusForm

    // Form, browsing
    case previousRecord
    case nextRecord
    /// ↑/↓: stop at the ends.
    case moveHighlight(Int)
    /// Tab/Shift-Tab: wrap around.
    case cycleHighlight(Int)
    /// Enter: edit the highlighted field or press the highlighted button.
    case activate
    case beginEditing(inserting: Character?)

    // Form, editing
    case insert(Character)
    case deleteBackward
    case deleteForward
    case caretLeft
    case caretRight
    case caretHome
    case caretEnd
    /// Tab, Shift-Tab, ↓, ↑ while editing: commit and move on (wrapping for Tab).
    case commitAndMove(Int, wrap: Bool)
    case commitField
    case cancelEditing

    // Anywhere
    case showList
    case showHelp
    case closePopover
    case newRecord
    case clearForm
    case addRecord
    case quit

    // Outcomes of effects, fed back by the runner
    case documentSaved(replacedCharacters: Int)
    case documentSaveFailed(String)
    case draftSaveFailed(String)
}

/// Work `update` asks the outside world to do. Plain values, so tests compare them directly;
/// the runner reads what to save from the state it already holds.
public enum Effect: Equatable, Sendable {
    case saveDocument
    case saveDraft
    case quit
}
