import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey decrypt --key FILE FOLDER|DOCUMENT.plist... [--output FOLDER]` on the folders ODK leaves: Collect's
/// `instances/` (the manifest under the instance's name), Briefcase's (`submission.xml`),
/// submissions Python's `cryptography` encrypted as Collect does, ODK's own test vector, and
/// bad ones among them: each good one is written whole, each bad one named with its reason
/// and nothing of it written, and the status says so.
final class DecryptCommandTests: CLITestCase {
    static let fixtures = fixtureURL("odk-crypto")
    var fixtureKey: URL { Self.fixtures.appendingPathComponent("encrypted-form-key.pem") }
    /// The fixture form's public key (its `base64RsaPublicKey`).
    static let fixturePublicKey = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA8RDcKKUNIAkKrPRd4tOls8X0ZpwYwuofVEER56BRwWIlSnPprE8p9EHbyL2/i6RLlX0Fk9ntdu/t42/jpf7hvf8srsgGk0bV1g22mvYDbk9pRdshfaLmLEagDqmVZA4byXGjxlgR9MXKRZHd2CNv7swR9ZNyHN8GMo+rqC/bsXL5lCxfVFmCbZo8AsemaE8wqQfkH5QHMFCHFbjmaUl+lnVpHa0jo31D7VOnT66tG8S/DjOTPxVZCYF5O9qTttsnvBEAijbU5PF/afHwHbfCj3/a9cQApAfT0BxG6GJyMhrlANkK6E5kWGart/wOgcybvE4El7ZzQT117OwxuZ3XZQIDAQAB"

    var instances: URL { root.appendingPathComponent("instances") }
    var plain: URL { root.appendingPathComponent("plain") }

    func folder(_ name: String) throws -> URL {
        let url = instances.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// ODK's test vector as Collect leaves it: the manifest under the instance's own name.
    func collectInstance() throws {
        let url = try folder("Encrypted Form_2018-04-18_10-15-09")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("encrypted-form-submission.xml"),
                                         to: url.appendingPathComponent("Encrypted Form_2018-04-18_10-15-09.xml"))
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("encrypted-form-submission.xml.enc"),
                                         to: url.appendingPathComponent("submission.xml.enc"))
    }

    /// A submission Python encrypts for `publicKey` as Collect does: `submission.xml` (the
    /// manifest, Briefcase's name) beside the `.enc` files. Returns the plaintexts.
    @discardableResult
    func pythonInstance(_ name: String, instanceID: String, media count: Int, publicKey: String = fixturePublicKey) throws -> [String: Data] {
        let source = root.appendingPathComponent("source-\(name)")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        var files: [String: Data] = ["submission.xml": Data("<data id=\"household\"><name>\(name)</name><orx:meta><orx:instanceID>\(instanceID)</orx:instanceID></orx:meta></data>".utf8)]
        var media: [String] = []
        for i in 0..<count {
            let file = "photo-\(i).jpg"
            files[file] = Data((0..<(i * 37)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) })
            media.append(file)
        }
        for (file, data) in files { try data.write(to: source.appendingPathComponent(file)) }
        try ODKPythonOracle.encrypt(into: try folder(name), publicKey: publicKey, formID: "household", version: "2",
                                    instanceID: instanceID, source: source, media: media)
        return files
    }

    func outputFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: plain.path).sorted()
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testAFolderOfInstancesDecryptsTheGoodAndNamesTheBad() throws {
        try collectInstance()
        let household = try pythonInstance("household", instanceID: "uuid:00000000-0000-4000-8000-000000000001", media: 18)
        try pythonInstance("tampered", instanceID: "uuid:00000000-0000-4000-8000-000000000002", media: 1)
        let tampered = instances.appendingPathComponent("tampered/submission.xml.enc")
        var bytes = try Data(contentsOf: tampered)
        bytes[5] ^= 0x01   // in the first block: garbled text, the padding intact
        try bytes.write(to: tampered)
        try pythonInstance("cut", instanceID: "uuid:00000000-0000-4000-8000-000000000003", media: 0)
        let cut = instances.appendingPathComponent("cut/submission.xml")
        try Data(try Data(contentsOf: cut).dropLast(40)).write(to: cut)
        try pythonInstance("escape", instanceID: "uuid:00000000-0000-4000-8000-000000000004", media: 1)
        let escape = instances.appendingPathComponent("escape/submission.xml")
        let manifest = try String(contentsOf: escape, encoding: .utf8).replacingOccurrences(of: "<file>photo-0.jpg.enc</file>", with: "<file>../../x.enc</file>")
        try Data(manifest.utf8).write(to: escape)
        try Data("x".utf8).write(to: root.appendingPathComponent("x.enc"))
        // Collect's folder of a form that is not encrypted: passed over.
        try Data("<data id=\"other\"><a>1</a></data>".utf8).write(to: try folder("plain-form").appendingPathComponent("plain-form.xml"))

        let outcome = try survey(["decrypt", "--key", fixtureKey.path, instances.path, "--output", plain.path])
        XCTAssertEqual(outcome.status, 1, "one failed: \(outcome.stderr)")
        let i = instances.path
        XCTAssertEqual(outcome.stdout, """
        \(i)/Encrypted Form_2018-04-18_10-15-09: uuid:494cd080-3bf4-47be-b40f-c706a950d58a (form encrypted-form) into \(plain.path)/uuid494cd080-3bf4-47be-b40f-c706a950d58a, signature validated
        \(i)/household: uuid:00000000-0000-4000-8000-000000000001 (form household) into \(plain.path)/uuid00000000-0000-4000-8000-000000000001, signature validated
        \(i)/tampered: uuid:00000000-0000-4000-8000-000000000002 (form household) into \(plain.path)/uuid00000000-0000-4000-8000-000000000002, signature NOT validated: the files do not match the manifest's signature (a file was changed or swapped after encryption, or the manifest's id, version or instanceID was)
        3 decrypted, 1 of them not validated, 2 failed

        """)
        XCTAssertEqual(outcome.stderr, """
        survey: \(i)/cut: the manifest is cut short: <data> is never closed; nothing written
        survey: \(i)/escape: the manifest's media file “../../x.enc” holds a /: a file name there is one plain name, never a path; nothing written

        """)
        XCTAssertEqual(try outputFolders(), ["uuid00000000-0000-4000-8000-000000000001", "uuid00000000-0000-4000-8000-000000000002",
                                             "uuid494cd080-3bf4-47be-b40f-c706a950d58a"], "nothing else, no staging folder left")
        XCTAssertEqual(try mode(plain), 0o700)
        let decrypted = plain.appendingPathComponent("uuid00000000-0000-4000-8000-000000000001")
        XCTAssertEqual(try mode(decrypted), 0o700)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: decrypted.path)), Set(household.keys))
        for (name, data) in household {
            XCTAssertEqual(try Data(contentsOf: decrypted.appendingPathComponent(name)), data, name)
            XCTAssertEqual(try mode(decrypted.appendingPathComponent(name)), 0o600, name)
        }
        let vector = try String(contentsOf: plain.appendingPathComponent("uuid494cd080-3bf4-47be-b40f-c706a950d58a/submission.xml"), encoding: .utf8)
        XCTAssertTrue(vector.contains("<name>Guillermo</name>"), vector)
        XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("x.enc"), encoding: .utf8), "x", "never read or written by a path")

        // Again into the same folder: every one is there already, and none is replaced.
        let again = try survey(["decrypt", "--key", fixtureKey.path, instances.appendingPathComponent("household").path, "--output", plain.path])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, "survey: \(i)/household: \(plain.path)/uuid00000000-0000-4000-8000-000000000001 already exists: survey never replaces it; nothing written\n")
        XCTAssertEqual(again.stdout, "0 decrypted, 1 failed\n")
        XCTAssertEqual(try Data(contentsOf: decrypted.appendingPathComponent("submission.xml")), household["submission.xml"])
    }

    /// What survey's own model encrypts (the app's finished surveys) opens with survey keys
    /// new's passphrase-protected key; a wrong passphrase opens nothing and writes nothing.
    func testSurveysOwnKeyAndEncryptionRoundTrip() throws {
        let key = root.appendingPathComponent("key.pem")
        let made = try survey(["keys", "new", key.path], environment: ["SURVEY_KEY_PASSPHRASE": "field season 2024"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let publicKey = try RSAPublicKey(base64: made.stdout)
        let media = (0..<20).map { ODKSubmissionFile(name: "audio-\($0).m4a", bytes: Array(repeating: UInt8($0), count: $0 * 11)) }
        let xml = Array("<data id=\"hh\" version=\"1\"><name>Ana</name></data>".utf8)
        let sealed = try ODKSubmissionCrypto.encrypt(formID: "hh", version: "1", instanceID: "uuid:abc", submissionXML: xml,
                                                     media: media, for: publicKey)
        let instance = try folder("uuidabc")
        try Data(sealed.manifestXML).write(to: instance.appendingPathComponent("submission.xml"))
        for file in sealed.files { try Data(file.bytes).write(to: instance.appendingPathComponent(file.name)) }

        let wrong = try survey(["decrypt", "--key", key.path, instance.path, "--output", plain.path],
                               environment: ["SURVEY_KEY_PASSPHRASE": "field season 2025"])
        XCTAssertEqual(wrong, Outcome(status: 1, stdout: "", stderr: "survey: \(key.path): the passphrase does not open the private key\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: plain.path))
        let noTerminal = try survey(["decrypt", "--key", key.path, instance.path, "--output", plain.path])
        XCTAssertEqual(noTerminal.stderr, "survey: \(key.path): no terminal to ask for the passphrase on: set SURVEY_KEY_PASSPHRASE (for a script)\n")

        let opened = try survey(["decrypt", "--key", key.path, instance.path, "--output", plain.path],
                                environment: ["SURVEY_KEY_PASSPHRASE": "field season 2024"])
        XCTAssertEqual(opened.status, 0, opened.stderr)
        XCTAssertEqual(opened.stdout, "\(instance.path): uuid:abc (form hh) into \(plain.path)/uuidabc, signature validated\n1 decrypted\n")
        let out = plain.appendingPathComponent("uuidabc")
        XCTAssertEqual(Array(try Data(contentsOf: out.appendingPathComponent("submission.xml"))), xml)
        for file in media { XCTAssertEqual(Array(try Data(contentsOf: out.appendingPathComponent(file.name))), file.bytes, file.name) }
    }

    func testAnotherKeyIsNamedAndTheRestStillDecrypt() throws {
        let otherPEM = root.appendingPathComponent("other.pem")
        let other = try ODKPythonOracle.keygen(otherPEM)
        try pythonInstance("mine", instanceID: "uuid:1", media: 0)
        try pythonInstance("theirs", instanceID: "uuid:2", media: 0, publicKey: other)
        let outcome = try survey(["decrypt", "--key", fixtureKey.path, instances.appendingPathComponent("theirs").path,
                                  instances.appendingPathComponent("mine").path, "--output", plain.path])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, "survey: \(instances.path)/theirs: this private key does not open the submission: it was encrypted for another key (or its base64EncryptedKey was changed); nothing written\n")
        XCTAssertEqual(outcome.stdout, "\(instances.path)/mine: uuid:1 (form household) into \(plain.path)/uuid1, signature validated\n1 decrypted, 1 failed\n")
        XCTAssertEqual(try outputFolders(), ["uuid1"])
    }

    func testFoldersAndKeysThatCannotBeUsed() throws {
        try collectInstance()
        let collect = instances.appendingPathComponent("Encrypted Form_2018-04-18_10-15-09")
        try FileManager.default.copyItem(at: collect.appendingPathComponent("Encrypted Form_2018-04-18_10-15-09.xml"),
                                         to: collect.appendingPathComponent("copy.xml"))
        let empty = try folder("empty")
        let missing = root.appendingPathComponent("missing").path
        let outcome = try survey(["decrypt", "--key", fixtureKey.path, collect.path, empty.path, missing, "--output", plain.path])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, """
        survey: \(collect.path): it holds 2 manifests (Encrypted Form_2018-04-18_10-15-09.xml, copy.xml): one encrypted submission a folder; nothing written
        survey: \(empty.path): no encrypted submission in it or in its folders (one holds a manifest .xml with base64EncryptedKey, and submission.xml.enc); nothing written
        survey: \(missing): no such folder; nothing written

        """)
        XCTAssertEqual(outcome.stdout, "0 decrypted, 3 failed\n")

        let noKey = root.appendingPathComponent("nokey.pem").path
        XCTAssertEqual(try survey(["decrypt", "--key", noKey, instances.path]),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(noKey): cannot be read (No such file or directory)\n"))
        let publicPEM = try scratchFile("public.pem", "-----BEGIN PUBLIC KEY-----\n\(Self.fixturePublicKey)\n-----END PUBLIC KEY-----\n")
        XCTAssertEqual(try survey(["decrypt", "--key", publicPEM.path, instances.path]).stderr,
                       "survey: \(publicPEM.path): the file holds a public key or a certificate, not the private key\n")
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["decrypt", "instances"], "survey: --key FILE names the private key: survey decrypt --key FILE FOLDER|DOCUMENT.plist... [--output FOLDER]"),
            (["decrypt", "--key", "k.pem"], "survey: missing folder: survey decrypt --key FILE FOLDER|DOCUMENT.plist... [--output FOLDER]"),
            (["list", "--key", "k.pem"], "survey: --key only works with survey decrypt"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
    }
}
