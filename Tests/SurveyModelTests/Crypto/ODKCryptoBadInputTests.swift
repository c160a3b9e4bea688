import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Bad input, each with a clear message and nothing opened by a name it should not be:
/// a malformed or short `public_key`, another key, a tampered or cut `.enc` file (the
/// signature says so, as Briefcase's `isValidated`), a manifest cut short at any byte, and
/// a manifest naming a path.
final class ODKCryptoBadInputTests: XCTestCase {
    private func fixture(_ name: String) throws -> [UInt8] {
        Array(try TestSupport.fixtureData("odk-crypto/" + name))
    }

    private var fixtureKey: RSAPrivateKey {
        get throws { try RSAPrivateKey(pem: try fixture("encrypted-form-key.pem"), passphrase: nil) }
    }

    private func message(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? CryptoError)?.message ?? "not a CryptoError: \(error)"
        }
    }

    // MARK: public_key

    func testMalformedOrShortPublicKeysAreRefusedWithTheReason() throws {
        let output = try TestSupport.python(#"""
        import base64, json
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
        spki = lambda k: base64.b64encode(k.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).decode()
        print(json.dumps({"ec": spki(ec.generate_private_key(ec.SECP256R1())),
                          "rsa1024": spki(rsa.generate_private_key(public_exponent=65537, key_size=1024)),
                          "rsa2048": spki(rsa.generate_private_key(public_exponent=65537, key_size=2048))}))
        """#)
        let keys = try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
        let good = try XCTUnwrap(keys["rsa2048"])
        let der = try XCTUnwrap(Data(base64Encoded: good))
        let cut = Data(der.prefix(der.count - 30)).base64EncodedString()
        let cases: [(String, String)] = [
            ("", "public_key is empty"),
            ("  \n ", "public_key is empty"),
            ("-----BEGIN PUBLIC KEY-----\n\(good)\n-----END PUBLIC KEY-----",
             "public_key holds PEM armour (-----BEGIN PUBLIC KEY-----): give only the base64 between the BEGIN and END lines, joined on one line"),
            (String(good.dropLast(7)), "public_key is not base64 (only A–Z, a–z, 0–9, +, / and = padding): it may be cut short or mistyped"),
            (good.replacingOccurrences(of: "A", with: "$"), "public_key is not base64 (only A–Z, a–z, 0–9, +, / and = padding): it may be cut short or mistyped"),
            (cut, "public_key is not an RSA public key (base64 of a SubjectPublicKeyInfo, \(der.count - 30) bytes here): it may be cut short or mistyped"),
            ("AAAA", "public_key is not an RSA public key (base64 of a SubjectPublicKeyInfo, 3 bytes here): it may be cut short or mistyped"),
            ((der + Data([0, 0, 0])).base64EncodedString(), "public_key has 3 bytes after the key: it is not one key"),
            (try XCTUnwrap(keys["ec"]), "public_key holds a key of type EC: ODK's encryption needs RSA"),
            (try XCTUnwrap(keys["rsa1024"]), "public_key is a 1024-bit RSA key: survey needs 2048 bits or more (survey keys new makes one)"),
        ]
        for (text, expected) in cases {
            let got = message { try RSAPublicKey(base64: text) }
            // OpenSSL's own reason may follow in parentheses; ours comes first, whole.
            XCTAssertTrue(got?.hasPrefix(expected) == true, "\(text.prefix(40)): \(got ?? "accepted")")
        }
        // Pasted across lines, as a spreadsheet cell may hold it: the same key.
        let wrapped = stride(from: 0, to: good.count, by: 64).map { good.dropFirst($0).prefix(64) }.joined(separator: "\n")
        XCTAssertEqual(try RSAPublicKey(base64: wrapped).base64, good)
    }

    // MARK: the wrong key, tampered and cut files

    /// A submission of several blocks with a photo, encrypted for the fixture's key.
    private func sealed() throws -> (ODKEncryptedSubmission, [String: [UInt8]]) {
        let publicKey = try fixtureKey.publicKey
        let xml = Array(("<data id=\"f\"><name>" + String(repeating: "Guillermo ", count: 20) + "</name></data>").utf8)
        let submission = try ODKSubmissionCrypto.encrypt(formID: "f", version: "3", instanceID: "uuid:1", submissionXML: xml,
                                                         media: [ODKSubmissionFile(name: "photo.jpg", bytes: Array(repeating: 9, count: 100))],
                                                         for: publicKey)
        return (submission, Dictionary(uniqueKeysWithValues: submission.files.map { ($0.name, $0.bytes) }))
    }

    private func open(_ manifest: [UInt8], _ files: [String: [UInt8]], key: RSAPrivateKey? = nil) throws -> ODKDecryptedSubmission {
        try ODKSubmissionCrypto.decrypt(manifestXML: manifest, file: { name in
            guard let bytes = files[name] else { throw CryptoError("no such file") }
            return bytes
        }, with: key ?? fixtureKey)
    }

    func testAnotherPrivateKeySaysSo() throws {
        let (submission, files) = try sealed()
        let other = try RSAPrivateKey.generate()
        XCTAssertEqual(message { try self.open(submission.manifestXML, files, key: other) },
                       "this private key does not open the submission: it was encrypted for another key (or its base64EncryptedKey was changed)")
    }

    func testATamperedFileDecryptsButIsNotValidated() throws {
        let (submission, files) = try sealed()
        XCTAssertEqual(try open(submission.manifestXML, files).signature, .validated)
        var changed = files
        changed["submission.xml.enc"]![20] ^= 0x01   // one bit of the name's text
        let opened = try open(submission.manifestXML, changed)
        XCTAssertEqual(opened.signature, .notValidated("the files do not match the manifest's signature (a file was changed or swapped after encryption, or the manifest's id, version or instanceID was)"))
        XCTAssertFalse(opened.isValidated)
        var photo = files
        photo["photo.jpg.enc"]![3] ^= 0x80
        XCTAssertFalse(try open(submission.manifestXML, photo).isValidated)
        // The manifest's version changed: the same files, another signature source.
        let renumbered = Array(String(decoding: submission.manifestXML, as: UTF8.self)
            .replacingOccurrences(of: "version=\"3\"", with: "version=\"4\"").utf8)
        XCTAssertFalse(try open(renumbered, files).isValidated)
        // The signature itself changed.
        var manifest = submission.manifest
        manifest.base64EncryptedElementSignature = Data(repeating: 1, count: 256).base64EncodedString()
        XCTAssertEqual(try open(manifest.xml, files).signature,
                       .notValidated("its base64EncryptedElementSignature does not decrypt with this key (it was changed)"))
        manifest.base64EncryptedElementSignature = nil
        XCTAssertEqual(try open(manifest.xml, files).signature, .notValidated("the manifest carries no base64EncryptedElementSignature"))
    }

    func testACutOrDamagedLastBlockSaysWhichFile() throws {
        let (submission, files) = try sealed()
        var cut = files
        cut["submission.xml.enc"]!.removeLast(5)
        XCTAssertEqual(message { try self.open(submission.manifestXML, cut) },
                       "submission.xml.enc: its \(files["submission.xml.enc"]!.count - 5) bytes are not whole 16-byte blocks: the file is cut short or damaged")
        var padding = files
        padding["photo.jpg.enc"]![padding["photo.jpg.enc"]!.count - 1] ^= 0x01
        XCTAssertEqual(message { try self.open(submission.manifestXML, padding) },
                       "photo.jpg.enc: it does not decrypt to padded data: the file was changed, or belongs to another submission")
        var missing = files
        missing["photo.jpg.enc"] = nil
        XCTAssertEqual(message { try self.open(submission.manifestXML, missing) },
                       "photo.jpg.enc, which the manifest names, cannot be read (no such file)")
        var empty = files
        empty["submission.xml.enc"] = []
        XCTAssertEqual(message { try self.open(submission.manifestXML, empty) },
                       "submission.xml.enc: its 0 bytes are not whole 16-byte blocks: the file is cut short or damaged")
    }

    // MARK: the manifest

    /// Cut at every byte, Collect's manifest (the fixture) and survey's are refused: never
    /// read as whole, never a crash.
    func testAManifestCutAtAnyByteIsRefused() throws {
        let (submission, _) = try sealed()
        for manifest in [try fixture("encrypted-form-submission.xml"), submission.manifestXML] {
            var whole = manifest
            while let last = whole.last, last == 0x0A || last == 0x20 { whole.removeLast() }
            XCTAssertNoThrow(try ODKManifest.read(whole))
            for length in 0..<whole.count {
                XCTAssertThrowsError(try ODKManifest.read(Array(whole.prefix(length))), "cut at \(length)") { error in
                    XCTAssertNotNil(error as? CryptoError, "cut at \(length): \(error)")
                }
            }
        }
        let collect = String(decoding: try fixture("encrypted-form-submission.xml"), as: UTF8.self)
        XCTAssertTrue(collect.hasSuffix("</data>"))
        for cut in ["</data>", ">"] {
            XCTAssertEqual(message { try ODKManifest.read(Array(collect.dropLast(cut.count).utf8)) },
                           "the manifest is cut short: <data> is never closed", "without \(cut)")
        }
        XCTAssertEqual(message { try ODKManifest.read(Array(collect.dropLast(2).utf8)) },
                       "the manifest closes <data> with </dat>: it is not well-formed")
    }

    /// A name the manifest gives is one plain name in the folder: a path, a hidden name, a
    /// name without `.enc`, or a name twice is refused before any file is read.
    func testAManifestNamingAPathIsRefusedBeforeAnythingIsRead() throws {
        let (submission, files) = try sealed()
        let text = String(decoding: submission.manifestXML, as: UTF8.self)
        let cases: [(String, String)] = [
            ("../x.enc", "the manifest's media file “../x.enc” holds a /: a file name there is one plain name, never a path"),
            ("/etc/passwd.enc", "the manifest's media file “/etc/passwd.enc” holds a /: a file name there is one plain name, never a path"),
            ("a\\b.enc", "the manifest's media file “a\\b.enc” holds a \\: a file name there is one plain name, never a path"),
            ("..", "the manifest's media file “..” is a folder: a file name there is one plain name, never a path"),
            ("...enc", "the manifest's media file “...enc” is hidden (starts with .): a file name there is one plain name, never a path"),
            (".enc", "the manifest's media file “.enc” is hidden (starts with .): a file name there is one plain name, never a path"),
            ("a&#0;b.enc", "the manifest's media file “a?b.enc” holds a control character: a file name there is one plain name, never a path"),
            ("a&#10;b.enc", "the manifest's media file “a?b.enc” holds a control character: a file name there is one plain name, never a path"),
            ("photo.jpg", "the manifest's media file “photo.jpg” does not end in .enc, as ODK's encrypted files do"),
            ("", "the manifest names an empty media file"),
            ("submission.xml.enc", "the manifest names “submission.xml.enc” twice (or beside the submission of that name)"),
            (String(repeating: "x", count: 300) + ".enc", "the manifest's media file “\(String(repeating: "x", count: 80))…” is longer than 255 bytes: a file name there is one plain name, never a path"),
        ]
        for (name, expected) in cases {
            let manifest = text.replacingOccurrences(of: "<file>photo.jpg.enc</file>", with: "<file>\(name)</file>")
            var read: [String] = []
            XCTAssertThrowsError(try ODKSubmissionCrypto.decrypt(manifestXML: Array(manifest.utf8), file: { name in
                read.append(name)
                return files[name] ?? []
            }, with: try fixtureKey), name) {
                XCTAssertEqual(($0 as? CryptoError)?.message, expected)
            }
            XCTAssertEqual(read, [], "\(name): nothing is read once the manifest is refused")
        }
        let twice = text.replacingOccurrences(of: "<media><file>photo.jpg.enc</file></media>",
                                              with: "<media><file>photo.jpg.enc</file></media><media><file>photo.jpg.enc</file></media>")
        XCTAssertEqual(message { try ODKManifest.read(Array(twice.utf8)) },
                       "the manifest names “photo.jpg.enc” twice (or beside the submission of that name)")
        let xmlPath = text.replacingOccurrences(of: "<encryptedXmlFile>submission.xml.enc</encryptedXmlFile>",
                                                with: "<encryptedXmlFile>../../submission.xml.enc</encryptedXmlFile>")
        XCTAssertEqual(message { try ODKManifest.read(Array(xmlPath.utf8)) },
                       "the manifest's encrypted submission “../../submission.xml.enc” holds a /: a file name there is one plain name, never a path")
    }

    func testAManifestThatIsNotOneIsRefusedWithTheReason() throws {
        let (submission, _) = try sealed()
        let text = String(decoding: submission.manifestXML, as: UTF8.self)
        let cases: [(String, String)] = [
            ("", "the manifest holds no XML element: it is empty or not XML"),
            ("hello", "the manifest has text before its first element: it is not XML"),
            (text + "<data/>", "the manifest goes on after </data>: it is not one XML document"),
            (text + "junk", "the manifest goes on after </data>: it is not one XML document"),
            (text.replacingOccurrences(of: " id=\"f\"", with: ""), "the manifest names no form: <data> has no id"),
            (text.replacingOccurrences(of: "<orx:instanceID>uuid:1</orx:instanceID>", with: ""),
             "the manifest has no instanceID: the files' IVs cannot be made without it"),
            (text.replacingOccurrences(of: "<base64EncryptedKey>", with: "<other>").replacingOccurrences(of: "</base64EncryptedKey>", with: "</other>"),
             "the manifest has no <base64EncryptedKey>: it is not an encrypted submission"),
            (text.replacingOccurrences(of: "<encryptedXmlFile>submission.xml.enc</encryptedXmlFile>", with: ""),
             "the manifest has no <encryptedXmlFile>: it does not say which file holds the submission"),
            (text.replacingOccurrences(of: "</orx:meta>", with: "</orx:meta></x>"), "the manifest closes <data> with </x>: it is not well-formed"),
            ("</data>", "the manifest closes </data>, which was never opened: it is not well-formed"),
            ("<data>" + String(repeating: "<a>", count: 20) + String(repeating: "</a>", count: 20) + "</data>",
             "the manifest nests elements more than 16 deep: it is not ODK's"),
            (text.replacingOccurrences(of: "</base64EncryptedKey>", with: "</base64EncryptedKey><base64EncryptedKey>AAAA</base64EncryptedKey>"),
             "the manifest has two <base64EncryptedKey> elements"),
            (text + String(repeating: " ", count: ODKManifest.largest), "the manifest is \(text.utf8.count + ODKManifest.largest) bytes: one is a few kilobytes (refused above 1 MiB)"),
        ]
        for (manifest, expected) in cases {
            XCTAssertEqual(message { try ODKManifest.read(Array(manifest.utf8)) }, expected, String(manifest.prefix(60)))
        }
        let damagedKey = text.replacingOccurrences(of: "<base64EncryptedKey>", with: "<base64EncryptedKey>%%")
        XCTAssertEqual(message { try ODKSubmissionCrypto.decrypt(manifestXML: Array(damagedKey.utf8), file: { _ in [] }, with: try self.fixtureKey) },
                       "the manifest's base64EncryptedKey is not base64: it is damaged")
    }

    /// Collect's shape, byte for byte as its kXML serializer writes `writeSubmissionManifest`.
    func testTheManifestIsWrittenAsCollectWritesIt() {
        let manifest = ODKManifest(formID: "house & home", version: "2\"", instanceID: "uuid:a<b", base64EncryptedKey: "S0VZ",
                                   mediaFiles: ["a.jpg.enc", "audit.csv.enc"], encryptedXMLFile: "submission.xml.enc",
                                   base64EncryptedElementSignature: "U0lH")
        XCTAssertEqual(String(decoding: manifest.xml, as: UTF8.self),
                       "<data xmlns=\"http://www.opendatakit.org/xforms/encrypted\" id=\"house &amp; home\" version=\"2&quot;\" encrypted=\"yes\">"
                       + "<base64EncryptedKey>S0VZ</base64EncryptedKey>"
                       + "<orx:meta xmlns:orx=\"http://openrosa.org/xforms\"><orx:instanceID>uuid:a&lt;b</orx:instanceID></orx:meta>\n"
                       + "<media><file>a.jpg.enc</file></media>\n<media><file>audit.csv.enc</file></media>\n"
                       + "<encryptedXmlFile>submission.xml.enc</encryptedXmlFile>"
                       + "<base64EncryptedElementSignature>U0lH</base64EncryptedElementSignature></data>")
        XCTAssertEqual(try ODKManifest.read(manifest.xml), manifest)
    }

    func testEncryptRefusesWhatCannotBeASubmission() throws {
        let key = try fixtureKey.publicKey
        XCTAssertEqual(message { try ODKSubmissionCrypto.encrypt(formID: "f", version: nil, instanceID: "", submissionXML: [], media: [], for: key) },
                       "an encrypted submission needs its instanceID (its files' IVs are made from it)")
        XCTAssertEqual(message { try ODKSubmissionCrypto.encrypt(formID: "", version: nil, instanceID: "uuid:1", submissionXML: [], media: [], for: key) },
                       "an encrypted submission needs the form's id")
        XCTAssertEqual(message { try ODKSubmissionCrypto.encrypt(formID: "f", version: nil, instanceID: "uuid:1", submissionXML: [],
                                                                 media: [ODKSubmissionFile(name: "submission.xml", bytes: [])], for: key) },
                       "two files named “submission.xml” in one submission")
        XCTAssertEqual(message { try ODKSubmissionCrypto.encrypt(formID: "f", version: nil, instanceID: "uuid:1", submissionXML: [],
                                                                 media: [ODKSubmissionFile(name: "../a.jpg", bytes: [])], for: key) },
                       "the manifest's media file “../a.jpg” holds a /: a file name there is one plain name, never a path")
    }
}
