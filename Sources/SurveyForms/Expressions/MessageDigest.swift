import COpenSSL
import FoundationEssentials
import SurveyValues

/// The hashes `digest()` offers (XForms 1.1: MD5, SHA-1, SHA-256, SHA-384, SHA-512), and
/// SHA-256 of a file's bytes, from OpenSSL's libcrypto (EVP): the project never writes a
/// cryptographic primitive by hand (DECISIONS.md, "Cryptography from OpenSSL").
public enum MessageDigest {
    static let algorithms = ["MD5", "SHA-1", "SHA-256", "SHA-384", "SHA-512"]

    /// `data` hashed with the algorithm XForms names (`SHA-256`, or `SHA256`, any case);
    /// nil for a name it does not offer, or one this system's OpenSSL refuses (MD5 under a
    /// FIPS-only configuration): the form then says so when it is checked, never crashes.
    static func hash(_ data: [UInt8], algorithm: String) -> [UInt8]? {
        guard let digest = evp(algorithm) else { return nil }
        return data.withUnsafeBytes { hash($0, with: digest) }
    }

    /// The SHA-256 of `bytes`, in lowercase hex: PostgreSQL's `encode(sha256(b), 'hex')`.
    /// SHA-256 is in every OpenSSL configuration (FIPS's too): it fails only when memory
    /// does, which traps as any allocation failure does.
    public static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let hash = hash(bytes, with: EVP_sha256()) else {
            preconditionFailure("OpenSSL's SHA-256 failed: \(lastError)")
        }
        return hash.map { String(printf: "%02x", $0) }.joined()
    }

    public static func sha256Hex(_ data: Data) -> String {
        data.withUnsafeBytes { sha256Hex($0) }
    }

    private static func evp(_ name: String) -> OpaquePointer? {
        switch name.uppercased() {
        case "MD5": return EVP_md5()
        case "SHA-1", "SHA1": return EVP_sha1()
        case "SHA-256", "SHA256": return EVP_sha256()
        case "SHA-384", "SHA384": return EVP_sha384()
        case "SHA-512", "SHA512": return EVP_sha512()
        default: return nil
        }
    }

    /// One-shot `EVP_Digest`; nil when libcrypto cannot allocate or its provider refuses the
    /// algorithm (a FIPS-only configuration refusing MD5), never a wrong hash that looks right.
    private static func hash(_ bytes: UnsafeRawBufferPointer, with digest: OpaquePointer?) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer { out in
            EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, digest, nil)
        }
        guard ok == 1 else {
            ERR_clear_error()
            return nil
        }
        return Array(out.prefix(Int(length)))
    }

    private static var lastError: String {
        ERR_reason_error_string(ERR_get_error()).map { String(cString: $0) } ?? "no reason given"
    }
}
