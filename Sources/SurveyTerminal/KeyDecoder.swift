import CNcurses
import SurveyUI

/// Pure mapping from what `get_wch` returned to a `Key`, kept apart from `Terminal` so every
/// rule can be unit-tested without a terminal. Codes that the app has no use for decode to
/// nil rather than to a guess, so an unknown key can never trigger a binding.
public enum KeyDecoder {
    /// `isFunctionKey` is true when `get_wch` returned `KEY_CODE_YES`, i.e. `code` is one of
    /// curses' `KEY_*` codes rather than a character. `KEY_RESIZE` and `KEY_MOUSE` are handled
    /// by `Terminal` before decoding, so they decode to nil here.
    public static func decode(code: UInt32, isFunctionKey: Bool) -> Key? {
        isFunctionKey ? functionKey(Int32(truncatingIfNeeded: code)) : character(code)
    }

    /// Curses key codes. Home and End have several spellings because terminals disagree:
    /// some send Find/Select for the editing-pad keys, and the keypad sends A1 (upper left)
    /// and C1 (lower left); A3/C3 are the keypad's PgUp/PgDn in the same layout.
    private static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME, KEY_FIND, KEY_A1: return .home
        case KEY_END, KEY_SELECT, KEY_C1: return .end
        case KEY_PPAGE, KEY_A3: return .pageUp
        case KEY_NPAGE, KEY_C3: return .pageDown
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case (KEY_F0 + 1)...(KEY_F0 + 12): return .function(Int(code - KEY_F0))
        case KeyAliases.controlLeftCode: return .controlLeft
        case KeyAliases.controlRightCode: return .controlRight
        default: return nil
        }
    }

    /// Plain characters. In `raw()` mode the terminal driver passes control chords through,
    /// so Ctrl-letter arrives as its C0 code (Ctrl-Q = 17); Tab, Enter, Esc and Backspace are
    /// the C0 codes that have names of their own. Other controls (C0 without a letter, DEL's
    /// C1 neighbours) decode to nil so they never reach text fields.
    /// What Esc followed at once by `code` means: Alt with that key, as terminals send it
    /// (Alt-b is Esc b, Alt-Backspace is Esc DEL); nil when it is no such chord, and the
    /// two are then an Esc and a key of their own.
    public static func meta(following code: UInt32) -> Key? {
        switch code {
        case 8, 127: return .altBackspace
        case 0x21...0x7E: return .meta(Character(Unicode.Scalar(UInt8(code))))
        default: return nil
        }
    }

    private static func character(_ code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26:
            let letter = Unicode.Scalar(UInt8(ascii: "a") + UInt8(code - 1))
            return .control(Character(letter))
        case 0..<0x20, 0x80..<0xA0: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }
}
