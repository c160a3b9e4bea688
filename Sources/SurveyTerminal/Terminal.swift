#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CNcurses
import SurveyUI

/// The full-screen terminal: the only type in survey that calls curses.
///
/// The app loop drives it with three calls: `readEvent` for input, `present` to copy a
/// rendered `CellGrid` to the screen, and `stop` to restore the terminal. Everything it hands
/// back is a `SurveyUI` value (`InputEvent`, `Size`), so the UI core stays testable without a
/// terminal. `init` only finds and checks the terminal (see `TerminalDevice`), so a terminal
/// survey cannot use is refused before any document is opened; curses takes the screen in
/// `start()`. Create one per process: curses has a single screen.
public final class Terminal {
    let device: TerminalDevice
    /// The window size the kernel reported when a resize was last delivered, so a resize
    /// that curses has not turned into `KEY_RESIZE` yet can be noticed (see `readEvent`).
    var deliveredWindowSize: Size?
    var palette = CursesPalette()
    var hangup = HangupDetector()
    /// Last `curs_set` value sent, so the caret is only toggled when it changes.
    var cursorShown: Bool?
    /// Last timeout given to `wtimeout`.
    var currentTimeout: Int32?
    /// The frame last copied to the window, so `present` copies only rows that changed;
    /// nil when the window may no longer hold it (start, resume, resize).
    var presented: CellGrid?
    /// The frame presented before `presented`, kept to draw the next frame into (see
    /// `takeFrameGrid`), so a key allocates no grid.
    var spareGrid: CellGrid?
    private var hasInitialisedCurses = false
    /// NO_COLOR (https://no-color.org): any non-empty value turns colours off; focus and
    /// meaning still show through reverse video, bold and markers.
    private let noColor: Bool

    /// Finds the terminal to draw on (stdin/stdout, else `/dev/tty`) and checks that `TERM`
    /// can drive a full screen; throws `TerminalUnavailable` with the reason otherwise.
    public init(environment: [String: String]) throws {
        device = try TerminalDevice.resolve(environment: environment)
        noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    }

    deinit { stop() }

    /// Takes over the terminal: UTF-8 locale, curses in raw mode with keypad decoding, a
    /// 25 ms Esc delay, mouse clicks, bracketed paste, colours, and quit-signal handlers.
    ///
    /// - The locale comes from the environment; if that is not UTF-8 it falls back to
    ///   C.UTF-8, because under the C locale curses draws wide characters blank.
    /// - `raw()` rather than `cbreak()`, so Ctrl-Q, Ctrl-S, Ctrl-C and Ctrl-Z reach the app
    ///   as keys instead of being taken by the terminal driver.
    /// - `nonl()` so Enter arrives as 13 and output newlines are not translated.
    /// - `set_escdelay(25)`: curses waits this long after Esc for the rest of an escape
    ///   sequence; the default second makes Esc feel broken.
    /// - `mouseinterval(0)`: report presses at once instead of waiting to detect clicks.
    ///
    /// Calling it again after `stop()` resumes the same curses session.
    public func start() throws {
        if hasInitialisedCurses {
            resume()
            return
        }
        setlocale(LC_ALL, "")
        TextWidth.ensureUTF8Locale()
        TerminalSignals.installTerminationHandlers()   // before newterm: see TerminalSignals
        // initscr, but on the device found in init (it may be /dev/tty, not stdin/stdout).
        guard newterm(device.termName, device.outputFile, device.inputFile) != nil else {
            throw TerminalUnavailable.unknownTerminal(device.termName)
        }
        TerminalSignals.wakeOnResize()   // after newterm: it chains ncurses' handler
        def_prog_mode()
        Self.leaveInitialState()
        hasInitialisedCurses = true
        TerminalRestore.cursesDidStart(terminal: device.output)
        let window = shim_stdscr()
        raw()
        noecho()
        nonl()
        keypad(window, true)
        KeyAliases.register()
        BracketedPaste.register()
        deliveredWindowSize = device.windowSize()
        scrollok(window, false)   // so writing the bottom-right cell never scrolls
        set_escdelay(25)
        // No typeahead check during updates: it polled the input every few changed lines
        // of every frame. The loop reads every waiting key before it draws, and a frame
        // is a few hundred bytes, so there is nothing for it to cut short.
        typeahead(-1)
        enableMouse()
        palette = noColor ? CursesPalette() : CursesPalette.install()
        cursorShown = nil
        presented = nil
        showCursor(false)
    }

    /// Restores the terminal (`endwin`). Idempotent; safe on every exit path. `exit()` and
    /// crashes are covered too, through `TerminalRestore`. Until `start()` resumes,
    /// `readEvent` returns nil, `present` does nothing and `terminationRequested` is true.
    public func stop() {
        TerminalRestore.restore()
    }

    /// The screen size in cells (0x0 while curses is not running).
    public var size: Size {
        guard let window = activeWindow else { return Size(width: 0, height: 0) }
        return Size(width: Int(getmaxx(window)), height: Int(getmaxy(window)))
    }

    /// True once SIGTERM, SIGHUP or SIGINT arrived, once reading keeps failing because the
    /// terminal is gone, or once the terminal was restored behind the loop's back (a crash
    /// signal that the Swift runtime's handler chose to survive, e.g. `kill -ABRT`). The app
    /// loop then quits through its normal path instead of spinning on a dead screen.
    public var terminationRequested: Bool {
        TerminalSignals.terminationSignal != nil || hangup.isHungUp
            || (hasInitialisedCurses && !TerminalRestore.isCursesActive)
    }

    /// `stdscr` while curses owns the terminal, nil before `start()` and after `stop()`, so
    /// no call draws into (and thereby re-enters) a stopped session.
    var activeWindow: UnsafeMutablePointer<WINDOW>? {
        TerminalRestore.isCursesActive ? shim_stdscr() : nil
    }

    func showCursor(_ shown: Bool) {
        guard cursorShown != shown else { return }
        curs_set(shown ? 1 : 0)
        cursorShown = shown
    }

    /// Makes curses send each frame in one `write()` instead of one per cursor move.
    ///
    /// ncurses (6.4 here) flushes its output after every cursor move while its screen is in
    /// the state `newterm` leaves it in (meant for programs that move the cursor through
    /// terminfo without refreshing). Only `endwin` followed by a refresh moves it on to the
    /// running state, where output waits until `doupdate` ends. So that cycle is done once
    /// here, before anything is drawn: the terminal leaves the alternate screen and comes
    /// straight back (two writes at start), and every later frame is a single write (a list
    /// step was about 10).
    static func leaveInitialState() {
        endwin()
        doupdate()
    }

    private func enableMouse() {
        mouseinterval(0)
        mousemask(shim_button1_pressed() | shim_button1_clicked() | shim_button4_pressed() | shim_button5_pressed(), nil)
    }

    /// Re-enters curses after `stop()`: a refresh restores program mode and the screen.
    private func resume() {
        guard !TerminalRestore.isCursesActive else { return }
        TerminalRestore.cursesDidStart(terminal: device.output)
        let window = shim_stdscr()
        wrefresh(window)
        enableMouse()
        presented = nil
        cursorShown = nil
        showCursor(false)
    }
}
