import COpenSSL
import FoundationEssentials
import SurveyValues

/// An RSA public key as XLSForm's `public_key` setting carries it: base64 of the DER
/// SubjectPublicKeyInfo, without PEM armour, on one line (what `openssl rsa -pubout` prints
/// between its BEGIN and END lines, joined). Collect reads it with Java's
/// `X509EncodedKeySpec`; OpenSSL's `d2i_PUBKEY` reads the same bytes.
///
/// Keys under 2048 bits are refused: ODK's guide has always said 2048, NIST retired
/// smaller RSA keys in 2013, and a form's key protects every survey keyed with it for years.
public final class RSAPublicKey: @unchecked Sendable {
    /// Owned; OpenSSL's RSA operations only read a key, so one may be shared by threads.
    let key: OpaquePointer
    public static let minimumBits = 2048

    /// A form's `public_key`. Blanks and line breaks (a key pasted across lines) are
    /// ignored; anything else that is not one RSA key of 2048 bits or more is refused with
    /// the reason.
    public convenience init(base64 text: String) throws {
        let compact = String(text.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
        guard !compact.isEmpty else { throw CryptoError("public_key is empty") }
        if compact.contains("-----") {
            throw CryptoError("public_key holds PEM armour (-----BEGIN PUBLIC KEY-----): give only the base64 between the BEGIN and END lines, joined on one line")
        }
        guard let der = Data(base64Encoded: compact) else {
            throw CryptoError("public_key is not base64 (only A–Z, a–z, 0–9, +, / and = padding): it may be cut short or mistyped")
        }
        try self.init(der: Array(der))
    }

    /// DER SubjectPublicKeyInfo; every byte must belong to the one key.
    public convenience init(der: [UInt8]) throws {
        try self.init(der: der, minimumBits: Self.minimumBits)
    }

    init(der: [UInt8], minimumBits: Int) throws {
        OpenSSLErrors.clear()
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let key = d2i_PUBKEY(nil, &cursor, buffer.count)
            if let cursor, let base = buffer.baseAddress { consumed = cursor - base }
            return key
        }
        guard let parsed else {
            throw CryptoError.openSSL("public_key is not an RSA public key (base64 of a SubjectPublicKeyInfo, \(der.count) bytes here): it may be cut short or mistyped")
        }
        guard consumed == der.count else {
            EVP_PKEY_free(parsed)
            throw CryptoError("public_key has \(der.count - consumed) bytes after the key: it is not one key")
        }
        do {
            try Self.checkRSA(parsed, minimumBits: minimumBits, what: "public_key")
        } catch {
            EVP_PKEY_free(parsed)
            throw error
        }
        key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    /// The key's size in bits (2048, 3072, 4096…).
    public var bits: Int { Int(EVP_PKEY_get_bits(key)) }

    /// DER SubjectPublicKeyInfo.
    public var der: [UInt8] { Self.subjectPublicKeyInfo(of: key) }

    /// The key as `public_key` takes it: base64 DER on one line.
    public var base64: String { Data(der).base64EncodedString() }

    /// RSA-OAEP (SHA-256, MGF1 SHA-256) of a short secret: an AES key, a signature digest.
    func encrypt(_ plaintext: [UInt8]) throws -> [UInt8] {
        try RSAOAEP.encrypt(plaintext, with: key)
    }

    /// The public half of any key (`i2d_PUBKEY` writes only the public part of a private key).
    static func subjectPublicKeyInfo(of key: OpaquePointer) -> [UInt8] {
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: Int(length))
        out.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_PUBKEY(key, &cursor)
        }
        return out
    }

    /// An RSA key (not RSA-PSS, which cannot do OAEP; not EC) of at least `minimumBits`.
    static func checkRSA(_ key: OpaquePointer, minimumBits: Int, what: String) throws {
        let type = EVP_PKEY_get_base_id(key)
        guard type == EVP_PKEY_RSA else {
            let name = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "non-RSA"
            throw CryptoError("\(what) holds a key of type \(name): ODK's encryption needs RSA")
        }
        let bits = Int(EVP_PKEY_get_bits(key))
        guard bits >= minimumBits else {
            throw CryptoError("\(what) is a \(bits)-bit RSA key: survey needs \(minimumBits) bits or more (survey keys new makes one)")
        }
    }
}
