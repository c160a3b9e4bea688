import COpenSSL
import SurveyValues

/// MD5 through OpenSSL's EVP, for ODK's encrypted submissions only: Collect derives each
/// file's IV from MD5(instanceID ‖ key) and signs MD5 of the manifest's fields and each
/// file's MD5 in hex. MD5 is ODK's choice and is kept for compatibility; it protects
/// nothing here that an attacker could not forge anyway (see `ODKElementSignature`).
/// Kept beside the rest of the crypto rather than borrowed from the expressions' `digest()`,
/// so this folder depends on nothing but Foundation and OpenSSL.
enum CryptoDigest {
    static func md5(_ bytes: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        OpenSSLErrors.clear()
        let ok = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_md5(), nil)
            }
        }
        // A FIPS-only OpenSSL refuses MD5: ODK's format cannot be read or written there.
        guard ok == 1 else { throw CryptoError.openSSL("this system's OpenSSL refuses MD5, which ODK's encrypted submissions need") }
        return Array(out.prefix(Int(length)))
    }

    /// Lowercase hex, two digits a byte: Collect's `FileUtils.getMd5Hash`, zero-padded to 32.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
