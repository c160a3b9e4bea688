#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How background work tells the terminal's loop that a result is waiting (Bubble Tea's
/// messages; the self-pipe of classic Unix event loops): a pipe made once (close-on-exec,
/// non-blocking), whose read end the
/// loop polls beside the terminal's input. The loader, the index builder, the background
/// writer and the document counter each write a byte when they leave a result; the loop wakes,
/// drains the pipe (`drain`) and takes every result in. With nothing running it blocks on the
/// terminal alone, with no timeout.
///
/// Writing is one `write(2)` on a non-blocking descriptor: safe from any thread and from a
/// signal handler. A full pipe already holds a wake-up, so the byte that does not fit is not
/// needed.
public final class WakeSignal: Sendable {
    /// Readable while a wake-up is waiting: poll it for `POLLIN`. -1 when no pipe could be
    /// made (out of descriptors): the loop then looks in on a timer instead.
    public let descriptor: Int32
    /// The end background work writes to.
    public let writeDescriptor: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        // pipe2 is not in Swift's Glibc module: the flags are set right after, before any
        // thread or child process could see the descriptors.
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
            descriptor = ends[0]
            writeDescriptor = ends[1]
        } else {
            descriptor = -1
            writeDescriptor = -1
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    /// Whether there is a descriptor to poll.
    public var isAvailable: Bool { descriptor >= 0 }

    /// Wakes the loop (or makes its next wait return at once).
    public func signal() {
        guard writeDescriptor >= 0 else { return }
        var byte: UInt8 = 1
        while write(writeDescriptor, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Empties the pipe, before the results are taken: a result left after this wakes the
    /// loop again.
    public func drain() {
        guard descriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            return
        }
    }

    /// Whether a wake-up is waiting, without waiting (tests).
    public func isSignalled(waitingMilliseconds timeout: Int32 = 0) -> Bool {
        guard descriptor >= 0 else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, timeout) > 0 && entry.revents & Int16(POLLIN) != 0
    }
}
