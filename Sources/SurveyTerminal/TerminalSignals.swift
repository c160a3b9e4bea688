#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The last termination signal received (SIGTERM, SIGHUP or SIGINT), 0 while none has.
///
/// A signal handler may only do async-signal-safe work, so it stores the signal number in
/// this lock-free atomic and returns; the app loop reads it between events and quits
/// through its normal path (saving, then `Terminal.stop()`). It is global because a C
/// signal handler cannot capture a `Terminal` instance.
private let receivedTerminationSignal = Atomic<Int32>(0)

/// Installs the handlers that turn "please quit" signals into a flag.
///
/// SIGHUP arrives when the terminal window is closed; SIGTERM from `kill` or a shutdown;
/// SIGINT only from `kill -INT`, since in `raw()` mode Ctrl-C arrives as a key. The handlers
/// are installed without `SA_RESTART`, so a `get_wch` blocked in `read` returns early and
/// the loop notices the flag at once instead of after its timeout. Installing them before
/// `initscr` also stops ncurses from putting in its own SIGINT/SIGTERM handlers, which would
/// call `endwin` and `exit` from inside the signal and skip saving.
enum TerminalSignals {
    static let terminationSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT]

    static func installTerminationHandlers() {
        // Touch the atomic now, so its lazy initialisation never runs inside a handler.
        _ = receivedTerminationSignal.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            receivedTerminationSignal.store(signal, ordering: .relaxed)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        for signal in terminationSignals {
            sigaction(signal, &action, nil)
        }
    }

    /// The signal that asked us to quit, if any.
    static var terminationSignal: Int32? {
        let signal = receivedTerminationSignal.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }
}
