import COpenSSL
import SurveyValues

/// AES-256 in CFB mode with 128-bit feedback, after PKCS#7 padding to whole 16-byte blocks:
/// Java's `AES/CFB/PKCS5Padding`, how Collect encrypts each file of a submission. CFB is a
/// stream mode, so OpenSSL's EVP pads nothing for it (its block size there is 1); the
/// padding Java adds anyway is added and checked here, and only the padding: the cipher is
/// OpenSSL's (`EVP_aes_256_cfb128`).
enum AESCFB {
    static let keyLength = 32
    static let blockLength = 16
    /// Fed to OpenSSL a mebibyte at a time: its lengths are `Int32`, a video is not.
    private static let chunk = 1 << 20

    static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        let padding = blockLength - plaintext.count % blockLength
        return try run(plaintext + [UInt8](repeating: UInt8(padding), count: padding), key: key, iv: iv, encrypting: true)
    }

    /// The plaintext, its padding checked and taken off. A length that is not whole blocks
    /// is a file cut short; padding that is not PKCS#7 a file changed, or another key.
    static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % blockLength == 0 else {
            throw CryptoError("its \(ciphertext.count) bytes are not whole 16-byte blocks: the file is cut short or damaged")
        }
        var plaintext = try run(ciphertext, key: key, iv: iv, encrypting: false)
        let padding = Int(plaintext[plaintext.count - 1])
        guard padding >= 1, padding <= blockLength,
              plaintext[(plaintext.count - padding)...].allSatisfy({ Int($0) == padding }) else {
            throw CryptoError("it does not decrypt to padded data: the file was changed, or belongs to another submission")
        }
        plaintext.removeLast(padding)
        return plaintext
    }

    private static func run(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypting: Bool) throws -> [UInt8] {
        precondition(key.count == keyLength && iv.count == blockLength, "AES-256-CFB takes a 32-byte key and a 16-byte IV")
        OpenSSLErrors.clear()
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL("OpenSSL could not prepare AES") }
        defer { EVP_CIPHER_CTX_free(context) }
        let ready = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                EVP_CipherInit_ex(context, EVP_aes_256_cfb128(), nil, key.baseAddress, iv.baseAddress, encrypting ? 1 : 0)
            }
        }
        guard ready == 1 else { throw CryptoError.openSSL("OpenSSL could not set up AES-256-CFB") }
        // CFB writes exactly as many bytes as it reads; the final call adds none.
        var output = [UInt8](repeating: 0, count: input.count)
        var written = 0
        let ok = input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                var offset = 0
                while offset < input.count {
                    let length = min(chunk, input.count - offset)
                    var out: Int32 = 0
                    guard EVP_CipherUpdate(context, output.baseAddress! + written, &out, input.baseAddress! + offset, Int32(length)) == 1 else { return false }
                    written += Int(out)
                    offset += length
                }
                var out: Int32 = 0
                guard EVP_CipherFinal_ex(context, output.baseAddress! + written, &out) == 1 else { return false }
                written += Int(out)
                return true
            }
        }
        guard ok, written == input.count else { throw CryptoError.openSSL("AES-256-CFB failed") }
        return output
    }
}
