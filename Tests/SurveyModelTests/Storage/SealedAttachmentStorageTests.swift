import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// An encrypted form's survey takes its attachments inside its submission (issue 31), and
/// nothing is lost on the way: the plaintext leaves `NAME.media/` only after the sealed survey
/// is saved; a removal that fails leaves the file and says so, the survey saved; a photo that
/// cannot be read refuses the survey, writing nothing.
final class SealedAttachmentStorageTests: TemporaryFolderTestCase {
    static let key = try! RSAPrivateKey.generate()
    static let photo = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })

    private func prepare(_ store: DocumentStore) throws -> (Questionnaire, URL) {
        try store.save(SurveyDocument(), as: "Field")
        let form = folder.appendingPathComponent("form.csv")
        try "survey,,,\n,type,name,label\n,text,respondent,Respondent\n,image,photo,Photo\nsettings,,,\n,form_id,public_key,\n,household,\(try Self.key.publicKey.base64),\n"
            .write(to: form, atomically: true, encoding: .utf8)
        XCTAssertEqual(try store.attachForm(from: form.path, to: "Field", at: Date()), [])
        let source = folder.appendingPathComponent("camera.jpg")
        try Self.photo.write(to: source)
        return (try store.questionnaire(for: "Field"), source)
    }

    private func survey(photo: String) -> Record {
        Record(["respondent": .string("Ana"), "photo": .string(photo), Record.instanceIDKey: .string("uuid:7")])
    }

    func testTheSealedSurveyHoldsThePhotoAndThePlaintextIsRemoved() throws {
        let (q, source) = try prepare(store)
        let name = try store.copyAttachment(from: source.path, for: "Field")
        var said: [String] = []
        try store.append([survey(photo: name)], to: .existing("Field"), questionnaire: q) { said.append($0) }
        XCTAssertEqual(said, [])
        let record = try XCTUnwrap(try store.load("Field").get().records.first)
        XCTAssertTrue(record.isSealed)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.mediaFolderURL(for: "Field").path), [])
        let opened = try SealedSurvey.open(record, with: Self.key)
        XCTAssertTrue(opened.isValidated)
        XCTAssertEqual(opened.media.map(\.name), ["camera.jpg"])
        XCTAssertEqual(Data(opened.media[0].bytes), Self.photo)
    }

    func testARemovalThatFailsLeavesTheFileAndSaysSoTheSurveySaved() throws {
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            operation == .unlink && path?.hasSuffix(".media/camera.jpg") == true ? EACCES : nil
        })
        let (q, source) = try prepare(failing)
        let name = try failing.copyAttachment(from: source.path, for: "Field")
        var said: [String] = []
        try failing.append([survey(photo: name)], to: .existing("Field"), questionnaire: q) { said.append($0) }
        XCTAssertTrue(try XCTUnwrap(try store.load("Field").get().records.first).isSealed, "saved, sealed")
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(said.first?.contains("camera.jpg could not be removed from Field.media (Permission denied): the file is left there") == true,
                      "\(said)")
        XCTAssertEqual(FileManager.default.contents(atPath: store.mediaFolderURL(for: "Field").appendingPathComponent("camera.jpg").path),
                       Self.photo, "nothing lost")
    }

    /// Sealed, attachments live inside the document, which survey opens up to 512 MB: a survey
    /// whose files pass the limit is refused before they are read, and nothing is written.
    func testAttachmentsPastTheLimitRefuseTheSurveyAndWriteNothing() throws {
        let (q, source) = try prepare(store)
        let name = try store.copyAttachment(from: source.path, for: "Field")
        let file = store.mediaFolderURL(for: "Field").appendingPathComponent(name)
        XCTAssertEqual(truncate(file.path, off_t(DocumentStore.maximumSealedAttachmentBytes) + 1), 0)   // sparse: no disk used
        let before = try Data(contentsOf: store.url(for: "Field"))
        XCTAssertThrowsError(try store.append([survey(photo: name)], to: .existing("Field"), questionnaire: q)) { error in
            XCTAssertTrue("\(error)".contains("more than an encrypted survey keeps inside the document"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Field")), before, "nothing written")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "the file stays")
    }

    func testASaveThatFailsRemovesNothing() throws {
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            operation == .rename && path?.hasSuffix("Field.plist") == true ? EIO : nil
        })
        let (q, source) = try prepare(store)
        let name = try store.copyAttachment(from: source.path, for: "Field")
        XCTAssertThrowsError(try failing.append([survey(photo: name)], to: .existing("Field"), questionnaire: q))
        XCTAssertEqual(try store.load("Field").get().records.count, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: store.mediaFolderURL(for: "Field").appendingPathComponent("camera.jpg").path),
                       Self.photo)
    }

    func testAPhotoThatCannotBeReadRefusesTheSurvey() throws {
        let (q, source) = try prepare(store)
        let name = try store.copyAttachment(from: source.path, for: "Field")
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            operation == .read ? EIO : nil
        })
        XCTAssertThrowsError(try failing.append([survey(photo: name)], to: .existing("Field"), questionnaire: q)) {
            XCTAssertTrue(($0 as? DocumentError)?.message.hasPrefix("The attachment camera.jpg could not be encrypted with the survey") == true, "\($0)")
        }
        XCTAssertEqual(try store.load("Field").get().records.count, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: store.mediaFolderURL(for: "Field").appendingPathComponent("camera.jpg").path),
                       Self.photo)
    }
}
