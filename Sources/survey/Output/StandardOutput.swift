import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's stdout and stderr, written with `write(2)` so that a failed write is seen
/// instead of crashing (`FileHandle.write` ends in a `try!`, SIGILL) or vanishing (`print`
/// buffers and drops errors at exit).
///
/// A failure is kept, like C's `ferror`, and reported once by `finish`: a full disk or a
/// closed stdout is an error (exit 1, the reason on stderr), since the output is incomplete
/// and a script must not take it for a success. A broken pipe (`survey list | head -1`) is
/// the reader saying it has seen enough: survey stops writing and ends quietly with the
/// command's own status. After the first failure nothing more is written.
///
/// One per process, as stdout is: commands print through `ShellOutput`, and `main` calls
/// `prepare` first and `finish` last, so no command can forget to check.
enum StandardOutput {
    enum Failure: Equatable {
        case brokenPipe
        case closed
        case error(Int32)
    }

    // The shell commands run on the main thread alone, start to finish; nothing else ever
    // touches these, so Swift 6's isolation checking is waived for them on purpose.
    nonisolated(unsafe) private(set) static var failure: Failure?
    /// stdout was closed when survey started (`>&-`); /dev/null holds its place.
    nonisolated(unsafe) private static var closedAtStart = false
    nonisolated(unsafe) private static var buffer: [UInt8] = []
    /// Lines collect up to this much before a write, so a long table is a few writes.
    private static let bufferLimit = 64 * 1024

    /// Before anything opens a file: a closed fd 0, 1 or 2 gets /dev/null, so the next file
    /// opened (a document, a temporary file) can never become stdout and receive the output.
    /// With `ignoringBrokenPipe` (the shell commands, not the terminal app), SIGPIPE no
    /// longer kills the process: a write returns EPIPE instead, handled here.
    static func prepare(ignoringBrokenPipe: Bool) {
        for (fd, flags) in [(Int32(0), O_RDONLY), (1, O_WRONLY), (2, O_WRONLY)] where fcntl(fd, F_GETFD) == -1 {
            let null = open("/dev/null", flags)
            if null >= 0, null != fd {
                dup2(null, fd)
                close(null)
            }
            if fd == 1 { closedAtStart = true }
        }
        if ignoringBrokenPipe { signal(SIGPIPE, SIG_IGN) }
    }

    static func write(_ text: String) {
        write(Data(text.utf8))
    }

    static func write(_ data: Data) {
        data.withUnsafeBytes { write(bytes: $0) }
    }

    static func write(bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        if closedAtStart {
            failure = .closed
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= bufferLimit { flush() }
    }

    /// Whether more output is still wanted: false once a write failed (a reader gone away,
    /// a full disk), so a streaming command stops reading its document.
    static var isWritable: Bool { failure == nil }

    static func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        if let code = buffer.withUnsafeBytes({ writeAll(1, $0) }) {
            failure = code == EPIPE ? .brokenPipe : .error(code)
        }
    }

    /// stderr: the stdout written so far goes first, so the two stay in order on a
    /// terminal. A failure to write here cannot be reported anywhere, so it is ignored.
    static func writeError(_ text: String) {
        flush()
        _ = Array(text.utf8).withUnsafeBytes { writeAll(2, $0) }
    }

    /// The exit status once stdout is flushed and closed (a file on NFS reports some write
    /// errors only at close): the command's own `status`, or 1 with the reason on stderr
    /// when stdout failed other than by a broken pipe. `done` says the command's work (a
    /// change to a document) was carried out all the same: the message then says so, so a
    /// script's author knows not to run it again.
    static func finish(_ status: Int32, done: Bool = false, failure failed: Int32 = 1) -> Int32 {
        flush()
        if failure == nil, !closedAtStart, close(1) != 0, errno != EINTR {
            failure = errno == EPIPE ? .brokenPipe : .error(errno)
        }
        let reason: String
        switch failure {
        case nil, .brokenPipe: return status
        case .closed: reason = "it is closed"
        case .error(let code): reason = String(cString: strerror(code))
        }
        let note = done && status == 0 ? " (the change was made; only its message was lost)" : ""
        writeError("survey: could not write to standard output: \(reason)\(note)\n")
        return failed
    }

    /// The errno of the first failed `write`, or nil when every byte was written.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var next = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            let written = posixWrite(fd, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            next += written
            left -= written
        }
        return nil
    }
}

/// The C library's `write(2)`, named apart from the methods called `write` here.
private func posixWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, pointer, count) }
