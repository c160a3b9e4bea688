import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 31: a survey of an encrypted form takes its attachments inside its submission, as
/// ODK Collect encrypts a finalized instance's photos: `photo.jpg.enc` in the manifest's
/// media, the plaintext gone from `NAME.media/` once the survey is saved, and the exact bytes
/// back from `survey decrypt` and from Python's independent decryption of the export.
final class SealedAttachmentTests: CLITestCase {
    /// A photo's bytes no other file holds by chance.
    static let photo = Data("JFIF-respondent-face-".utf8) + Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    private func form(publicKey: String) throws -> URL {
        try scratchFile("sealed.csv", """
            survey,,,
            ,type,name,label
            ,text,respondent,Respondent
            ,image,photo,Photo
            settings,,,
            ,form_id,version,public_key
            ,household,3,\(publicKey)
            """)
    }

    func testAnImageAnswerIsEncryptedIntoTheSurveyAndItsPlaintextRemoved() throws {
        let pem = root.appendingPathComponent("household.pem")
        let form = try form(publicKey: try ODKPythonOracle.keygen(pem))
        XCTAssertEqual(try survey("docs", "new", "Field", "--form", form.path).status, 0)
        let source = root.appendingPathComponent("camera/photo.jpg")
        try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.photo.write(to: source)
        let added = try survey("add", "--doc", "Field", "--set", "respondent=Ana", "--set", "photo=\(source.path)")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(added.stderr, "")

        let record = try XCTUnwrap(try store.load("Field").get().records.first)
        XCTAssertTrue(record.isSealed)
        XCTAssertEqual(record[Record.Sealed.mediaNamesKey], .array([.string("photo.jpg.enc")]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: documents.appendingPathComponent("Field.media/photo.jpg").path))
        XCTAssertEqual(try filesHolding(Self.photo, in: documents), [], "the photo in clear beside the document")

        // The export writes the stored bytes; Python opens them to the photo.
        let out = root.appendingPathComponent("briefcase")
        let export = try survey("export", "--doc", "Field", "--format", "odk-xml", "--output", out.path)
        XCTAssertEqual(export.status, 0, export.stderr)
        let folder = out.appendingPathComponent("ODK Briefcase Storage/forms/household/instances")
            .appendingPathComponent(record.instanceID!.replacingOccurrences(of: ":", with: ""))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("photo.jpg.enc").path))
        let opened = try ODKPythonOracle.decrypt(folder, key: pem)
        XCTAssertTrue(opened.validated)
        XCTAssertEqual(opened.order, ["photo.jpg", "submission.xml"], "media first, as Collect")
        XCTAssertEqual(opened.files["photo.jpg"].flatMap { Data(base64Encoded: $0) }, Self.photo)
        let xml = String(decoding: Data(base64Encoded: opened.files["submission.xml"] ?? "") ?? Data(), as: UTF8.self)
        XCTAssertTrue(xml.contains("<photo>photo.jpg</photo>"), xml)
        XCTAssertEqual(try filesHolding(Self.photo, in: out), [])

        // The data manager's decrypt writes it beside submission.xml.
        let plain = root.appendingPathComponent("plain")
        let decrypt = try survey(["decrypt", "--key", pem.path, documents.appendingPathComponent("Field.plist").path,
                                  "--output", plain.path], dir: false, environment: ["SURVEY_KEY_PASSPHRASE": ""])
        XCTAssertEqual(decrypt.status, 0, decrypt.stderr + decrypt.stdout)
        let written = plain.appendingPathComponent(DecryptCommandName.folder(record.instanceID!))
        XCTAssertEqual(try Data(contentsOf: written.appendingPathComponent("photo.jpg")), Self.photo)
        XCTAssertTrue(FileManager.default.fileExists(atPath: written.appendingPathComponent("submission.xml").path))
    }

    /// An incomplete survey naming the same file (one attachment, `copyAttachment`) keeps it:
    /// it is still in plaintext, and its photo is not sealed yet.
    func testAFileAnIncompleteSurveyStillNamesStays() throws {
        let pem = root.appendingPathComponent("household.pem")
        let form = try form(publicKey: try ODKPythonOracle.keygen(pem))
        XCTAssertEqual(try survey("docs", "new", "Field", "--form", form.path).status, 0)
        let source = root.appendingPathComponent("photo.jpg")
        try Self.photo.write(to: source)
        let draft = try survey("add", "--doc", "Field", "--incomplete", "--set", "respondent=Bo", "--set", "photo=\(source.path)")
        XCTAssertEqual(draft.status, 0, draft.stderr)
        let added = try survey("add", "--doc", "Field", "--set", "respondent=Ana", "--set", "photo=\(source.path)")
        XCTAssertEqual(added.status, 0, added.stderr)
        let records = try store.load("Field").get().records
        XCTAssertEqual(records.map(\.isSealed), [false, true])
        XCTAssertEqual(try Data(contentsOf: documents.appendingPathComponent("Field.media/photo.jpg")), Self.photo)
    }
}

/// Briefcase's folder name for an instance (`DecryptCommand.folderName`): the id without its colon.
private enum DecryptCommandName {
    static func folder(_ id: String) -> String { id.replacingOccurrences(of: ":", with: "") }
}
