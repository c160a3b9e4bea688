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

/// The descriptor a signal handler writes a byte to, so the app loop blocked in `poll` wakes
/// at once (the runtime's `WakeSignal`); -1 while there is none.
private let wakeDescriptor = Atomic<Int32>(-1)

/// ncurses' own SIGWINCH handler, called first by ours (see `wakeOnResize`). Written once,
/// before ours is installed; only read inside the handler after that. On the heap, not a
/// global `sigaction`: the static release build gave such a global 148 bytes where the struct
/// has 152, and writing it set the termination flag laid out after it (to 32767), so the
/// shipped binary quit right after its first frame.
nonisolated(unsafe) private let cursesResizeAction: UnsafeMutablePointer<sigaction> = {
    let action = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
    action.initialize(to: sigaction())
    return action
}()

/// Writes one byte to the wake descriptor: `write(2)` is async-signal-safe.
private func wakeLoop() {
    let descriptor = wakeDescriptor.load(ordering: .relaxed)
    guard descriptor >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(descriptor, &byte, 1)
}

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
        _ = wakeDescriptor.load(ordering: .relaxed)
        action.__sigaction_handler.sa_handler = { signal in
            receivedTerminationSignal.store(signal, ordering: .relaxed)
            wakeLoop()
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        for signal in terminationSignals {
            sigaction(signal, &action, nil)
        }
    }

    /// From now on the termination signals and SIGWINCH also write a byte to `descriptor`
    /// (-1: no longer), so a loop blocked in `poll` with no timeout notices them at once
    /// even when they arrive just before it blocks.
    static func wake(through descriptor: Int32) {
        wakeDescriptor.store(descriptor, ordering: .relaxed)
    }

    /// Puts our SIGWINCH handler in front of ncurses' (installed by `newterm`): it calls
    /// ncurses' handler, which notes the resize for the next read (`KEY_RESIZE`), then wakes
    /// the loop. Without it a resize arriving between the loop's last read and its `poll`
    /// would wait for the next key. Once per process, after `newterm`.
    static func wakeOnResize() {
        var current = sigaction()
        // A handler taking siginfo cannot be called without it: leave it alone.
        guard sigaction(SIGWINCH, nil, &current) == 0, current.sa_flags & SA_SIGINFO == 0 else { return }
        cursesResizeAction.pointee = current
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let curses = cursesResizeAction.pointee
            if let handler = curses.__sigaction_handler.sa_handler,
               unsafeBitCast(handler, to: Int.self) > 1 {   // not SIG_DFL (0) or SIG_IGN (1)
                handler(signal)
            }
            wakeLoop()
        }
        action.sa_mask = current.sa_mask
        action.sa_flags = current.sa_flags
        sigaction(SIGWINCH, &action, nil)
    }

    /// The signal that asked us to quit, if any.
    static var terminationSignal: Int32? {
        let signal = receivedTerminationSignal.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }
}
