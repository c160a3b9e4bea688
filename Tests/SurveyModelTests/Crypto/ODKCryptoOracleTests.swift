import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// ODK's encrypted submissions both ways against an independent implementation
/// (`ODKPythonOracle`, Python's `cryptography`): what survey encrypts, Python opens and
/// validates; what Python encrypts as Collect does, survey opens and validates. With enough
/// media files that the IV rule wraps past byte 15 of its seed (file 16 changes byte 0 a
/// second time), files of every length around the 16-byte block (0, 1, 15, 16, 17, …), a
/// version with characters XML escapes, and without a version.
final class ODKCryptoOracleTests: TemporaryFolderTestCase {
    /// 20 media files and the submission: IV indices 0…20.
    private func sampleMedia(seed: UInt64) -> [ODKSubmissionFile] {
        var random = SplitMix(seed: SplitMix.testSeed(seed))
        let lengths = [0, 1, 15, 16, 17, 31, 32, 33, 100, 1000, 4096, 65_537, 2, 3, 5, 8, 13, 21, 34, 55]
        return lengths.enumerated().map { index, length in
            ODKSubmissionFile(name: index == 0 ? "audit.csv" : String(format: "photo-%02d.jpg", index),
                              bytes: (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
    }

    private let submissionXML = Array(("<?xml version='1.0' ?><household id=\"household\" version=\"2024 &amp; &lt;1&gt;\">"
        + "<name>Zoë Ñandú</name><orx:meta><orx:instanceID>uuid:0b6e1c2a-5f1e-4c55-9a0b-3f1c2d4e5f60</orx:instanceID></orx:meta></household>").utf8)

    private func write(_ encrypted: ODKEncryptedSubmission, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(encrypted.manifestXML).write(to: folder.appendingPathComponent("submission.xml"))
        for file in encrypted.files { try Data(file.bytes).write(to: folder.appendingPathComponent(file.name)) }
    }

    func testWhatSurveyEncryptsPythonDecryptsAndValidates() throws {
        let pem = folder.appendingPathComponent("key.pem")
        let publicKey = try RSAPublicKey(base64: try ODKPythonOracle.keygen(pem))
        let media = sampleMedia(seed: 31)
        for version in ["2024 & \"<1>\"", nil] {
            let encrypted = try ODKSubmissionCrypto.encrypt(formID: "household", version: version,
                                                            instanceID: "uuid:0b6e1c2a-5f1e-4c55-9a0b-3f1c2d4e5f60",
                                                            submissionXML: submissionXML, media: media, for: publicKey)
            XCTAssertEqual(encrypted.files.map(\.name), media.map { $0.name + ".enc" } + ["submission.xml.enc"])
            for (plain, sealed) in zip(media.map(\.bytes) + [submissionXML], encrypted.files.map(\.bytes)) {
                XCTAssertEqual(sealed.count, (plain.count / 16 + 1) * 16, "PKCS#7 pads to the next whole block")
                if plain.count >= 16 { XCTAssertNotEqual(Array(sealed.prefix(16)), Array(plain.prefix(16))) }
            }
            let out = folder.appendingPathComponent("survey-\(version == nil ? "unversioned" : "versioned")")
            try write(encrypted, to: out)
            let opened = try ODKPythonOracle.decrypt(out, key: pem)
            XCTAssertTrue(opened.validated, "Python validates the element signature")
            XCTAssertEqual(opened.formID, "household")
            XCTAssertEqual(opened.version, version)
            XCTAssertEqual(opened.instanceID, "uuid:0b6e1c2a-5f1e-4c55-9a0b-3f1c2d4e5f60")
            XCTAssertEqual(opened.order, media.map(\.name) + ["submission.xml"])
            XCTAssertEqual(opened.bytes("submission.xml"), submissionXML)
            for file in media { XCTAssertEqual(opened.bytes(file.name), file.bytes, file.name) }
        }
    }

    func testWhatPythonEncryptsAsCollectDoesSurveyDecryptsAndValidates() throws {
        let pem = folder.appendingPathComponent("key.pem")
        let publicKey = try ODKPythonOracle.keygen(pem)
        let source = folder.appendingPathComponent("plain")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let media = sampleMedia(seed: 32)
        for file in media { try Data(file.bytes).write(to: source.appendingPathComponent(file.name)) }
        try Data(submissionXML).write(to: source.appendingPathComponent("submission.xml"))
        let privateKey = try RSAPrivateKey(pem: Array(try Data(contentsOf: pem)), passphrase: nil)
        for version in ["7 & <8>", nil] {
            let instance = folder.appendingPathComponent("collect-\(version == nil ? "unversioned" : "versioned")")
            try FileManager.default.createDirectory(at: instance, withIntermediateDirectories: true)
            try ODKPythonOracle.encrypt(into: instance, publicKey: publicKey, formID: "household", version: version,
                                        instanceID: "uuid:ffd3a1c4-0000-4000-8000-000000000001", source: source,
                                        media: media.map(\.name))
            var read: [String] = []
            let opened = try ODKSubmissionCrypto.decrypt(
                manifestXML: Array(try Data(contentsOf: instance.appendingPathComponent("submission.xml"))),
                file: { name in
                    read.append(name)
                    return Array(try Data(contentsOf: instance.appendingPathComponent(name)))
                }, with: privateKey)
            XCTAssertEqual(read, media.map { $0.name + ".enc" } + ["submission.xml.enc"], "IV order: media, then the submission")
            XCTAssertEqual(opened.signature, .validated)
            XCTAssertEqual(opened.manifest.version, version)
            XCTAssertEqual(opened.manifest.formID, "household")
            XCTAssertEqual(opened.submissionXML, submissionXML)
            XCTAssertEqual(opened.media, media)
        }
    }

    /// The IV rule itself, against the oracle's numbers: seed MD5(instanceID ‖ key), byte
    /// i mod 16 up by one before file i, the changes adding up (and wrapping at 255).
    func testIVSequenceAddsUpPastSixteenFiles() throws {
        let key = [UInt8](repeating: 7, count: 32)
        var sequence = try ODKIVSequence(instanceID: "uuid:x", key: key)
        let seed = try CryptoDigest.md5(Array("uuid:x".utf8) + key)
        var expected = seed
        for i in 0..<40 {
            expected[i % 16] &+= 1
            XCTAssertEqual(sequence.next(), expected, "file \(i)")
        }
        XCTAssertEqual(expected[0], seed[0] &+ 3, "byte 0 went up before files 0, 16 and 32")
        XCTAssertEqual(expected[15], seed[15] &+ 2)
        let output = try TestSupport.python(#"""
        import hashlib, sys
        seed = bytearray(hashlib.md5(b"uuid:x" + bytes([7] * 32)).digest())
        for i in range(40):
            seed[i % 16] = (seed[i % 16] + 1) % 256
        print(seed.hex())
        """#)
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), CryptoDigest.hex(expected))
    }
}
