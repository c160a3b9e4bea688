/// A key press, decoded by the terminal module from curses codes. The UI core sees only
/// these, so every binding can be tested without a terminal.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// Printable text (one grapheme).
    case character(Character)
    /// A control chord such as Ctrl-Q, named by its lower-case letter.
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, escape, tab, backTab, backspace, delete
    case function(Int)
    /// Alt (Meta) with a character: the terminal sends Esc and the character.
    case meta(Character)
    case altBackspace
    /// Ctrl-← and Ctrl-→ (word left / right in text boxes).
    case controlLeft, controlRight

    public var description: String {
        switch self {
        case .character(let c): return String(c)
        case .control(let c): return "^" + String(c).uppercased()
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .backspace: return "Bksp"
        case .delete: return "Del"
        case .function(let n): return "F\(n)"
        case .meta(let c): return "M-" + String(c)
        case .altBackspace: return "M-Bksp"
        case .controlLeft: return "^←"
        case .controlRight: return "^→"
        }
    }
}

/// Everything the terminal can tell the app: keys, a left click, a new size, or pasted text.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case click(Point)
    case resize(Size)
    /// The mouse wheel: -1 up, 1 down, over a point.
    case wheel(Int, at: Point)
    /// A bracketed paste: its text as it came (line breaks and tabs included), one event, so
    /// no character in it can act as a key.
    case paste(String)
}
