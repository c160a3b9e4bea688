import COpenSSL
import SurveyValues

/// Random bytes from OpenSSL's CSPRNG (`RAND_bytes`, seeded by the kernel): the AES key of
/// each encrypted submission and the salt of a passphrase-protected private key. Never
/// Swift's `SystemRandomNumberGenerator` for keys, so every secret comes from one audited
/// source.
enum SecureRandom {
    static func bytes(_ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        OpenSSLErrors.clear()
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard ok == 1 else { throw CryptoError.openSSL("OpenSSL could not give \(count) random bytes") }
        return out
    }
}
