#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// A failed system call with its errno, so callers can word a message ("Permission
/// denied") and tests can tell causes apart.
struct SystemError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32
    /// What was being attempted, for the person reading the message, before the system's
    /// reason: "it belongs to another user (uid 1000) and cannot be written in place".
    let explanation: String?

    init(_ operation: String, code: Int32 = errno, explanation: String? = nil) {
        self.operation = operation
        self.code = code
        self.explanation = explanation
    }

    var reason: String {
        let system = String(cString: strerror(code))
        return explanation.map { "\($0): \(system)" } ?? system
    }
    var description: String { "\(operation): \(reason)" }
}
