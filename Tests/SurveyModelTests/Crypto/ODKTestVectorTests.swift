import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// ODK's own test vector (Fixtures/odk-crypto, from ODK Briefcase's test suite): a
/// submission ODK Collect encrypted opens here to the answers Briefcase's export expects,
/// with its signature validated, and the form's public key is the private key's.
final class ODKTestVectorTests: XCTestCase {
    private func fixture(_ name: String) throws -> [UInt8] {
        Array(try TestSupport.fixtureData("odk-crypto/" + name))
    }

    /// Briefcase's expected export: a header and one row (quoted cells hold no comma here
    /// but the date's, which is quoted).
    private func expectedRow() throws -> [String: String] {
        let lines = String(decoding: try fixture("encrypted-form.csv.expected"), as: UTF8.self)
            .split(whereSeparator: \.isNewline).map(String.init)
        XCTAssertEqual(lines.count, 2)
        let cells = { (line: String) -> [String] in
            var cells: [String] = [], cell = "", quoted = false
            for character in line {
                if character == "\"" { quoted.toggle() } else if character == ",", !quoted { cells.append(cell); cell = "" } else { cell.append(character) }
            }
            return cells + [cell]
        }
        return Dictionary(uniqueKeysWithValues: zip(cells(lines[0]), cells(lines[1])))
    }

    func testCollectsSubmissionDecryptsAsBriefcaseExportsIt() throws {
        let key = try RSAPrivateKey(pem: try fixture("encrypted-form-key.pem"), passphrase: nil)
        var asked: [String] = []
        let opened = try ODKSubmissionCrypto.decrypt(manifestXML: try fixture("encrypted-form-submission.xml"), file: { name in
            asked.append(name)
            return try self.fixture("encrypted-form-" + name)
        }, with: key)
        XCTAssertEqual(asked, ["submission.xml.enc"])
        let expected = try expectedRow()
        let xml = String(decoding: opened.submissionXML, as: UTF8.self)
        XCTAssertTrue(xml.hasPrefix("<?xml version='1.0' ?><data id=\"encrypted-form\""), xml)
        XCTAssertTrue(xml.contains("<name>\(try XCTUnwrap(expected["name"]))</name>"), xml)
        XCTAssertTrue(xml.contains("<orx:instanceID>\(try XCTUnwrap(expected["meta-instanceID"]))</orx:instanceID>"), xml)
        XCTAssertEqual(expected["name"], "Guillermo")
        XCTAssertEqual(opened.manifest.instanceID, expected["KEY"])
        XCTAssertEqual(opened.manifest.formID, "encrypted-form")
        XCTAssertNil(opened.manifest.version)
        XCTAssertEqual(opened.media, [])
        XCTAssertEqual(expected["isValidated"], "true")
        XCTAssertEqual(opened.signature, .validated)
        XCTAssertTrue(opened.isValidated)
    }

    /// The form's `base64RsaPublicKey` (what XLSForm's `public_key` becomes) is the public
    /// half of the fixture's private key, byte for byte as `public_key` takes it.
    func testTheFormsPublicKeyIsThePrivateKeysPublicHalf() throws {
        let form = String(decoding: try fixture("encrypted-form.xml"), as: UTF8.self)
        let attribute = try XCTUnwrap(form.range(of: "base64RsaPublicKey=\""))
        let text = form[attribute.upperBound...].prefix { $0 != "\"" }
        let publicKey = try RSAPublicKey(base64: String(text))
        XCTAssertEqual(publicKey.bits, 2048)
        let privateKey = try RSAPrivateKey(pem: try fixture("encrypted-form-key.pem"), passphrase: nil)
        XCTAssertEqual(try privateKey.publicKey.base64, String(text))
        XCTAssertEqual(publicKey.base64, String(text))
    }

    /// What survey encrypts for the fixture's form opens with the fixture's private key
    /// (the direction Briefcase takes with survey's export), signature validated.
    func testWhatSurveyEncryptsForTheFormOpensWithItsKey() throws {
        let form = String(decoding: try fixture("encrypted-form.xml"), as: UTF8.self)
        let attribute = try XCTUnwrap(form.range(of: "base64RsaPublicKey=\""))
        let publicKey = try RSAPublicKey(base64: String(form[attribute.upperBound...].prefix { $0 != "\"" }))
        let xml = Array("<data id=\"encrypted-form\"><name>Ana</name></data>".utf8)
        let sealed = try ODKSubmissionCrypto.encrypt(formID: "encrypted-form", version: nil, instanceID: "uuid:1", submissionXML: xml,
                                                     media: [], for: publicKey)
        let key = try RSAPrivateKey(pem: try fixture("encrypted-form-key.pem"), passphrase: nil)
        let files = Dictionary(uniqueKeysWithValues: sealed.files.map { ($0.name, $0.bytes) })
        let opened = try ODKSubmissionCrypto.decrypt(manifestXML: sealed.manifestXML, file: { try XCTUnwrap(files[$0]) }, with: key)
        XCTAssertEqual(opened.submissionXML, xml)
        XCTAssertTrue(opened.isValidated)
    }
}
