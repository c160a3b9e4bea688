#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call with its errno, so callers can word a message ("Permission
/// denied") and tests can tell causes apart.
struct SystemError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    var reason: String { String(cString: strerror(code)) }
    var description: String { "\(operation): \(reason)" }
}
