import COpenSSL
import FoundationEssentials

/// The hashes `digest()` offers (XForms 1.1: MD5, SHA-1, SHA-256, SHA-384, SHA-512), and
/// SHA-256 of a file's bytes, from OpenSSL's libcrypto (EVP): the project never writes a
/// cryptographic primitive by hand (DECISIONS.md, "Cryptography from OpenSSL").
public enum MessageDigest {
    static let algorithms = ["MD5", "SHA-1", "SHA-256", "SHA-384", "SHA-512"]

    /// `data` hashed with the algorithm XForms names (`SHA-256`, or `SHA256`, any case);
    /// nil for a name it does not offer.
    static func hash(_ data: [UInt8], algorithm: String) -> [UInt8]? {
        guard let digest = evp(algorithm) else { return nil }
        return data.withUnsafeBytes { hash($0, with: digest) }
    }

    /// The SHA-256 of `bytes`, in lowercase hex: PostgreSQL's `encode(sha256(b), 'hex')`.
    public static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
        hash(bytes, with: EVP_sha256()).map { String(printf: "%02x", $0) }.joined()
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

    /// One-shot `EVP_Digest`. It fails only when libcrypto cannot allocate or its provider
    /// refuses the algorithm (a FIPS-only configuration refusing MD5): then a trap, as for
    /// any allocation failure, rather than a wrong hash that looks right.
    private static func hash(_ bytes: UnsafeRawBufferPointer, with digest: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer { out in
            EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, digest, nil)
        }
        precondition(ok == 1, "OpenSSL's EVP_Digest failed (\(ERR_reason_error_string(ERR_get_error()).map { String(cString: $0) } ?? "no reason"))")
        return Array(out.prefix(Int(length)))
    }
}
