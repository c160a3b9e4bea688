import COpenSSL
import SurveyValues

/// RSA-OAEP as ODK uses it (Java's `RSA/NONE/OAEPWithSHA256AndMGF1Padding` under
/// BouncyCastle): SHA-256 as the label hash *and* as MGF1's hash, empty label. Java's own
/// provider would take MGF1 with SHA-1 for the same name; Collect and Briefcase run
/// BouncyCastle, and ODK's published test vector opens only with MGF1-SHA-256, so that is
/// what both directions use. Through `EVP_PKEY_CTX`, so OpenSSL does all of it.
enum RSAOAEP {
    static func encrypt(_ plaintext: [UInt8], with key: OpaquePointer) throws -> [UInt8] {
        try run(plaintext, with: key, encrypting: true)
    }

    static func decrypt(_ ciphertext: [UInt8], with key: OpaquePointer) throws -> [UInt8] {
        try run(ciphertext, with: key, encrypting: false)
    }

    private static func run(_ input: [UInt8], with key: OpaquePointer, encrypting: Bool) throws -> [UInt8] {
        OpenSSLErrors.clear()
        let action = encrypting ? "encrypt" : "decrypt"
        guard let context = EVP_PKEY_CTX_new(key, nil) else {
            throw CryptoError.openSSL("OpenSSL could not prepare RSA to \(action)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard (encrypting ? EVP_PKEY_encrypt_init(context) : EVP_PKEY_decrypt_init(context)) == 1,
              EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) == 1,
              EVP_PKEY_CTX_set_rsa_oaep_md(context, EVP_sha256()) == 1,
              EVP_PKEY_CTX_set_rsa_mgf1_md(context, EVP_sha256()) == 1 else {
            throw CryptoError.openSSL("OpenSSL could not set up RSA-OAEP (SHA-256, MGF1 SHA-256) to \(action)")
        }
        var length = 0
        let sized = input.withUnsafeBufferPointer { input in
            encrypting ? EVP_PKEY_encrypt(context, nil, &length, input.baseAddress, input.count)
                : EVP_PKEY_decrypt(context, nil, &length, input.baseAddress, input.count)
        }
        guard sized == 1 else { throw CryptoError.openSSL("RSA-OAEP could not \(action) \(input.count) bytes") }
        var output = [UInt8](repeating: 0, count: length)
        let done = input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                encrypting ? EVP_PKEY_encrypt(context, output.baseAddress, &length, input.baseAddress, input.count)
                    : EVP_PKEY_decrypt(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard done == 1 else {
            // Decryption fails the same way for the wrong key and for changed bytes: OAEP
            // cannot tell them apart, and must not (a padding oracle).
            throw CryptoError.openSSL(encrypting ? "RSA-OAEP could not encrypt \(input.count) bytes"
                                      : "RSA-OAEP decryption failed: the data was made for another key, or was changed")
        }
        return Array(output.prefix(length))
    }
}
