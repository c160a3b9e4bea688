/// One binding of the key table: its keys, what they do, and how the bar and help name it.
public struct KeyBinding: Sendable {
    public let keys: [Key]
    /// How the keys are written in the bar and help, e.g. "←/→".
    public let keyLabel: String
    /// The help line; nil for the second half of a pair ("↓" of "↑/↓"), whose first half's
    /// line covers both, and for keys help does not need to teach (^C beside ^Q).
    public let help: String?
    public let modes: InputModes
    public let action: Action
    /// The short word for the bottom bar; nil keeps it out of the bar (F1 help lists all).
    public let barLabel: String?
    public var inBar: Bool { barLabel != nil }

    init(_ keys: [Key], _ keyLabel: String, _ help: String?, _ modes: InputModes,
         _ action: Action, bar: String? = nil) {
        self.keys = keys
        self.keyLabel = keyLabel
        self.help = help
        self.modes = modes
        self.action = action
        self.barLabel = bar
    }
}

/// The one key table (bubbles' KeyMap): it decides what a key does AND draws the key bar and
/// the F1 help, so the three can never disagree.
public enum KeyMap {
    private static let lists: InputModes = [.listPane, .listPopover]
    private static let form: InputModes = [.formBrowsing, .rosterBrowsing, .formEditing]
    private static let all = InputModes.all
    /// Modes with a text field taking the keys: a form field, a rename, a save-as name.
    private static let typing: InputModes = [.formEditing, .renamingDocument, .namingDocument, .filtering, .verifying, .auditPrompt]
    /// Where the list can be searched and reordered from.
    private static let browsing: InputModes = [.listPane, .listPopover, .formBrowsing, .rosterBrowsing]
    /// Modes where a dialog owns every key but quitting.
    private static let dialogs: InputModes = [.renamingDocument, .confirmingDelete, .namingDocument, .offeringRecovery,
                                                  .confirmingRecordDelete, .confirmingRecordCopy, .confirmingAnswersClear, .confirmingDuplicate,
                                                  .confirmingRoster]

    public static let bindings: [KeyBinding] = [
        // Help popover
        KeyBinding([.escape, .function(1)], "Esc", "Close help", [.help], .app(.closePopover), bar: "Close"),
        KeyBinding([.up], "↑/↓", "Scroll the help", [.help], .app(.scrollHelp(-1)), bar: "Scroll"),
        KeyBinding([.down], "↓", nil, [.help], .app(.scrollHelp(1))),
        KeyBinding([.pageUp], "PgUp/PgDn", "Scroll a page", [.help], .app(.scrollHelp(-10))),
        KeyBinding([.pageDown], "PgDn", nil, [.help], .app(.scrollHelp(10))),
        KeyBinding([.home], "Home/End", "Top / end of the help", [.help], .app(.scrollHelp(Int.min))),
        KeyBinding([.end], "End", nil, [.help], .app(.scrollHelp(Int.max))),
        // Lists
        KeyBinding([.up], "↑/↓", "Move the highlight", lists, .list(.move(-1)), bar: "Move"),
        KeyBinding([.down], "↓", nil, lists, .list(.move(1))),
        KeyBinding([.pageUp], "PgUp/PgDn", "Move a page", lists, .list(.page(-1))),
        KeyBinding([.pageDown], "PgDn", nil, lists, .list(.page(1))),
        KeyBinding([.home], "Home/End", "First / last row", lists, .list(.toFirst)),
        KeyBinding([.end], "End", nil, lists, .list(.toLast)),
        KeyBinding([.enter, .tab], "Enter", "Go to the form", lists, .list(.focusForm), bar: "Open"),
        KeyBinding([.escape], "Esc", "Close the list", [.listPopover], .app(.closePopover), bar: "Close"),
        // Form, browsing
        KeyBinding([.left], "←/→", "Previous / next record", [.formBrowsing, .rosterBrowsing], .form(.previousRecord), bar: "Record"),
        KeyBinding([.right], "→", nil, [.formBrowsing, .rosterBrowsing], .form(.nextRecord)),
        KeyBinding([.up], "↑/↓", "Previous / next field", [.formBrowsing, .rosterBrowsing], .form(.moveHighlight(-1))),
        KeyBinding([.down], "↓", nil, [.formBrowsing, .rosterBrowsing], .form(.moveHighlight(1))),
        KeyBinding([.tab], "Tab/S-Tab", "Next / previous field (wraps)", [.formBrowsing, .rosterBrowsing], .form(.cycleHighlight(1))),
        KeyBinding([.backTab], "S-Tab", nil, [.formBrowsing, .rosterBrowsing], .form(.cycleHighlight(-1))),
        KeyBinding([.enter], "Enter", "Edit it, caret at the end / press the button", [.formBrowsing, .rosterBrowsing], .form(.activate), bar: "Edit"),
        KeyBinding([.home], "Home/End", "First / last question of the form", [.formBrowsing, .rosterBrowsing], .form(.jumpToEdge(last: false))),
        KeyBinding([.end], "End", nil, [.formBrowsing, .rosterBrowsing], .form(.jumpToEdge(last: true))),
        KeyBinding([.pageUp], "PgUp/PgDn", "A screenful of questions up / down", [.formBrowsing], .form(.movePage(-1))),
        KeyBinding([.pageDown], "PgDn", nil, [.formBrowsing], .form(.movePage(1))),
        KeyBinding([.control("g")], "^G", "Go to: the interview as a tree; type to narrow",
                   [.formBrowsing, .rosterBrowsing, .formEditing], .tree(.open)),
        KeyBinding([.up], "↑/↓", "Move the highlight", [.goingTo], .tree(.move(-1)), bar: "Move"),
        KeyBinding([.down], "↓", nil, [.goingTo], .tree(.move(1))),
        KeyBinding([.pageUp], "PgUp/PgDn", "Move a page", [.goingTo], .tree(.move(-10))),
        KeyBinding([.pageDown], "PgDn", nil, [.goingTo], .tree(.move(10))),
        KeyBinding([.home], "Home/End", "First / last row", [.goingTo], .tree(.move(Int.min))),
        KeyBinding([.end], "End", nil, [.goingTo], .tree(.move(Int.max))),
        KeyBinding([.enter], "Enter", "Go there: the form at that question (its member shown)", [.goingTo], .tree(.go), bar: "Go"),
        KeyBinding([.tab], "Tab", "The problems alone, or everything again", [.goingTo], .tree(.toggleProblems), bar: "Problems"),
        KeyBinding([.backspace], "Bksp", "Delete the last letter typed to narrow the tree", [.goingTo], .tree(.backspace)),
        KeyBinding([.escape, .control("g")], "Esc", "Close the tree", [.goingTo], .app(.closePopover), bar: "Close"),
        KeyBinding([.function(8)], "F8", "Next problem: an answer the form refuses or lacks",
                   [.formBrowsing, .rosterBrowsing], .form(.nextProblem)),
        // No key of its own: any character typed (see `action(for:in:)`); listed so the bar
        // and help say that typing over an answer replaces it.
        KeyBinding([], "Type", "Typing over a highlighted answer replaces it", [.formBrowsing, .rosterBrowsing],
                   .form(.activate), bar: "Replace"),
        // Verify mode (double entry)
        KeyBinding([.character("v")], "v", "Verify: key the survey again from paper, the answers blank (double entry; resumes where it stopped)",
                   lists, .verify(.start)),
        KeyBinding([.enter], "Enter", "Keep: the same as stored is verified; a difference asks to key it again",
                   [.verifying], .verify(.keep), bar: "Keep"),
        KeyBinding([.tab], "Tab", "After a difference: the stored and keyed answers side by side", [.verifying], .verify(.toggleBoth), bar: "Both"),
        KeyBinding([.escape], "Esc", "Stop verifying (what is verified stays; v resumes)", [.verifying], .verify(.close), bar: "Stop"),
        // Form, editing
        KeyBinding([.enter], "Enter", "Keep the answer and go on to the next question (after the last: [ Add ])",
                   [.formEditing], .form(.commitAndAdvance), bar: "Keep"),
        KeyBinding([.escape], "Esc", "Undo changes to this field", [.formEditing], .form(.cancelEditing), bar: "Undo"),
        KeyBinding([.tab], "Tab/S-Tab", "Keep and go to the next / previous field", [.formEditing], .form(.commitAndMove(1, wrap: true)), bar: "Next"),
        KeyBinding([.backTab], "S-Tab", nil, [.formEditing], .form(.commitAndMove(-1, wrap: true))),
        KeyBinding([.down], "↓/↑", "Keep and move down / up", [.formEditing], .form(.commitAndMove(1, wrap: false))),
        KeyBinding([.up], "↑", nil, [.formEditing], .form(.commitAndMove(-1, wrap: false))),
        KeyBinding([.left], "←/→", "Move the caret", typing, .text(.caretLeft)),
        KeyBinding([.right], "→", nil, typing, .text(.caretRight)),
        KeyBinding([.home, .control("a")], "Home/End ^A/^E", "Caret to start / end", typing, .text(.caretHome)),
        KeyBinding([.end, .control("e")], "End", nil, typing, .text(.caretEnd)),
        KeyBinding([.meta("b"), .controlLeft], "M-b/M-f ^←/^→", "Caret a word left / right", typing, .text(.caretWordLeft)),
        KeyBinding([.meta("f"), .controlRight], "M-f", nil, typing, .text(.caretWordRight)),
        KeyBinding([.control("w"), .altBackspace], "^W M-Bksp", "Delete the word before the caret", typing, .text(.deleteWordBackward)),
        KeyBinding([.control("u")], "^U/^K", "Delete to the start / to the end", typing, .text(.deleteToStart)),
        KeyBinding([.control("k")], "^K", nil, typing, .text(.deleteToEnd)),
        KeyBinding([.backspace], "Bksp/Del", "Delete before / after the caret", typing, .text(.deleteBackward)),
        KeyBinding([.delete], "Del", nil, typing, .text(.deleteForward)),
        // Choice picker
        KeyBinding([.up], "↑/↓", "Move the highlight", [.picking], .picker(.move(-1)), bar: "Move"),
        KeyBinding([.down], "↓", nil, [.picking], .picker(.move(1))),
        KeyBinding([.pageUp], "PgUp/PgDn", "Move a page", [.picking], .picker(.move(-10))),
        KeyBinding([.pageDown], "PgDn", nil, [.picking], .picker(.move(10))),
        KeyBinding([.enter], "Enter", "Choose the highlighted choice (or keep the ticked ones) and go on", [.picking], .picker(.choose), bar: "Choose"),
        KeyBinding([.character(" ")], "Space", "Tick or untick (several choices allowed)", [.picking], .picker(.type(" "))),
        KeyBinding([.tab], "Tab/S-Tab", "Keep the answer and go to the next / previous question", [.picking], .picker(.accept(1))),
        KeyBinding([.backTab], "S-Tab", nil, [.picking], .picker(.accept(-1))),
        KeyBinding([.backspace], "Bksp", "Delete the last letter typed to narrow the list", [.picking], .picker(.backspace)),
        KeyBinding([.delete], "Del", "Leave the question unanswered", [.picking], .picker(.clear), bar: "Unanswer"),
        KeyBinding([.escape], "Esc", "Close without changing the answer", [.picking], .app(.closePopover), bar: "Cancel"),
        // Document manager
        KeyBinding([.up], "↑/↓", "Move the highlight", [.documents], .documents(.manager(.move(-1))), bar: "Move"),
        KeyBinding([.down], "↓", nil, [.documents], .documents(.manager(.move(1)))),
        KeyBinding([.pageUp], "PgUp/PgDn", "Move a page", [.documents], .documents(.manager(.page(-1)))),
        KeyBinding([.pageDown], "PgDn", nil, [.documents], .documents(.manager(.page(1)))),
        KeyBinding([.home], "Home/End", "First / last document", [.documents], .documents(.manager(.toFirst))),
        KeyBinding([.end], "End", nil, [.documents], .documents(.manager(.toLast))),
        KeyBinding([.enter], "Enter", "Switch to the highlighted document", [.documents], .documents(.manager(.openHighlighted)), bar: "Open"),
        KeyBinding([.character("n")], "n", "New document (Untitled, Untitled 2, …)", [.documents], .documents(.manager(.newDocument)), bar: "New"),
        KeyBinding([.character("r")], "r", "Rename the highlighted document", [.documents], .documents(.manager(.beginRename)), bar: "Rename"),
        KeyBinding([.character("d")], "d", "Delete it (to the trash, after a confirmation)", [.documents], .documents(.manager(.requestDelete)), bar: "Delete"),
        KeyBinding([.character("u")], "u", "Bring back the last deleted document", [.documents], .documents(.manager(.restoreDeleted)), bar: "Undo"),
        KeyBinding([.escape, .function(3)], "Esc", "Close the documents list", [.documents], .app(.closePopover), bar: "Close"),
        KeyBinding([.enter], "Enter", "Rename", [.renamingDocument], .documents(.manager(.commitRename)), bar: "Rename"),
        KeyBinding([.escape], "Esc", "Keep the old name", [.renamingDocument], .documents(.manager(.cancelRename)), bar: "Cancel"),
        KeyBinding([.character("y")], "y", "Delete", [.confirmingDelete], .documents(.confirmDelete), bar: "Delete"),
        KeyBinding([.character("n"), .escape], "n", "Keep it", [.confirmingDelete], .documents(.cancelDelete), bar: "Keep"),
        KeyBinding([.enter], "Enter", "Save the records under this name", [.namingDocument], .documents(.saveUnderName), bar: "Save"),
        KeyBinding([.escape], "Esc", "Not now (the records stay in memory)", [.namingDocument], .documents(.dismissSaveAs), bar: "Not now"),
        KeyBinding([.enter], "Enter", "Keep the name or the reason typed (a change waiting for its reason is then made)", [.auditPrompt], .audit(.commitPrompt), bar: "OK"),
        KeyBinding([.escape], "Esc", "Not now: nothing is saved, your entry stays on the form", [.auditPrompt], .audit(.cancelPrompt), bar: "Cancel"),
        // Kept surveys: explicit letters, never Enter or a digit (a prompt that appears while
        // someone keys must not take "45⏎" as a choice); any other key is refused and said.
        KeyBinding([.character("m")], "m", "Merge them into their document (yours where both changed an answer)",
                   [.offeringRecovery], .documents(.mergeRecovery(theirsWhereBothChanged: false)), bar: "Merge"),
        KeyBinding([.character("t")], "t", "Merge them, taking theirs where both changed an answer",
                   [.offeringRecovery], .documents(.mergeRecovery(theirsWhereBothChanged: true)), bar: "Theirs"),
        KeyBinding([.character("d")], "d", "Discard them (moved to .trash, not erased)", [.offeringRecovery], .documents(.discardRecovery), bar: "Discard"),
        KeyBinding([.escape], "Esc", "Decide at the next start", [.offeringRecovery], .documents(.postponeRecovery), bar: "Later"),
        KeyBinding([.escape, .function(4)], "Esc", "Back to the form", [.documentInfo], .documents(.toggleInfo), bar: "Back"),
        KeyBinding([.character("c")], "c", "Conflicts a sync kept: mine / theirs per field", [.documentInfo], .sync(.showConflicts)),
        // The conflicts (F4, then c)
        KeyBinding([.up], "↑/↓", "Previous / next conflict", [.conflicts], .sync(.moveConflict(-1))),
        KeyBinding([.down], "↓", nil, [.conflicts], .sync(.moveConflict(1))),
        KeyBinding([.character("m")], "m", "Keep my answer (goes out at the next sync)", [.conflicts], .sync(.resolve(keepMine: true)), bar: "Mine"),
        KeyBinding([.character("t")], "t", "Take theirs", [.conflicts], .sync(.resolve(keepMine: false)), bar: "Theirs"),
        KeyBinding([.escape, .function(4)], "Esc", "Back to the document info", [.conflicts], .sync(.closeConflicts), bar: "Back"),
        // Anywhere
        KeyBinding([.function(1)], "F1", "Help", all.subtracting([.help]).subtracting(dialogs), .app(.showHelp), bar: "Help"),
        KeyBinding([.function(2)], "F2", "Survey list",
                   all.subtracting([.listPopover, .unreadable]).subtracting(dialogs), .app(.showList), bar: "List"),
        KeyBinding([.function(2)], "F2", "Close the list", [.listPopover], .app(.closePopover)),
        KeyBinding([.function(3)], "F3", "Documents",
                   all.subtracting([.documents]).subtracting(dialogs), .documents(.show), bar: "Docs"),
        KeyBinding([.function(4)], "F4", "Document info",
                   [.formBrowsing, .rosterBrowsing, .formEditing, .listPane, .unreadable], .documents(.toggleInfo), bar: "Info"),
        KeyBinding([.function(5)], "F5", "Add goes on to a new form, or shows the survey",
                   [.formBrowsing, .rosterBrowsing, .formEditing, .listPane, .picking], .form(.toggleNextFormAfterAdd)),
        KeyBinding([.function(7)], "F7", "Next language of the form",
                   [.formBrowsing, .rosterBrowsing, .formEditing, .listPane, .picking, .documentInfo], .form(.nextLanguage)),
        KeyBinding([.function(9)], "F9", "Sync with the team's database (SURVEY_DB)",
                   [.formBrowsing, .rosterBrowsing, .listPane, .documentInfo, .conflicts], .sync(.start)),
        KeyBinding([.control("n")], "^N", "New survey",
                   all.subtracting([.unreadable]).subtracting(dialogs), .records(.newRecord), bar: "New"),
        KeyBinding([.control("s")], "^S", "Keep the New form as an incomplete survey (… in the list) and start the next one",
                   [.formBrowsing, .rosterBrowsing, .formEditing], .records(.keepIncomplete)),
        // Delete, undo, redo
        KeyBinding([.character("d"), .delete], "d/Del", "Delete the highlighted survey (asks y/n; Ctrl-Z undoes)", lists, .records(.requestRecordDelete), bar: "Delete"),
        KeyBinding([.delete], "Del", "Clear this answer (Ctrl-Z brings it back); a survey is deleted from the list", [.formBrowsing, .rosterBrowsing], .form(.clearAnswer)),
        KeyBinding([.character("y")], "y", "Delete it", [.confirmingRecordDelete], .records(.confirmQuestion), bar: "Delete"),
        KeyBinding([.character("y")], "y", "Add the copy", [.confirmingRecordCopy], .records(.confirmQuestion), bar: "Copy"),
        KeyBinding([.character("y")], "y", "Add it too (the same paper keyed twice, or two papers the ID items do not tell apart)",
                   [.confirmingDuplicate], .records(.confirmQuestion), bar: "Add too"),
        KeyBinding([.character("n"), .escape], "n", "Don't add: the New form keeps its answers", [.confirmingDuplicate],
                   .records(.cancelQuestion), bar: "Don't add"),
        KeyBinding([.character("y")], "y", "Clear those answers (Ctrl-Z undoes)", [.confirmingAnswersClear], .records(.confirmQuestion), bar: "Clear"),
        KeyBinding([.character("n"), .escape], "n", "Keep it", [.confirmingRecordDelete, .confirmingRecordCopy, .confirmingAnswersClear],
                   .records(.cancelQuestion), bar: "Keep"),
        KeyBinding([.character("x")], "x", "Clear the answers this form version does not ask (asks y/n)", [.documentInfo],
                   .records(.requestClearNotAsked)),
        KeyBinding([.character("b")], "b", "Bring back the survey as it was before its last change made here (Ctrl-Z undoes)",
                   [.documentInfo], .records(.bringBackBeforeLastChange)),
        // Rosters: the member shown, another one, deleting one
        KeyBinding([.pageUp], "PgUp/PgDn", "Previous / next member of the roster", [.rosterBrowsing], .form(.stepInstance(-1)), bar: "Member"),
        KeyBinding([.pageDown], "PgDn", nil, [.rosterBrowsing], .form(.stepInstance(1))),
        KeyBinding([.control("o")], "^O", "Add a member after this one", [.rosterBrowsing], .form(.addInstance), bar: "Add member"),
        KeyBinding([.control("d")], "^D", "Delete this member (asks y/n)", [.rosterBrowsing], .form(.requestInstanceDelete), bar: "Del member"),
        KeyBinding([.character("y")], "y", "Yes", [.confirmingRoster], .form(.answerRoster(true)), bar: "Yes"),
        KeyBinding([.character("n"), .escape], "n", "No", [.confirmingRoster], .form(.answerRoster(false)), bar: "No"),
        KeyBinding([.control("z")], "^Z", "Undo the last change (every step is saved)", browsing.union([.documentInfo]), .records(.undo), bar: "Undo"),
        KeyBinding([.control("y")], "^Y", "Redo what was undone", browsing.union([.documentInfo]), .records(.redo)),
        KeyBinding([.character("u")], "u/U", "Undo / redo", lists, .records(.undo)),
        KeyBinding([.character("U")], "U", nil, lists, .records(.redo)),
        KeyBinding([.control("z")], "^Z", "Undo changes to this field", [.formEditing], .form(.cancelEditing)),
        // Find and order
        KeyBinding([.character("b")], "b", "Sent back: only the surveys a supervisor sent back (has issues, rejected); b again shows all", lists, .list(.toggleSentBack)),
        KeyBinding([.character("i")], "i", "Incomplete: only the surveys kept before they pass (…); i again shows all", lists, .list(.toggleIncomplete)),
        KeyBinding([.character("s")], "s", "Sort by the next key: entry order, last name, first name, age (a form: its survey names)", lists, .list(.cycleSortKey), bar: "Sort"),
        KeyBinding([.character("/")], "/", "Find: type words to narrow the list (any order, any case or accent)", browsing, .list(.beginFilter), bar: "Find"),
        KeyBinding([.function(6)], "F6", "Sections A–Z by name, or back", browsing, .list(.toggleSections)),
        KeyBinding([.enter], "Enter", "Keep the filter and go to the list", [.filtering], .list(.commitFilter), bar: "Keep"),
        KeyBinding([.escape], "Esc", "Clear the filter", [.filtering], .list(.clearFilter), bar: "Clear"),
        KeyBinding([.control("q")], "^Q", "Quit", all, .app(.quit), bar: "Quit"),
        KeyBinding([.control("c")], "^C", nil, all, .app(.quit)),
    ]

    /// What a key does in a mode: the table first, then typing for the form.
    public static func action(for key: Key, in mode: InputMode) -> Action? {
        if let binding = byMode[Int(mode.rawValue)].first(where: { $0.keys.contains(key) }) {
            return binding.action
        }
        // The kept surveys' offer takes only its own keys; the rest are said, never dropped.
        if mode == .offeringRecovery { return .documents(.keyNotAChoice) }
        if case .character(let c) = key {
            switch mode {
            case .formBrowsing, .rosterBrowsing: return .form(.beginEditing(inserting: c))
            case .formEditing, .renamingDocument, .namingDocument, .filtering, .verifying, .auditPrompt: return .text(.insert(c))
            case .picking: return .picker(.type(c))
            case .goingTo: return .tree(.type(c))
            default: return nil
            }
        }
        return nil
    }

    /// What a terminal event does in the current state.
    public static func action(for event: InputEvent, in state: AppState) -> Action? {
        switch event {
        case .key(let key):
            // Nothing is visible in a too-small terminal: typing blind must not change data.
            if state.layout.kind == .tooSmall {
                return key == .control("q") || key == .control("c") ? .app(.quit) : nil
            }
            return action(for: key, in: state.inputMode)
        case .click(let p): return .app(.click(p))
        case .wheel(let delta, let p): return state.layout.kind == .tooSmall ? nil : .app(.wheel(delta, at: p))
        case .resize(let size): return .system(.resized(size))
        case .paste(let text):
            // Like typing: nothing is pasted blind into a terminal too small to show it, nor
            // under the kept surveys' offer.
            if state.layout.kind == .tooSmall { return nil }
            return state.inputMode == .offeringRecovery ? .documents(.keyNotAChoice) : .text(.paste(text))
        }
    }

    /// Bindings listed in the key bar for a mode, in table order.
    public static func barBindings(for mode: InputMode) -> [KeyBinding] {
        barByMode[Int(mode.rawValue)]
    }

    /// Each mode's bindings in table order (by the mode's raw value), sorted out once rather
    /// than on every key.
    private static let byMode: [[KeyBinding]] = InputMode.allCases.map { mode in bindings.filter { $0.modes.contains(mode) } }
    private static let barByMode: [[KeyBinding]] = byMode.map { $0.filter(\.inBar) }

    /// Bindings listed in help for a mode: those with a help line, in table order.
    public static func helpBindings(for mode: InputMode) -> [KeyBinding] {
        bindings.filter { $0.help != nil && $0.modes.contains(mode) }
    }
}
