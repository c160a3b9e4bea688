#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Decides when `get_wch` failing means the terminal is gone rather than "no key yet".
///
/// `get_wch` answers `ERR` both on a timeout and when reading fails, and curses does not
/// say which. When the terminal disappears without a SIGHUP reaching us (e.g. the pty closed
/// while we ignore it), `read` fails with EIO or returns end-of-file on every call, and a
/// loop that only checks for keys would spin at 100% CPU forever. So a failure counts as a
/// hang-up when errno names a dead device, when the input descriptor reports a hang-up, or
/// when failures keep returning long before the timeout (end-of-file sets no errno).
struct HangupDetector {
    /// Consecutive premature failures taken as a hang-up: enough that stray signals
    /// interrupting a wait never add up to it, few enough to stop a spin within a moment.
    static let prematureFailureLimit = 50

    private(set) var isHungUp = false
    private var prematureFailures = 0

    /// A key, click or resize arrived: the terminal is alive.
    mutating func noteSuccess() {
        prematureFailures = 0
    }

    /// `get_wch` returned `ERR` after `elapsed`, having been asked to wait `timeout` (nil:
    /// forever). `inputHungUp` is whether polling the input descriptor reported
    /// POLLHUP/POLLERR/POLLNVAL.
    mutating func noteFailure(errno error: Int32, inputHungUp: Bool, elapsed: Duration, timeout: Duration?) {
        if inputHungUp || error == EIO || error == ENXIO || error == EBADF {
            isHungUp = true
            return
        }
        // A wait of a few milliseconds (or a poll with timeout 0) legitimately returns at once.
        let premature: Bool
        if error == EINTR {
            premature = false
        } else if let timeout {
            premature = timeout >= .milliseconds(20) && elapsed < timeout / 2
        } else {
            premature = true
        }
        prematureFailures = premature ? prematureFailures + 1 : 0
        if prematureFailures >= Self.prematureFailureLimit { isHungUp = true }
    }
}
