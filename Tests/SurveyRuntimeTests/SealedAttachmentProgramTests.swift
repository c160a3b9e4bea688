import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Issue 31 in the app: a photo path typed into an encrypted form's image question is copied
/// into `NAME.media/` while the interview is keyed, and [ Add ] seals it into the survey's
/// submission (`photo.jpg.enc`), removing the copy once the encrypted survey is saved.
final class SealedAttachmentProgramTests: XCTestCase {
    static let key = try! RSAPrivateKey.generate()
    static let photo = Data("respondent-face:".utf8) + Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) })

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-sealed-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testAddSealsThePhotoAndRemovesItsCopy() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            let documents = folder.appendingPathComponent("docs")
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
            let store = DocumentStore(folder: documents)
            try store.save(SurveyDocument(), as: "Plots")
            let form = folder.appendingPathComponent("plots.csv")
            try Data("""
                survey,,,
                ,type,name,label
                ,text,plot,Plot
                ,image,photo,Photo
                settings,,,
                ,form_id,version,public_key
                ,plots,4,\(try Self.key.publicKey.base64)
                """.utf8).write(to: form)
            try store.attachForm(from: form.path, to: "Plots", at: Date())
            let source = folder.appendingPathComponent("camera/tree.jpg")
            try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.photo.write(to: source)

            var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            p.send(.system(.resized(Size(width: 120, height: 40))))
            p.press(.enter)
            p.type("North"); p.press(.enter)
            p.type(source.path); p.press(.enter)
            let media = store.mediaFolderURL(for: "Plots").appendingPathComponent("tree.jpg")
            XCTAssertEqual(FileManager.default.contents(atPath: media.path), Self.photo, "copied while keyed, as a draft's")
            p.press(.enter)                                   // [ Add ]
            XCTAssertTrue(p.state.records.first?.isSealed ?? false, "\(String(describing: p.state.status))")
            p.press(.control("q"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: media.path), "threshold \(threshold): the copy is gone")

            let stored = try XCTUnwrap(try store.load("Plots").get().records.first)
            XCTAssertEqual(stored[Record.Sealed.mediaNamesKey], .array([.string("tree.jpg.enc")]))
            let opened = try SealedSurvey.open(stored, with: Self.key)
            XCTAssertTrue(opened.isValidated)
            XCTAssertEqual(opened.media.map(\.name), ["tree.jpg"])
            XCTAssertEqual(Data(opened.media[0].bytes), Self.photo)
            XCTAssertTrue(String(decoding: opened.submissionXML, as: UTF8.self).contains("<photo>tree.jpg</photo>"))
        }
    }

    /// The copy cannot be removed: the survey is saved encrypted all the same, the copy is
    /// left as it was, and the keyer is told.
    func testACopyThatCannotBeRemovedIsLeftAndSaid() throws {
        let documents = folder.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        let store = DocumentStore(folder: documents, fileSystem: .failing { operation, path in
            operation == .unlink && path?.hasSuffix(".media/tree.jpg") == true ? EACCES : nil
        })
        try store.save(SurveyDocument(), as: "Plots")
        let form = folder.appendingPathComponent("plots.csv")
        try Data("survey,,,\n,type,name,label\n,text,plot,Plot\n,image,photo,Photo\nsettings,,,\n,form_id,public_key,\n,plots,\(try Self.key.publicKey.base64),\n".utf8)
            .write(to: form)
        try store.attachForm(from: form.path, to: "Plots", at: Date())
        let source = folder.appendingPathComponent("tree.jpg")
        try Self.photo.write(to: source)
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        p.press(.enter)
        p.type("North"); p.press(.enter)
        p.type(source.path); p.press(.enter)
        p.press(.enter)                                       // [ Add ]
        let status = p.state.status?.text ?? ""
        XCTAssertTrue(status.contains("tree.jpg could not be removed from Plots.media") && status.contains("left there"), status)
        XCTAssertTrue(try XCTUnwrap(try store.load("Plots").get().records.first).isSealed, "saved, encrypted")
        XCTAssertEqual(FileManager.default.contents(atPath: store.mediaFolderURL(for: "Plots").appendingPathComponent("tree.jpg").path),
                       Self.photo, "nothing lost")
    }
}

extension SealedAttachmentProgramTests {
    /// A second window writing its own New form keeps the first window's (with its photo) in a
    /// recovery file, encrypted. The photo's copy stays in `NAME.media/`: the first window still
    /// names it, and its Add seals it into its survey.
    func testKeepingAnotherWindowsNewFormLeavesItsPhoto() throws {
        let documents = folder.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        let store = DocumentStore(folder: documents)
        try store.save(SurveyDocument(), as: "Plots")
        let form = folder.appendingPathComponent("plots.csv")
        try Data("survey,,,\n,type,name,label\n,text,plot,Plot\n,image,photo,Photo\nsettings,,,\n,form_id,public_key,\n,plots,\(try Self.key.publicKey.base64),\n".utf8)
            .write(to: form)
        try store.attachForm(from: form.path, to: "Plots", at: Date())
        let source = folder.appendingPathComponent("tree.jpg")
        try Self.photo.write(to: source)
        var b = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        b.send(.system(.resized(Size(width: 120, height: 40))))
        var a = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        a.send(.system(.resized(Size(width: 120, height: 40))))
        a.press(.enter)
        a.type("North"); a.press(.enter)
        a.type(source.path); a.press(.enter)                  // a's New form, photo copied
        let media = store.mediaFolderURL(for: "Plots").appendingPathComponent("tree.jpg")
        XCTAssertEqual(FileManager.default.contents(atPath: media.path), Self.photo)
        b.press(.enter)
        b.type("South"); b.press(.enter)                      // b's New form: a's kept aside
        XCTAssertEqual(store.recoveries().count, 1, "\(String(describing: b.state.status))")
        XCTAssertTrue(store.recoveries().first?.records.first?.isSealed ?? false)
        XCTAssertEqual(FileManager.default.contents(atPath: media.path), Self.photo, "a still names its photo")
        XCTAssertEqual(a.state.draft["photo"], .string("tree.jpg"))
        a.press(.enter)                                       // [ Add ] in a
        a.press(.control("q"))
        b.press(.control("q"))
        let stored = try XCTUnwrap(try store.load("Plots").get().records.first, "\(String(describing: a.state.status))")
        let opened = try SealedSurvey.open(stored, with: Self.key)
        XCTAssertEqual(opened.media.map(\.name), ["tree.jpg"])
        XCTAssertEqual(opened.media.first.map { Data($0.bytes) }, Self.photo, "a's survey has its photo")
    }
}
