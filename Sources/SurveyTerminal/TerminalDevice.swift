#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CNcurses
import SurveyUI

/// The terminal survey draws on and reads keys from, found and checked before curses (or
/// anything else) touches it.
///
/// Normally that is standard input and output. When either is redirected (`survey > out.txt`,
/// `survey < /dev/null`), the controlling terminal `/dev/tty` serves as both, as fzf and less
/// do: curses draws there, and whatever goes to stdout lands in the file, never on the
/// screen. Without a controlling terminal (cron, `setsid`, a pipe from another program) there
/// is nothing to draw on and survey refuses.
///
/// `TERM` must name a terminfo entry that can move the cursor (`cup`): `TERM=dumb`, an unset
/// or unknown `TERM` would start a screen nobody can read or leave. `setupterm` reads the
/// entry without writing anything to the terminal, unlike `newterm`, which already switches
/// to the alternate screen.
struct TerminalDevice {
    let input: Int32
    let output: Int32
    let inputFile: UnsafeMutablePointer<FILE>
    let outputFile: UnsafeMutablePointer<FILE>
    /// The terminfo name curses is started with.
    let termName: String

    static func resolve(environment: [String: String]) throws -> TerminalDevice {
        let term = environment["TERM"] ?? ""
        let device = try openDescriptors(term: term)
        try checkCapabilities(term: term, descriptor: device.output)
        return device
    }

    private static func openDescriptors(term: String) throws -> TerminalDevice {
        let inputIsTerminal = isatty(STDIN_FILENO) == 1
        let outputIsTerminal = isatty(STDOUT_FILENO) == 1
        if inputIsTerminal && outputIsTerminal, let input = shim_stdin(), let output = shim_stdout() {
            return TerminalDevice(input: STDIN_FILENO, output: STDOUT_FILENO,
                                  inputFile: input, outputFile: output, termName: term)
        }
        let redirected = outputIsTerminal ? "standard input is not a terminal"
            : inputIsTerminal ? "standard output is not a terminal"
            : "standard input and output are not a terminal"
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TerminalUnavailable.noTerminal(redirected: redirected, reason: String(cString: strerror(errno)))
        }
        guard isatty(descriptor) == 1,
              let input = fdopen(descriptor, "r"), let output = fdopen(descriptor, "w") else {
            close(descriptor)
            throw TerminalUnavailable.noTerminal(redirected: redirected, reason: "not a terminal")
        }
        return TerminalDevice(input: descriptor, output: descriptor,
                              inputFile: input, outputFile: output, termName: term)
    }

    /// Refuses a `TERM` that curses cannot use for a full screen.
    static func checkCapabilities(term: String, descriptor: Int32) throws {
        guard !term.isEmpty else { throw TerminalUnavailable.termUnset }
        var error: Int32 = 0
        guard setupterm(term, descriptor, &error) == OK else {
            switch error {
            case -1: throw TerminalUnavailable.noTerminfoDatabase(term)
            case 1: throw TerminalUnavailable.cannotMoveCursor(term)   // a hardcopy terminal
            default: throw TerminalUnavailable.unknownTerminal(term)
            }
        }
        // tigetstr answers nil for an absent capability and -1 for a name that is no string.
        guard let cup = tigetstr("cup"), Int(bitPattern: cup) != -1, cup.pointee != 0 else {
            throw TerminalUnavailable.cannotMoveCursor(term)
        }
    }

    /// The size the kernel holds for the terminal right now (nil if it cannot say). It
    /// changes the moment the window does, before curses hears of it.
    func windowSize() -> Size? {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return Size(width: Int(size.ws_col), height: Int(size.ws_row))
    }
}
