import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Keys: what `survey keys new` makes opens in Python's `cryptography` with the passphrase
/// (and only with it), its public half is the one survey prints, and every PEM a data
/// manager may hold (PKCS#1 or PKCS#8, plain or passphrase-protected, as Python writes them)
/// loads here; anything else is refused with a reason.
final class RSAKeyTests: TemporaryFolderTestCase {
    private let passphrase = Array("correct horse battery".utf8)

    func testANewKeyOpensInPythonWithItsPassphraseOnly() throws {
        let key = try RSAPrivateKey.generate()
        XCTAssertEqual(key.bits, 2048)
        let pem = try key.encryptedPEM(passphrase: passphrase)
        let text = String(decoding: pem, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"), text)
        XCTAssertTrue(RSAPrivateKey.isEncrypted(pem: pem))
        let file = folder.appendingPathComponent("key.pem")
        try Data(pem).write(to: file)
        let output = try TestSupport.python(#"""
        import base64, sys
        from cryptography.hazmat.primitives import serialization
        data = open(sys.argv[1], "rb").read()
        key = serialization.load_pem_private_key(data, sys.argv[2].encode())
        der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        print(key.key_size, base64.b64encode(der).decode())
        for wrong in [b"correct horse battery ", b"", None]:
            try:
                serialization.load_pem_private_key(data, wrong)
                print("opened with", wrong)
            except (ValueError, TypeError):
                pass
        """#, [file.path, "correct horse battery"])
        XCTAssertEqual(output, "2048 \(try key.publicKey.base64)\n", "Python opens it with the passphrase alone")

        let again = try RSAPrivateKey(pem: pem, passphrase: passphrase)
        XCTAssertEqual(try again.publicKey.base64, try key.publicKey.base64)
        XCTAssertThrowsError(try RSAPrivateKey(pem: pem, passphrase: Array("correct horse".utf8))) {
            XCTAssertEqual(($0 as? CryptoError)?.message, "the passphrase does not open the private key")
        }
        XCTAssertThrowsError(try RSAPrivateKey(pem: pem, passphrase: nil)) {
            XCTAssertEqual(($0 as? CryptoError)?.message, "the private key is protected by a passphrase, and none was given")
        }
    }

    /// PBES2 with PBKDF2-HMAC-SHA256, 600,000 rounds, a 16-byte salt, AES-256-CBC, as
    /// `openssl asn1parse` reads the file (OpenSSL's own default would be 2048 rounds).
    func testThePassphraseProtectionIsPBKDF2WithManyRounds() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { throw XCTSkip("no openssl command") }
        let file = folder.appendingPathComponent("key.pem")
        try Data(try RSAPrivateKey.generate().encryptedPEM(passphrase: passphrase)).write(to: file)
        let parsed = try ChildProcess.run(["/usr/bin/openssl", "asn1parse", "-in", file.path])
        XCTAssertEqual(parsed.status, 0, parsed.errors)
        for part in [":PBES2", ":PBKDF2", ":hmacWithSHA256", ":aes-256-cbc", "INTEGER           :0927C0", "OCTET STRING      [HEX DUMP]:"] {
            XCTAssertTrue(parsed.output.contains(part), "asn1parse lacks \(part):\n\(parsed.output)")
        }
        let salt = try XCTUnwrap(parsed.output.split(separator: "\n").first { $0.contains("[HEX DUMP]") })
        XCTAssertEqual(salt.split(separator: ":").last?.count, 32, "a 16-byte salt: \(salt)")
    }

    func testEveryPEMShapePythonWritesLoads() throws {
        let output = try TestSupport.python(#"""
        import base64, json, sys
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa
        key = rsa.generate_private_key(public_exponent=65537, key_size=3072)
        P, F, E = serialization.PrivateFormat, serialization.Encoding.PEM, serialization
        shapes = {
            "pkcs1": key.private_bytes(F, P.TraditionalOpenSSL, E.NoEncryption()),
            "pkcs8": key.private_bytes(F, P.PKCS8, E.NoEncryption()),
            "pkcs8-encrypted": key.private_bytes(F, P.PKCS8, E.BestAvailableEncryption(b"s3cret passphrase")),
            "pkcs1-encrypted": key.private_bytes(F, P.TraditionalOpenSSL, E.BestAvailableEncryption(b"s3cret passphrase")),
        }
        der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        print(json.dumps({"public": base64.b64encode(der).decode(), "pems": {k: v.decode() for k, v in shapes.items()}}))
        """#)
        struct Shapes: Decodable { let `public`: String; let pems: [String: String] }
        let shapes = try JSONDecoder().decode(Shapes.self, from: Data(output.utf8))
        XCTAssertEqual(shapes.pems.count, 4)
        for (shape, pem) in shapes.pems {
            let encrypted = shape.hasSuffix("encrypted")
            XCTAssertEqual(RSAPrivateKey.isEncrypted(pem: Array(pem.utf8)), encrypted, shape)
            let key = try RSAPrivateKey(pem: Array(pem.utf8), passphrase: encrypted ? Array("s3cret passphrase".utf8) : nil)
            XCTAssertEqual(key.bits, 3072, shape)
            XCTAssertEqual(try key.publicKey.base64, shapes.public, shape)
            if encrypted {
                XCTAssertThrowsError(try RSAPrivateKey(pem: Array(pem.utf8), passphrase: Array("s3cret".utf8)), shape) {
                    XCTAssertEqual(($0 as? CryptoError)?.message, "the passphrase does not open the private key", shape)
                }
            }
        }
    }

    func testWhatIsNotAnRSAPrivateKeyIsRefusedWithTheReason() throws {
        let output = try TestSupport.python(#"""
        import json
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
        F, P, E = serialization.Encoding.PEM, serialization.PrivateFormat, serialization.NoEncryption()
        r = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        print(json.dumps({
            "ec": ec.generate_private_key(ec.SECP256R1()).private_bytes(F, P.PKCS8, E).decode(),
            "public": r.public_key().public_bytes(F, serialization.PublicFormat.SubjectPublicKeyInfo).decode(),
            "rsa": r.private_bytes(F, P.TraditionalOpenSSL, E).decode(),
        }))
        """#)
        let pems = try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
        let rsa = try XCTUnwrap(pems["rsa"])
        let cases: [(String, String)] = [
            ("", "not a PEM file: a private key starts with -----BEGIN RSA PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----"),
            ("MIIEowIBAAKCAQEA8RDc", "not a PEM file: a private key starts with -----BEGIN RSA PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----"),
            (try XCTUnwrap(pems["public"]), "the file holds a public key or a certificate, not the private key"),
            (try XCTUnwrap(pems["ec"]), "the private key holds a key of type EC: ODK's encryption needs RSA"),
        ]
        for (pem, message) in cases {
            XCTAssertThrowsError(try RSAPrivateKey(pem: Array(pem.utf8), passphrase: nil), message) {
                XCTAssertEqual(($0 as? CryptoError)?.message, message)
            }
        }
        // Cut short: the base64 stops half way, the END line is gone.
        let cut = String(rsa.prefix(rsa.count / 2))
        XCTAssertThrowsError(try RSAPrivateKey(pem: Array(cut.utf8), passphrase: nil)) {
            XCTAssertTrue(($0 as? CryptoError)?.message.hasPrefix("not a readable private key: it may be cut short or damaged") == true, "\($0)")
        }
        XCTAssertNoThrow(try RSAPrivateKey(pem: Array(rsa.utf8), passphrase: nil))
        let huge = Array(rsa.utf8) + [UInt8](repeating: 0x0A, count: 1 << 20)
        XCTAssertThrowsError(try RSAPrivateKey(pem: huge, passphrase: nil)) {
            XCTAssertEqual(($0 as? CryptoError)?.message, "the file is \(huge.count) bytes: a private key's PEM is a few kilobytes")
        }
    }

    func testKeySizesOutsideTwoThousandToSixteenThousandAreRefused() {
        for bits in [1024, 2047, 16385] {
            XCTAssertThrowsError(try RSAPrivateKey.generate(bits: bits)) {
                XCTAssertEqual(($0 as? CryptoError)?.message,
                               "an RSA key of \(bits) bits: give 2048 to 16384 (2048 is ODK's, 3072 or 4096 last longer)")
            }
        }
    }

    func testAnEmptyOrOverlongPassphraseIsRefused() throws {
        let key = try RSAPrivateKey.generate()
        XCTAssertThrowsError(try key.encryptedPEM(passphrase: [])) {
            XCTAssertEqual(($0 as? CryptoError)?.message, "an empty passphrase protects nothing")
        }
        XCTAssertThrowsError(try key.encryptedPEM(passphrase: [UInt8](repeating: 65, count: 1025)))
        // The longest OpenSSL's reader takes is written and read back.
        let longest = [UInt8](repeating: 65, count: RSAPrivateKey.longestPassphrase)
        XCTAssertEqual(try RSAPrivateKey(pem: try key.encryptedPEM(passphrase: longest), passphrase: longest).publicKey.base64,
                       try key.publicKey.base64)
    }
}
