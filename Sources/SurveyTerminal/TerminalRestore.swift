#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CNcurses
import Synchronization

/// True between `initscr`/resume and `endwin`. Global (not a `Terminal` property) because the
/// `atexit` hook and the crash handlers are C function pointers that cannot capture an
/// instance, and curses itself has exactly one screen per process.
private let cursesActive = Atomic<Bool>(false)

/// Previous handlers of the crash signals, indexed by signal number, so the crash handler can
/// hand the signal on (to the Swift runtime's backtracer, or the default action). A raw
/// buffer, allocated once, because a signal handler must not touch Swift collections.
nonisolated(unsafe) private var previousCrashActions: UnsafeMutablePointer<sigaction>? = nil

/// The one place that puts the terminal back the way the shell expects it (`endwin`: cooked
/// mode, echo, cursor visible, mouse reporting off, main screen), whatever way the process
/// ends.
///
/// Restoring also replays what `StderrCapture` held back while curses owned the screen.
///
/// - `Terminal.stop()` on the normal path.
/// - `atexit`, for `exit()` called anywhere.
/// - Crash signals (SIGILL/SIGTRAP from a Swift `fatalError` or precondition, SIGABRT,
///   SIGSEGV, SIGBUS, SIGFPE): `atexit` does not run on a trap, and a crash in raw mode with
///   mouse reporting on leaves the shell unusable. The handler restores the terminal, then
///   hands the signal to the previous handler (the Swift runtime's backtracer, or the
///   default action), so the crash report prints on the restored screen. `endwin` is not
///   async-signal-safe; on a crash that risk is accepted.
enum TerminalRestore {
    private static let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Marks curses as active; registers the exit and crash hooks the first time.
    static func cursesDidStart() {
        installHooksOnce
        StderrCapture.begin()
        cursesActive.store(true, ordering: .sequentiallyConsistent)
    }

    /// Calls `endwin` if curses is active. Idempotent and safe from any exit path.
    static func restore() {
        if cursesActive.exchange(false, ordering: .sequentiallyConsistent) {
            endwin()
            StderrCapture.replay()
        }
    }

    static var isCursesActive: Bool { cursesActive.load(ordering: .sequentiallyConsistent) }

    private static let installHooksOnce: Void = {
        atexit { TerminalRestore.restore() }
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        previous.initialize(repeating: sigaction(), count: Int(NSIG))
        previousCrashActions = previous
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, info, _ in
            TerminalRestore.restore()
            // Hand the signal on with the previous action back in place. A fault (a trap
            // instruction, a bad address) simply recurs when this handler returns, with its
            // real address; a signal that was sent (abort, kill) is sent again.
            if let previous = previousCrashActions {
                sigaction(signal, previous + Int(signal), nil)
            }
            if let info, info.pointee.si_code > 0, signal != SIGTRAP { return }
            raise(signal)
        }
        sigemptyset(&action.sa_mask)
        // SA_ONSTACK: the runtime's alternate signal stack, if any, survives a stack overflow.
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        for signal in crashSignals {
            sigaction(signal, &action, previous + Int(signal))
        }
    }()
}
