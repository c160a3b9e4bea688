/// Why survey cannot start its full screen. The executable prints the description and exits
/// with status 2 before any document is opened, so a wrong terminal never touches data.
public enum TerminalUnavailable: Error, Equatable, CustomStringConvertible {
    /// stdin or stdout is redirected and there is no controlling terminal to use instead.
    case noTerminal(redirected: String, reason: String)
    case termUnset
    /// `TERM` names no terminfo entry (or a generic one).
    case unknownTerminal(String)
    case noTerminfoDatabase(String)
    /// The entry has no cursor addressing (`cup`): `dumb`, a printing terminal.
    case cannotMoveCursor(String)

    static let advice = "run survey in a full-screen terminal (TERM=xterm-256color, tmux-256color, linux, ...)"

    public var description: String {
        switch self {
        case .noTerminal(let redirected, let reason):
            return "no terminal to draw on: \(redirected) and /dev/tty cannot be opened (\(reason)); "
                + "run survey from a terminal, or use `survey list` or `survey export` in scripts"
        case .termUnset:
            return "TERM is not set, so survey cannot tell how to draw; \(Self.advice)"
        case .unknownTerminal(let name):
            return "the terminal \"\(name)\" is unknown (no terminfo entry for it); \(Self.advice)"
        case .noTerminfoDatabase(let name):
            return "no terminfo database to look up the terminal \"\(name)\" (install ncurses-base); \(Self.advice)"
        case .cannotMoveCursor(let name):
            return "the terminal \"\(name)\" cannot move the cursor; \(Self.advice)"
        }
    }
}
