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

/// The descriptor curses draws on (stdout or `/dev/tty`), for the mode switches written
/// around it. A plain global, set before curses is marked active, so a handler reads it safely.
nonisolated(unsafe) private var terminalDescriptor: Int32 = -1

/// The one place that puts the terminal back the way the shell expects it (`endwin`: cooked
/// mode, echo, cursor visible, mouse reporting off, main screen), whatever way the process
/// ends.
///
/// Restoring also switches bracketed paste off again (the terminal would otherwise wrap every
/// later paste into the shell in `ESC [200~` markers) and replays what `StderrCapture` held
/// back while curses owned the screen.
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

    /// Marks curses as active on the terminal open as `terminal` and switches bracketed paste
    /// on; registers the exit and crash hooks the first time.
    static func cursesDidStart(terminal descriptor: Int32) {
        installHooksOnce
        StderrCapture.begin()
        terminalDescriptor = descriptor
        writeToTerminal(BracketedPaste.enable)
        cursesActive.store(true, ordering: .sequentiallyConsistent)
    }

    /// Calls `endwin` if curses is active. Idempotent and safe from any exit path.
    static func restore() {
        if cursesActive.exchange(false, ordering: .sequentiallyConsistent) {
            writeToTerminal(BracketedPaste.disable)
            endwin()
            StderrCapture.replay()
        }
    }

    /// A `StaticString` and `write(2)`: no allocation, so a crash handler may call it.
    private static func writeToTerminal(_ bytes: StaticString) {
        guard terminalDescriptor >= 0 else { return }
        _ = write(terminalDescriptor, bytes.utf8Start, bytes.utf8CodeUnitCount)
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
