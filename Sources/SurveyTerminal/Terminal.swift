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
/// terminal. Setup lives in `start()` rather than `init()` so that creating a `Terminal` has
/// no side effects. Create one per process: curses has a single screen.
public final class Terminal {
    var palette = CursesPalette()
    var hangup = HangupDetector()
    /// Last `curs_set` value sent, so the caret is only toggled when it changes.
    var cursorShown: Bool?
    /// Last timeout given to `wtimeout`.
    var currentTimeout: Int32?
    private var hasInitialisedCurses = false

    public init() {}

    deinit { stop() }

    /// Takes over the terminal: UTF-8 locale, curses in raw mode with keypad decoding, a
    /// 25 ms Esc delay, mouse clicks, colours, and quit-signal handlers.
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
    public func start() {
        if hasInitialisedCurses {
            resume()
            return
        }
        setlocale(LC_ALL, "")
        TextWidth.ensureUTF8Locale()
        TerminalSignals.installTerminationHandlers()   // before initscr: see TerminalSignals
        initscr()
        hasInitialisedCurses = true
        TerminalRestore.cursesDidStart()
        let window = shim_stdscr()
        raw()
        noecho()
        nonl()
        keypad(window, true)
        KeyAliases.register()
        scrollok(window, false)   // so writing the bottom-right cell never scrolls
        set_escdelay(25)
        enableMouse()
        palette = CursesPalette.install()
        cursorShown = nil
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

    private func enableMouse() {
        mouseinterval(0)
        mousemask(shim_button1_pressed() | shim_button1_clicked(), nil)
    }

    /// Re-enters curses after `stop()`: a refresh restores program mode and the screen.
    private func resume() {
        guard !TerminalRestore.isCursesActive else { return }
        TerminalRestore.cursesDidStart()
        let window = shim_stdscr()
        wrefresh(window)
        enableMouse()
        cursorShown = nil
        showCursor(false)
    }
}
