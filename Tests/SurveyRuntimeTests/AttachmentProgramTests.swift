import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// A path typed into an image question, on a real folder: the file is copied into the
/// document's media folder, the answer is its name there, and Enter goes on; a path with no
/// file stays typed with the reason.
final class AttachmentProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!
    var photo: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
        store = DocumentStore(folder: folder.appendingPathComponent("docs"))
        try store.save(SurveyDocument(records: []), as: "Trees")
        let form = folder.appendingPathComponent("trees.csv")
        try Data("""
        survey,,,
        ,type,name,label
        ,text,tree_id,Tree id
        ,image,photo,Photo of the tree
        ,text,notes,Notes
        """.utf8).write(to: form)
        try store.attachForm(from: form.path, to: "Trees", at: Date())
        photo = folder.appendingPathComponent("tree 1.jpg")
        try Data("JPEG bytes".utf8).write(to: photo)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testATypedPathIsCopiedIntoTheMediaFolderAndItsNameIsTheAnswer() throws {
        var p = Program(store: store, documentName: "Trees", size: Size(width: 100, height: 30))
        p.press(.enter); p.type("T1"); p.press(.enter)
        p.type(photo.path); p.press(.enter)
        XCTAssertEqual(p.state.draft["photo"], .string("tree 1.jpg"), p.state.statusText ?? "")
        XCTAssertEqual(p.state.editing.map { p.state.outline.field($0.entry).key }, "notes", "Enter went on after the copy")
        let copied = folder.appendingPathComponent("docs/Trees.media/tree 1.jpg")
        XCTAssertEqual(try Data(contentsOf: copied), Data("JPEG bytes".utf8))
        XCTAssertEqual(store.loadDraft(for: "Trees").values["photo"], .string("tree 1.jpg"), "on disk at once")
    }

    func testAPathWithNoFileStaysTypedWithTheReason() throws {
        var p = Program(store: store, documentName: "Trees", size: Size(width: 100, height: 30))
        p.press(.enter); p.type("T1"); p.press(.enter)
        let missing = folder.appendingPathComponent("nowhere.jpg").path
        p.type(missing); p.press(.enter)
        XCTAssertEqual(p.state.statusText, "There is no file at \(missing)")
        XCTAssertEqual(p.state.editing?.text, missing, "what was typed stays")
        XCTAssertNil(p.state.draft["photo"])
        XCTAssertNil(p.state.form.attaching)
    }
}
