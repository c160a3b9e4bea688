import COpenSSL
import SurveyValues

/// What went wrong in encrypting or decrypting, in words a data manager can act on. Every
/// OpenSSL failure becomes one (never a crash, never a silent wrong result): the message
/// says what could not be done and, where it helps, OpenSSL's own reason in parentheses.
public struct CryptoError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// `message`, followed by the reasons OpenSSL queued for the call that just failed
    /// (`bad decrypt`, `wrong tag`…). The queue is emptied, so a later failure never reports
    /// an earlier one's reason.
    static func openSSL(_ message: String) -> CryptoError {
        let reasons = OpenSSLErrors.drain()
        return CryptoError(reasons.isEmpty ? message : message + " (OpenSSL: " + reasons.joined(separator: "; ") + ")")
    }
}

/// OpenSSL's per-thread error queue, read and emptied.
enum OpenSSLErrors {
    /// The reasons queued since the last drain, oldest first, each once; the queue is left
    /// empty. A code without a reason string shows as its library and number.
    static func drain() -> [String] {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(code)"
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        return reasons
    }

    /// Forget whatever an earlier call left queued, before a call whose failure we report.
    static func clear() {
        ERR_clear_error()
    }
}
