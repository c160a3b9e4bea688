import SurveyValues
import SurveyForms

/// Everything the user (or the outcome of an effect) can ask of the app, named for the intent
/// rather than the key, so the key table can change without touching `update`. Nested by the
/// feature that handles it (TCA's scoped actions): `update` hands each nest to its feature's
/// reducer (`Update.swift`). What the user asks is every nest but `.outcome` (what an effect
/// found) and `.system` (what the terminal or the runtime reports), so "is this user input"
/// is a question of shape, not a list.
public enum Action: Equatable, Sendable {
    case app(AppAction)
    case list(ListAction)
    case form(FormAction)
    /// Typing and the shell's editing keys, for the text box of the moment.
    case text(TextAction)
    case picker(PickerAction)
    /// Ctrl-G's tree of the interview.
    case tree(TreeAction)
    /// Verify mode: a survey keyed again from paper (double entry).
    case verify(VerifyAction)
    /// The audit log's prompts: who is keying, why a stored survey is changed.
    case audit(AuditAction)
    case records(RecordAction)
    case documents(DocumentsAction)
    /// The team's database: sync, conflicts, review.
    case sync(SyncAction)
    case system(SystemEvent)
    case outcome(Outcome)
}

/// Anywhere: the mouse, the popovers, quitting.
public enum AppAction: Equatable, Sendable {
    case click(Point)
    case wheel(Int, at: Point)
    case showList
    case showHelp
    /// ↑/↓, PgUp/PgDn, Home/End in F1's help: lines to scroll it by.
    case scrollHelp(Int)
    case closePopover
    case quit
}

/// The survey list (pane or popover), and finding and ordering it.
public enum ListAction: Equatable, Sendable {
    case move(Int)
    case page(Int)
    case toFirst
    case toLast
    case focusForm
    case beginFilter
    case commitFilter
    case clearFilter
    case toggleSections
    case cycleSortKey
    /// `b`: only the surveys a supervisor sent back, or all again.
    case toggleSentBack
    /// `i`: only the incomplete surveys, or all again.
    case toggleIncomplete
}

/// The form: browsing its questions and records, starting and ending an answer.
public enum FormAction: Equatable, Sendable {
    case previousRecord
    case nextRecord
    /// ↑/↓: stop at the ends.
    case moveHighlight(Int)
    /// Tab/Shift-Tab: wrap around.
    case cycleHighlight(Int)
    /// Enter: edit the highlighted field or press the highlighted button.
    case activate
    case beginEditing(inserting: Character?)
    /// Tab, Shift-Tab, ↓, ↑ while editing: commit and move on (wrapping for Tab).
    case commitAndMove(Int, wrap: Bool)
    case commitField
    /// Enter while editing: keep the answer and go on to the next question (heads-down).
    case commitAndAdvance
    case cancelEditing
    /// The form's labels in its next language.
    case nextLanguage
    /// Heads-down: [ Add ] on the New form goes on to the next empty New form, or not.
    case toggleNextFormAfterAdd
    /// PgUp/PgDn in a roster: the previous / next member.
    case stepInstance(Int)
    /// ^O in a roster: another member after the one shown.
    case addInstance
    /// ^D in a roster: delete the member shown (asks y/n).
    case requestInstanceDelete
    /// `y` / `n` to the roster's question.
    case answerRoster(Bool)
    /// Home/End: the first (false) or last (true) question.
    case jumpToEdge(last: Bool)
    /// PgUp/PgDn outside a roster: a screenful of questions.
    case movePage(Int)
    /// F8: the next question the form refuses or lacks an answer to.
    case nextProblem
    /// Del on the form: the highlighted answer cleared (Ctrl-Z brings it back).
    case clearAnswer
}

/// Typed text and the shell's editing keys, for the text box of the moment (a form field,
/// a rename, a save-as name, the `/` filter).
public enum TextAction: Equatable, Sendable {
    case insert(Character)
    case deleteBackward
    case deleteForward
    case caretLeft
    case caretRight
    case caretHome
    case caretEnd
    case caretWordLeft
    case caretWordRight
    case deleteWordBackward
    case deleteToStart
    case deleteToEnd
    /// Pasted text: typed into the text box of the moment as one piece (see AppState+Paste).
    case paste(String)
}

/// The choice picker popover.
public enum PickerAction: Equatable, Sendable {
    case move(Int)
    case type(Character)
    case backspace
    case choose
    case accept(Int)
    case clear
    /// A click on the picker's row (counted from its first row shown, `AppState+Mouse`).
    case click(row: Int)
}

/// The tree of the interview (Ctrl-G): open it, move, narrow, go to the row highlighted.
public enum TreeAction: Equatable, Sendable {
    case open
    /// Rows to move by (`Int.min`/`Int.max`: the first / last).
    case move(Int)
    case type(Character)
    case backspace
    /// Tab: the problems alone, or everything again.
    case toggleProblems
    /// Enter: the form at the row's question (its members shown), the tree closed.
    case go
}

/// Verify mode (`v` on the list): re-key a chosen survey from paper, the fields blank.
public enum VerifyAction: Equatable, Sendable {
    case start
    /// Enter: judge the answer typed against the stored one.
    case keep
    /// Tab: the stored and keyed answers side by side.
    case toggleBoth
    /// Esc: stop (what is verified stays verified; `v` resumes).
    case close
}

/// The audit log's prompts (`AppState+Audit`).
public enum AuditAction: Equatable, Sendable {
    /// Enter: the name or the reason typed.
    case commitPrompt
    /// Esc: not now.
    case cancelPrompt
}

/// Changes to the surveys as a whole: new, delete, undo, and the y/n question asked about one.
public enum RecordAction: Equatable, Sendable {
    case newRecord
    /// Ctrl-S: keep the New form as an incomplete survey and start the next one.
    case keepIncomplete
    case requestRecordDelete
    /// `y` to the question on the status line (delete, copy, clear answers).
    case confirmQuestion
    /// `n` or Esc: the survey stays as it is.
    case cancelQuestion
    /// F4: clear the answers this form version does not ask of the survey shown (asks y/n).
    case requestClearNotAsked
    /// `b` in F4: the survey shown as it was before its last change made here, as a new change.
    case bringBackBeforeLastChange
    case undo
    case redo
}

/// The document manager (F3), the document info (F4), save-as and recovered surveys.
public enum DocumentsAction: Equatable, Sendable {
    case show
    case toggleInfo
    /// The manager's own keys, for its reducer (`DocumentManagerState.reduce`).
    case manager(DocumentManagerAction)
    case confirmDelete
    case cancelDelete
    case dismissSaveAs
    case saveUnderName
    /// m / t on kept surveys: into their document, merged into the surveys it still has;
    /// where both changed an answer, the document's stays (or, with t, the kept one's).
    case mergeRecovery(theirsWhereBothChanged: Bool)
    case discardRecovery
    /// Esc on kept surveys: offered again at the next start.
    case postponeRecovery
    /// Any other key while kept surveys are offered: not typed anywhere, and said so.
    case keyNotAChoice
}

/// The keys of the document manager's list (F3), which its own reducer decides.
public enum DocumentManagerAction: Equatable, Sendable {
    case move(Int)
    case page(Int)
    case toFirst
    case toLast
    case openHighlighted
    case newDocument
    case beginRename
    case commitRename
    case cancelRename
    case requestDelete
    case restoreDeleted
}

/// F9 and the conflicts view (F4, then `c`).
public enum SyncAction: Equatable, Sendable {
    /// Pull then push the document, in the background.
    case start
    case showConflicts
    case closeConflicts
    case moveConflict(Int)
    /// Settle the highlighted field: keep this laptop's answer, or take the other side's.
    case resolve(keepMine: Bool)
}

/// What the terminal or the runtime reports that the user did not ask for.
public enum SystemEvent: Equatable, Sendable {
    case resized(Size)
    /// The terminal closed or a signal asked us to stop: keep what can be kept, then quit
    /// without asking.
    case terminate
    /// Sent on idle ticks so outside changes to the folder show up while the manager is open.
    case refreshTick
}
