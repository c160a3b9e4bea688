import CNcurses

/// Bracketed paste (xterm's mode 2004), so a paste arrives as text rather than as typing.
///
/// Without it a pasted line break is Enter (committing the field and moving on), a tab is
/// Tab, and a pasted control byte could even be Ctrl-Q. With the mode on, the terminal wraps
/// every paste in `ESC [200~` … `ESC [201~`. curses is taught the two markers as key codes of
/// our own (terminfo has no key for them), and everything read between them is collected
/// into one `InputEvent.paste`: characters as text, key sequences inside dropped, so a paste
/// never presses a key. The UI core decides what the text does.
///
/// The mode is switched on in `Terminal.start` and off in `TerminalRestore.restore`, the one
/// place every exit path (quit, signals, crashes, `exit`) goes through.
enum BracketedPaste {
    /// Computed `StaticString`s: the crash handler writes `disable`, and must not run a lazy
    /// initialiser or allocate.
    static var enable: StaticString { "\u{1B}[?2004h" }
    static var disable: StaticString { "\u{1B}[?2004l" }
    static let startSequence = "\u{1B}[200~"
    static let endSequence = "\u{1B}[201~"
    /// Far above `KEY_MAX` and the codes ncurses gives a terminfo entry's extended keys.
    static let startCode: Int32 = 0x6F00
    static let endCode: Int32 = 0x6F01
    /// A paste whose end marker never comes (a hand-typed `ESC [200~`) ends after this much
    /// silence, with the text read so far.
    static let silenceMilliseconds: Int32 = 500

    /// Call after `keypad(window, true)`.
    static func register() {
        if key_defined(startSequence) != startCode { define_key(startSequence, startCode) }
        if key_defined(endSequence) != endCode { define_key(endSequence, endCode) }
    }

    /// One read from `get_wch`: its status (`OK` or `KEY_CODE_YES`) and code; nil when
    /// nothing came within the silence.
    typealias Read = (status: Int32, code: UInt32)

    /// Collects the text of a paste whose start marker was just read, up to its end marker.
    ///
    /// Characters (line breaks and tabs included) are kept as they came; curses key codes
    /// (an arrow's escape sequence in the pasted text) are dropped, as are other markers. A
    /// resize read in the middle is reported so the caller can deliver it after the paste.
    static func collect(from next: () -> Read?) -> (text: String, resized: Bool) {
        var text = String.UnicodeScalarView()
        var resized = false
        while let read = next() {
            if read.status == KEY_CODE_YES {
                let code = Int32(truncatingIfNeeded: read.code)
                if code == endCode { break }
                if code == KEY_RESIZE { resized = true }
                continue
            }
            if let scalar = Unicode.Scalar(read.code) { text.append(scalar) }
        }
        return (String(text), resized)
    }
}
