import CNcurses

/// Escape sequences that real terminals send for the keys survey uses, taught to curses when
/// the terminfo entry in `TERM` does not list them.
///
/// curses only decodes the sequences its terminfo entry names, and `TERM` is often not the
/// terminal actually running: tmux always sends `\e[1~`/`\e[4~` for Home/End, but with
/// `TERM=xterm-256color` inside tmux (a common setup) curses expects `\eOH`, and without a
/// mapping the app would see Esc, `[`, `1`, `~`: an Esc that cancels an edit plus junk
/// typed into the field. tmux's own entries lack the keypad keys that xterm's entry lists
/// (`\eOM` Enter, `\eOw`/`\eOq`/`\eOy`/`\eOs`/`\eOu` the keypad's corners and centre), which
/// tmux sends in keypad mode. Each alias is added only when curses has no meaning for the
/// sequence yet, so an entry that defines it wins.
enum KeyAliases {
    static let sequences: [(sequence: String, code: Int32)] = [
        ("\u{1B}[A", KEY_UP), ("\u{1B}[B", KEY_DOWN), ("\u{1B}[C", KEY_RIGHT), ("\u{1B}[D", KEY_LEFT),
        ("\u{1B}OA", KEY_UP), ("\u{1B}OB", KEY_DOWN), ("\u{1B}OC", KEY_RIGHT), ("\u{1B}OD", KEY_LEFT),
        ("\u{1B}[1~", KEY_HOME), ("\u{1B}[7~", KEY_HOME), ("\u{1B}[H", KEY_HOME), ("\u{1B}OH", KEY_HOME),
        ("\u{1B}[4~", KEY_END), ("\u{1B}[8~", KEY_END), ("\u{1B}[F", KEY_END), ("\u{1B}OF", KEY_END),
        ("\u{1B}[5~", KEY_PPAGE), ("\u{1B}[6~", KEY_NPAGE),
        ("\u{1B}[3~", KEY_DC), ("\u{1B}[Z", KEY_BTAB), ("\u{1B}OM", KEY_ENTER),
        ("\u{1B}Ow", KEY_A1), ("\u{1B}Oy", KEY_A3), ("\u{1B}Ou", KEY_B2), ("\u{1B}Oq", KEY_C1), ("\u{1B}Os", KEY_C3),
        ("\u{1B}OP", KEY_F0 + 1), ("\u{1B}OQ", KEY_F0 + 2), ("\u{1B}OR", KEY_F0 + 3), ("\u{1B}OS", KEY_F0 + 4),
        ("\u{1B}[11~", KEY_F0 + 1), ("\u{1B}[12~", KEY_F0 + 2), ("\u{1B}[13~", KEY_F0 + 3), ("\u{1B}[14~", KEY_F0 + 4),
        ("\u{1B}[15~", KEY_F0 + 5), ("\u{1B}[17~", KEY_F0 + 6), ("\u{1B}[18~", KEY_F0 + 7), ("\u{1B}[19~", KEY_F0 + 8),
        ("\u{1B}[20~", KEY_F0 + 9), ("\u{1B}[21~", KEY_F0 + 10), ("\u{1B}[23~", KEY_F0 + 11), ("\u{1B}[24~", KEY_F0 + 12),
    ]

    /// Private codes for Ctrl-←/→, which terminfo names only as extended capabilities
    /// (kLFT5/kRIT5) whose codes vary: xterm, tmux and VTE send `\e[1;5D`/`\e[1;5C`,
    /// rxvt `\eOd`/`\eOc`.
    static let controlLeftCode: Int32 = 0x6F10
    static let controlRightCode: Int32 = 0x6F11
    static let wordSequences: [(sequence: String, code: Int32)] = [
        ("\u{1B}[1;5D", controlLeftCode), ("\u{1B}[1;5C", controlRightCode),
        ("\u{1B}Od", controlLeftCode), ("\u{1B}Oc", controlRightCode),
    ]

    /// Call after `initscr` and `keypad(stdscr, true)`.
    static func register() {
        for alias in sequences where key_defined(alias.sequence) == 0 {
            define_key(alias.sequence, alias.code)
        }
        for word in wordSequences where key_defined(word.sequence) != word.code {
            define_key(word.sequence, word.code)
        }
    }
}
