import Foundation
import XCTest
@testable import SurveyModel

/// `NAME.media/` travels with its document, as its form does, and holds only plain names.
final class MediaFolderTests: TemporaryFolderTestCase {
    private var outside: URL { folder.appendingPathComponent("designer", isDirectory: true) }

    private func formWithList() throws -> String {
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let form = outside.appendingPathComponent("towns.csv")
        try "survey,,,\n,type,name,label\n,select_one_from_file towns-list.csv,town,Town\n".write(to: form, atomically: true, encoding: .utf8)
        try "name,label\nka,Kampala\nju,Juba\n".write(to: outside.appendingPathComponent("towns-list.csv"), atomically: true, encoding: .utf8)
        return form.path
    }

    func testAttachingAFormPicksUpItsListFromTheFormsFolder() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try store.attachForm(from: try formWithList(), to: "Field"), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.mediaFolderURL(for: "Field").path), ["towns-list.csv"])
        let q = try store.questionnaire(for: "Field")
        XCTAssertEqual(q.fields[0].kind, .choice(list: "towns-list.csv", names: ["ka", "ju"], multiple: false))
        XCTAssertEqual(store.documentForm(for: "Field").questionnaire.fields[0].choiceLabels["ju"], "Juba")
    }

    func testTheMediaFolderIsRenamedTrashedAndRestoredWithItsDocument() throws {
        try store.save(SurveyDocument(), as: "Field")
        try store.attachForm(from: try formWithList(), to: "Field")
        try store.rename("Field", to: "Plot")
        XCTAssertTrue(try folderContents().contains("Plot.media"))
        XCTAssertFalse(try folderContents().contains("Field.media"))
        try store.delete("Plot")
        XCTAssertFalse(try folderContents().contains("Plot.media"))
        XCTAssertEqual(try store.restore(), "Plot")
        XCTAssertEqual(try store.questionnaire(for: "Plot").fields[0].choiceLabels["ka"], "Kampala")
    }

    func testAnAttachmentIsCopiedInAndNeverReplacesAnother() throws {
        try store.save(SurveyDocument(), as: "Field")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let first = outside.appendingPathComponent("tree.jpg"), other = folder.appendingPathComponent("tree.jpg")
        try Data([1, 2, 3]).write(to: first)
        try Data([4, 5]).write(to: other)
        XCTAssertEqual(try store.copyAttachment(from: first.path, for: "Field"), "tree.jpg")
        XCTAssertEqual(try store.copyAttachment(from: first.path, for: "Field"), "tree.jpg", "the same bytes: the same attachment")
        XCTAssertEqual(try store.copyAttachment(from: other.path, for: "Field"), "tree-2.jpg")
        let media = store.mediaFolderURL(for: "Field")
        XCTAssertEqual(FileManager.default.contents(atPath: media.appendingPathComponent("tree-2.jpg").path), Data([4, 5]))
        XCTAssertThrowsError(try store.copyAttachment(from: outside.appendingPathComponent("none.jpg").path, for: "Field")) {
            XCTAssertEqual(($0 as? DocumentError)?.message, "There is no file at \(self.outside.appendingPathComponent("none.jpg").path)")
        }
    }

    func testHostileNamesAndLinksAreRefused() throws {
        try store.save(SurveyDocument(), as: "Field")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let hidden = outside.appendingPathComponent(".profile")
        try Data([1]).write(to: hidden)
        XCTAssertThrowsError(try store.attachMediaFiles([hidden.path], to: "Field"))
        // A link in the media folder's place could lead the copy out of the folder.
        try FileManager.default.createSymbolicLink(at: store.mediaFolderURL(for: "Field"), withDestinationURL: outside)
        let photo = outside.appendingPathComponent("p.jpg")
        try Data([1]).write(to: photo)
        XCTAssertThrowsError(try store.copyAttachment(from: photo.path, for: "Field")) {
            XCTAssertEqual(($0 as? DocumentError)?.message, "Field.media is not a folder: move it away to attach files to “Field”")
        }
    }
}
