/// One binding of the key table: its keys, what they do, and how the bar and help name it.
public struct KeyBinding: Sendable {
    public let keys: [Key]
    /// How the keys are written in the bar and help, e.g. "←/→".
    public let keyLabel: String
    public let help: String
    public let modes: Set<InputMode>
    public let action: Action
    /// The short word for the bottom bar; nil keeps it out of the bar (F1 help lists all).
    public let barLabel: String?
    public var inBar: Bool { barLabel != nil }

    init(_ keys: [Key], _ keyLabel: String, _ help: String, _ modes: Set<InputMode>,
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
    private static let lists: Set<InputMode> = [.listPane, .listPopover]
    private static let form: Set<InputMode> = [.formBrowsing, .formEditing]
    private static let all = Set(InputMode.allCases)

    public static let bindings: [KeyBinding] = [
        // Help popover
        KeyBinding([.escape, .function(1)], "Esc", "Close help", [.help], .closePopover, bar: "Close"),
        // Lists
        KeyBinding([.up], "↑/↓", "Move the highlight", lists, .listMove(-1), bar: "Move"),
        KeyBinding([.down], "↓", "Next row", lists, .listMove(1)),
        KeyBinding([.pageUp], "PgUp/PgDn", "Move a page", lists, .listPage(-1)),
        KeyBinding([.pageDown], "PgDn", "Next page", lists, .listPage(1)),
        KeyBinding([.home], "Home/End", "First / last row", lists, .listToFirst),
        KeyBinding([.end], "End", "Last row", lists, .listToLast),
        KeyBinding([.enter, .tab], "Enter", "Go to the form", lists, .focusForm, bar: "Open"),
        KeyBinding([.escape], "Esc", "Close the list", [.listPopover], .closePopover, bar: "Close"),
        // Form, browsing
        KeyBinding([.left], "←/→", "Previous / next record", [.formBrowsing], .previousRecord, bar: "Record"),
        KeyBinding([.right], "→", "Next record", [.formBrowsing], .nextRecord),
        KeyBinding([.up], "↑/↓", "Previous / next field", [.formBrowsing], .moveHighlight(-1)),
        KeyBinding([.down], "↓", "Next field", [.formBrowsing], .moveHighlight(1)),
        KeyBinding([.tab], "Tab/S-Tab", "Next / previous field (wraps)", [.formBrowsing], .cycleHighlight(1)),
        KeyBinding([.backTab], "S-Tab", "Previous field", [.formBrowsing], .cycleHighlight(-1)),
        KeyBinding([.enter], "Enter", "Edit the field / press the button", [.formBrowsing], .activate, bar: "Edit"),
        // Form, editing
        KeyBinding([.enter], "Enter", "Keep the value", [.formEditing], .commitField, bar: "Keep"),
        KeyBinding([.escape], "Esc", "Undo changes to this field", [.formEditing], .cancelEditing, bar: "Undo"),
        KeyBinding([.tab], "Tab/S-Tab", "Keep and go to the next / previous field", [.formEditing], .commitAndMove(1, wrap: true), bar: "Next"),
        KeyBinding([.backTab], "S-Tab", "Keep and go back", [.formEditing], .commitAndMove(-1, wrap: true)),
        KeyBinding([.down], "↓/↑", "Keep and move down / up", [.formEditing], .commitAndMove(1, wrap: false)),
        KeyBinding([.up], "↑", "Keep and move up", [.formEditing], .commitAndMove(-1, wrap: false)),
        KeyBinding([.left], "←/→", "Move the caret", [.formEditing], .caretLeft),
        KeyBinding([.right], "→", "Caret right", [.formEditing], .caretRight),
        KeyBinding([.home], "Home/End", "Caret to start / end", [.formEditing], .caretHome),
        KeyBinding([.end], "End", "Caret to end", [.formEditing], .caretEnd),
        KeyBinding([.backspace], "Bksp/Del", "Delete before / after the caret", [.formEditing], .deleteBackward),
        KeyBinding([.delete], "Del", "Delete after the caret", [.formEditing], .deleteForward),
        // Anywhere
        KeyBinding([.function(1)], "F1", "Help", all.subtracting([.help]), .showHelp, bar: "Help"),
        KeyBinding([.function(2)], "F2", "Survey list", all.subtracting([.listPopover, .unreadable]), .showList, bar: "List"),
        KeyBinding([.function(2)], "F2", "Close the list", [.listPopover], .closePopover),
        KeyBinding([.control("n")], "^N", "New survey", all.subtracting([.unreadable]), .newRecord, bar: "New"),
        KeyBinding([.control("q")], "^Q", "Quit", all, .quit, bar: "Quit"),
        KeyBinding([.control("c")], "^C", "Quit", all, .quit),
    ]

    /// What a key does in a mode: the table first, then typing for the form.
    public static func action(for key: Key, in mode: InputMode) -> Action? {
        if let binding = bindings.first(where: { $0.modes.contains(mode) && $0.keys.contains(key) }) {
            return binding.action
        }
        if case .character(let c) = key {
            switch mode {
            case .formBrowsing: return .beginEditing(inserting: c)
            case .formEditing: return .insert(c)
            default: return nil
            }
        }
        return nil
    }

    /// What a terminal event does in the current state.
    public static func action(for event: InputEvent, in state: AppState) -> Action? {
        switch event {
        case .key(let key): return action(for: key, in: state.inputMode)
        case .click(let p): return .click(p)
        case .resize(let size): return .resized(size)
        }
    }

    /// Bindings listed in the key bar for a mode, in table order.
    public static func barBindings(for mode: InputMode) -> [KeyBinding] {
        bindings.filter { $0.inBar && $0.modes.contains(mode) }
    }

    /// Bindings listed in help for a mode: one line per distinct label.
    public static func helpBindings(for mode: InputMode) -> [KeyBinding] {
        var seen = Set<String>()
        return bindings.filter { b in
            guard b.modes.contains(mode) else { return false }
            // "↓" is the second half of "↑/↓": listed once, under the pair.
            let isPairTail = !b.inBar && !b.keyLabel.contains("/") && bindings.contains {
                $0.modes.contains(mode) && $0.keyLabel.contains("/") && $0.keyLabel.hasSuffix(b.keyLabel)
            }
            if isPairTail || b.keys == [.control("c")] { return false }
            return seen.insert(b.keyLabel).inserted
        }
    }
}
