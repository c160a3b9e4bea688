import CNcurses
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Holds back what is written to stderr while curses owns the screen, and replays it on the
/// restored screen afterwards.
///
/// Two reasons: a stray write to stderr (a library warning, a debug print) would land on
/// top of the curses screen and stay there until curses happens to redraw those cells; and
/// a Swift `fatalError` prints its message just before trapping, i.e. onto the alternate
/// screen that `endwin` is about to throw away, so the crash report would lose its reason.
/// Only a terminal is captured: when stderr goes to a file or pipe, writes go straight there.
///
/// The capture is an unlinked temporary file, not a pipe, so a writer can never block on a
/// full buffer. `replay()` uses only async-signal-safe calls (dup2, lseek, read, write,
/// close) and a buffer allocated in `begin()`, because the crash handler calls it.
enum StderrCapture {
    /// Call just before curses takes the screen.
    static func begin() {
        guard savedStderr < 0, isatty(STDERR_FILENO) == 1, let file = tmpfile() else { return }
        let capture = dup(fileno(file))
        fclose(file)
        guard capture >= 0 else { return }
        if replayBuffer == nil { replayBuffer = .allocate(byteCount: bufferSize, alignment: 1) }
        fflush(shim_stderr())
        savedStderr = dup(STDERR_FILENO)
        guard savedStderr >= 0, dup2(capture, STDERR_FILENO) >= 0 else {
            close(capture)
            if savedStderr >= 0 { close(savedStderr) }
            savedStderr = -1
            return
        }
        captureFile = capture
    }

    /// Call right after `endwin`: puts stderr back and writes out what was captured.
    static func replay() {
        guard savedStderr >= 0 else { return }
        dup2(savedStderr, STDERR_FILENO)
        close(savedStderr)
        savedStderr = -1
        if let buffer = replayBuffer, lseek(captureFile, 0, SEEK_SET) == 0 {
            while true {
                let count = read(captureFile, buffer, bufferSize)
                guard count > 0 else { break }
                var written = 0
                while written < count {
                    let n = write(STDERR_FILENO, buffer + written, count - written)
                    guard n > 0 else { break }
                    written += n
                }
                if written < count { break }
            }
        }
        close(captureFile)
        captureFile = -1
    }

    /// Computed, so reading it in a signal handler runs no lazy initialiser.
    private static var bufferSize: Int { 4096 }
}

// Plain globals (not statics) so the signal handler never triggers a lazy initialiser;
// only `begin()` and `replay()` touch them, serialised by `TerminalRestore`.
nonisolated(unsafe) private var savedStderr: Int32 = -1
nonisolated(unsafe) private var captureFile: Int32 = -1
nonisolated(unsafe) private var replayBuffer: UnsafeMutableRawPointer? = nil
