import COpenSSL
import FoundationEssentials
import SurveyValues

/// The data manager's RSA private key, read from a PEM file: PKCS#1 (`BEGIN RSA PRIVATE
/// KEY`, what `openssl genrsa` and ODK's guide make), PKCS#8 (`BEGIN PRIVATE KEY`), or
/// either protected by a passphrase (`BEGIN ENCRYPTED PRIVATE KEY`, or PKCS#1 with
/// `Proc-Type: 4,ENCRYPTED`). OpenSSL's PEM reader does the parsing and the decryption.
///
/// The passphrase is handed to OpenSSL through a callback that never prompts: OpenSSL's
/// default would read the terminal itself, behind the command's back.
public final class RSAPrivateKey: @unchecked Sendable {
    /// Owned; OpenSSL's RSA operations only read a key, so one may be shared by threads.
    let key: OpaquePointer

    /// A 16384-bit key's PEM is about 13 KB; anything past a mebibyte is not a key.
    static let largestPEM = 1 << 20

    /// The longest passphrase OpenSSL's PEM reader takes (`PEM_BUFSIZE`).
    public static let longestPassphrase = 1024

    init(owning key: OpaquePointer) {
        self.key = key
    }

    /// `pem` read, with `passphrase` when the key is protected (ignored when it is not).
    public convenience init(pem: [UInt8], passphrase: [UInt8]?) throws {
        guard pem.count <= Self.largestPEM else {
            throw CryptoError("the file is \(pem.count) bytes: a private key's PEM is a few kilobytes")
        }
        guard Self.find("-----BEGIN ", in: pem) else {
            throw CryptoError("not a PEM file: a private key starts with -----BEGIN RSA PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----")
        }
        let encrypted = Self.isEncrypted(pem: pem)
        if encrypted, passphrase == nil {
            throw CryptoError("the private key is protected by a passphrase, and none was given")
        }
        let box = PassphraseBox(passphrase)
        OpenSSLErrors.clear()
        let loaded: OpaquePointer? = pem.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return withExtendedLifetime(box) {
                PEM_read_bio_PrivateKey(bio, nil, passphraseCallback, Unmanaged.passUnretained(box).toOpaque())
            }
        }
        guard let loaded else {
            if encrypted {
                OpenSSLErrors.clear()
                throw CryptoError("the passphrase does not open the private key")
            }
            if Self.find("PUBLIC KEY-----", in: pem) || Self.find("CERTIFICATE-----", in: pem) {
                OpenSSLErrors.clear()
                throw CryptoError("the file holds a public key or a certificate, not the private key")
            }
            throw CryptoError.openSSL("not a readable private key: it may be cut short or damaged")
        }
        do {
            try RSAPublicKey.checkRSA(loaded, minimumBits: 0, what: "the private key")
        } catch {
            EVP_PKEY_free(loaded)
            throw error
        }
        self.init(owning: loaded)
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether the PEM is passphrase-protected (PKCS#8 `ENCRYPTED PRIVATE KEY`, or a
    /// traditional key with `Proc-Type: 4,ENCRYPTED`): a command asks for the passphrase
    /// only then.
    public static func isEncrypted(pem: [UInt8]) -> Bool {
        find("-----BEGIN ENCRYPTED PRIVATE KEY-----", in: pem) || find("Proc-Type: 4,ENCRYPTED", in: pem)
    }

    public var bits: Int { Int(EVP_PKEY_get_bits(key)) }

    /// The matching public key (the one a form's `public_key` must hold).
    public var publicKey: RSAPublicKey {
        get throws { try RSAPublicKey(derUnchecked: RSAPublicKey.subjectPublicKeyInfo(of: key)) }
    }

    /// RSA-OAEP (SHA-256, MGF1 SHA-256) decryption.
    func decrypt(_ ciphertext: [UInt8]) throws -> [UInt8] {
        try RSAOAEP.decrypt(ciphertext, with: key)
    }

    private static func find(_ needle: String, in bytes: [UInt8]) -> Bool {
        let pattern = Array(needle.utf8)
        guard pattern.count <= bytes.count, let first = pattern.first else { return false }
        var i = 0
        while i + pattern.count <= bytes.count {
            if bytes[i] == first, bytes[i..<i + pattern.count].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }
}

/// The passphrase OpenSSL's callback copies out; nil when none was given.
private final class PassphraseBox {
    let bytes: [UInt8]?
    init(_ bytes: [UInt8]?) { self.bytes = bytes }
}

/// OpenSSL's `pem_password_cb`: copies the passphrase given, never asks anyone. -1 (no
/// passphrase, or one longer than OpenSSL's buffer) makes the read fail, which is reported.
private let passphraseCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = { buffer, size, _, context in
    guard let buffer, let context else { return -1 }
    let box = Unmanaged<PassphraseBox>.fromOpaque(context).takeUnretainedValue()
    guard let bytes = box.bytes, bytes.count <= Int(size) else { return -1 }
    for (i, byte) in bytes.enumerated() { buffer[i] = CChar(bitPattern: byte) }
    return Int32(bytes.count)
}

extension RSAPublicKey {
    /// The public half of a private key already checked: any size (a 1024-bit key that
    /// opens old submissions still has a public half to print).
    convenience init(derUnchecked der: [UInt8]) throws {
        try self.init(der: der, minimumBits: 0)
    }
}
