import COpenSSL
import FoundationEssentials
import SurveyValues

/// `survey keys new`: a fresh RSA key pair, and the private key written as PKCS#8 PEM
/// protected by a passphrase.
///
/// The protection is PBES2: AES-256-CBC under a key from PBKDF2-HMAC-SHA256 with a random
/// 16-byte salt and `passphraseIterations` rounds. OpenSSL's own
/// `PEM_write_bio_PKCS8PrivateKey` uses the same scheme with only 2048 rounds, which a GPU
/// tries by the billion; 600,000 is OWASP's figure for PBKDF2-SHA256 (2023) and costs a
/// fraction of a second once per command. scrypt was rejected: Java (and so ODK Briefcase
/// after `openssl pkey` conversion), older OpenSSL and many tools read PBKDF2 only.
extension RSAPrivateKey {
    public static let defaultBits = 2048
    public static let largestBits = 16384
    public static let passphraseIterations: Int32 = 600_000

    /// A new RSA key of `bits` (2048 to 16384); public exponent 65537, OpenSSL's default.
    public static func generate(bits: Int = defaultBits) throws -> RSAPrivateKey {
        guard bits >= RSAPublicKey.minimumBits, bits <= largestBits else {
            throw CryptoError("an RSA key of \(bits) bits: give 2048 to \(largestBits) (2048 is ODK's, 3072 or 4096 last longer)")
        }
        OpenSSLErrors.clear()
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else {
            throw CryptoError.openSSL("OpenSSL could not prepare to make an RSA key")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
              EVP_PKEY_generate(context, &key) == 1, let key else {
            throw CryptoError.openSSL("OpenSSL could not make a \(bits)-bit RSA key")
        }
        return RSAPrivateKey(owning: key)
    }

    /// The key as PEM `ENCRYPTED PRIVATE KEY` (PKCS#8, PBES2 as above). Python's
    /// `cryptography`, `openssl pkey` and Java's BouncyCastle read it with the passphrase.
    public func encryptedPEM(passphrase: [UInt8]) throws -> [UInt8] {
        guard !passphrase.isEmpty else { throw CryptoError("an empty passphrase protects nothing") }
        guard passphrase.count <= Self.longestPassphrase else {
            throw CryptoError("the passphrase is longer than \(Self.longestPassphrase) bytes, more than OpenSSL reads back")
        }
        var salt = try SecureRandom.bytes(16)
        OpenSSLErrors.clear()
        guard let info = EVP_PKEY2PKCS8(key) else { throw CryptoError.openSSL("OpenSSL could not write the private key as PKCS#8") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let algorithm = salt.withUnsafeMutableBufferPointer { salt in
            PKCS5_pbe2_set_iv(EVP_aes_256_cbc(), Self.passphraseIterations, salt.baseAddress, Int32(salt.count), nil, NID_hmacWithSHA256)
        }
        guard let algorithm else { throw CryptoError.openSSL("OpenSSL could not set up AES-256-CBC with PBKDF2") }
        let sealed = passphrase.withUnsafeBufferPointer { pass in
            pass.withMemoryRebound(to: CChar.self) { pass in
                PKCS8_set0_pbe(pass.baseAddress, Int32(pass.count), info, algorithm)
            }
        }
        guard let sealed else {
            X509_ALGOR_free(algorithm)   // not taken over when sealing fails
            throw CryptoError.openSSL("OpenSSL could not encrypt the private key")
        }
        defer { X509_SIG_free(sealed) }
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.openSSL("OpenSSL could not allocate a buffer") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PKCS8(bio, sealed) == 1 else { throw CryptoError.openSSL("OpenSSL could not write the PEM") }
        return Self.contents(of: bio)
    }

    /// Everything written to a memory BIO (`BIO_get_mem_data`, a macro Swift cannot call).
    static func contents(of bio: OpaquePointer) -> [UInt8] {
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }
}
