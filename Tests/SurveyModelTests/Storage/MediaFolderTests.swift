import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

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
        XCTAssertEqual(try store.attachForm(from: try formWithList(), to: "Field", at: Date()), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.mediaFolderURL(for: "Field").path), ["towns-list.csv"])
        let q = try store.questionnaire(for: "Field")
        XCTAssertEqual(q.fields[0].kind, .choice(list: "towns-list.csv", names: ["ka", "ju"], multiple: false))
        XCTAssertEqual(store.documentForm(for: "Field").questionnaire.fields[0].choiceLabels["ju"], "Juba")
    }

    func testTheMediaFolderIsRenamedTrashedAndRestoredWithItsDocument() throws {
        try store.save(SurveyDocument(), as: "Field")
        try store.attachForm(from: try formWithList(), to: "Field", at: Date())
        try store.rename("Field", to: "Plot", at: Date())
        XCTAssertTrue(try folderContents().contains("Plot.media"))
        XCTAssertFalse(try folderContents().contains("Field.media"))
        try store.delete("Plot", at: Date())
        XCTAssertFalse(try folderContents().contains("Plot.media"))
        XCTAssertEqual(try store.restore(at: Date()), "Plot")
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

    private func mode(_ url: URL) -> mode_t {
        var status = stat()
        XCTAssertEqual(lstat(url.path, &status), 0, url.path)
        return status.st_mode & 0o7777
    }

    private func file(_ name: String, _ bytes: [UInt8], mode: mode_t) throws -> URL {
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let url = outside.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        try Data(bytes).write(to: url)
        XCTAssertEqual(chmod(url.path, mode), 0)
        return url
    }

    /// A copy is its owner's alone (a photo may be a respondent's, issue 31) and never more
    /// readable than its file: a 0400 photo stays 0400, an executable bit is not copied; an
    /// older copy's mode is not kept when a list file is attached again. The form's own copy too.
    func testACopyIsNoMoreReadableThanItsFile() throws {
        let saved = umask(0o022)
        defer { umask(saved) }
        try store.save(SurveyDocument(), as: "Field")
        let media = store.mediaFolderURL(for: "Field")
        for (given, expected) in [(mode_t(0o600), mode_t(0o600)), (0o640, 0o600), (0o755, 0o600), (0o666, 0o600), (0o400, 0o400)] {
            let photo = try file("p\(String(given, radix: 8)).jpg", [1, 2, UInt8(given & 0xFF)], mode: given)
            let name = try store.copyAttachment(from: photo.path, for: "Field")
            XCTAssertEqual(mode(media.appendingPathComponent(name)), expected, "a \(String(given, radix: 8)) photo")
        }
        _ = umask(0o077)
        let shared = try file("big.jpg", [9], mode: 0o644)
        XCTAssertEqual(mode(media.appendingPathComponent(try store.copyAttachment(from: shared.path, for: "Field"))), 0o600, "the umask narrows")
        _ = umask(0o022)
        let list = try file("towns.csv", Array("name,label\nka,Kampala\n".utf8), mode: 0o644)
        try store.attachMediaFiles([list.path], to: "Field")
        XCTAssertEqual(mode(media.appendingPathComponent("towns.csv")), 0o600)
        XCTAssertEqual(chmod(media.appendingPathComponent("towns.csv").path, 0o644), 0)
        XCTAssertEqual(chmod(list.path, 0o400), 0)
        try store.attachMediaFiles([list.path], to: "Field")
        XCTAssertEqual(mode(media.appendingPathComponent("towns.csv")), 0o400, "not the older copy's 0644")
        let form = try file("form.csv", Array("survey,,,\n,type,name,label\n,select_one_from_file towns.csv,town,Town\n".utf8), mode: 0o600)
        try store.attachForm(from: form.path, to: "Field", at: Date())
        XCTAssertEqual(mode(try XCTUnwrap(store.formURL(for: "Field"))), 0o600)
    }

    /// A link as the file named is refused, saying where it leads, and nothing is copied: as
    /// an answer, as a list file given, as a list file the form names beside it (the document
    /// keeps the form it had) and as the form. Links in the folders on the way are followed.
    func testALinkIsRefusedAndALinkedFolderOnTheWayIsFollowed() throws {
        try store.save(SurveyDocument(), as: "Field")
        let secret = try file("secret.txt", Array("root:$6$hash".utf8), mode: 0o600)
        let photoLink = outside.appendingPathComponent("photo.jpg")
        try FileManager.default.createSymbolicLink(atPath: photoLink.path, withDestinationPath: secret.path)
        XCTAssertThrowsError(try store.copyAttachment(from: photoLink.path, for: "Field")) {
            XCTAssertEqual(($0 as? DocumentError)?.message, "\(photoLink.path) is a symbolic link to \(secret.path): "
                           + "survey copies a file itself, never through a link (give the file's own path)")
        }
        XCTAssertThrowsError(try store.attachMediaFiles([photoLink.path], to: "Field"))
        XCTAssertFalse(try folderContents().contains("Field.media"), "nothing copied")

        let form = try file("form.csv", Array("survey,,,\n,type,name,label\n,select_one_from_file towns.csv,town,Town\n".utf8), mode: 0o644)
        let first = try file("first.csv", Array("survey,,,\n,type,name,label\n,text,q,Q\n".utf8), mode: 0o644)
        try store.attachForm(from: first.path, to: "Field", at: Date())
        try FileManager.default.createSymbolicLink(atPath: outside.appendingPathComponent("towns.csv").path, withDestinationPath: secret.path)
        XCTAssertThrowsError(try store.attachForm(from: form.path, to: "Field", at: Date())) {
            XCTAssertTrue(($0 as? DocumentError)?.message.hasPrefix("\(self.outside.path)/towns.csv is a symbolic link") == true, "\($0)")
        }
        XCTAssertEqual(try store.questionnaire(for: "Field").fields.map(\.key), ["q"], "the form it had stays, not in the trash")
        XCTAssertFalse(try folderContents().contains(".trash"))
        let formLink = outside.appendingPathComponent("link.csv")
        try FileManager.default.createSymbolicLink(atPath: formLink.path, withDestinationPath: first.path)
        XCTAssertThrowsError(try store.attachForm(from: formLink.path, to: "Field", at: Date()))

        // A folder reached through a link is the user's path: followed.
        let linkedFolder = folder.appendingPathComponent("pictures")
        try FileManager.default.createSymbolicLink(atPath: linkedFolder.path, withDestinationPath: outside.path)
        let real = try file("tree.jpg", [7, 7], mode: 0o644)
        XCTAssertEqual(try store.copyAttachment(from: linkedFolder.appendingPathComponent("tree.jpg").path, for: "Field"), "tree.jpg")
        XCTAssertEqual(FileManager.default.contents(atPath: store.mediaFolderURL(for: "Field").appendingPathComponent("tree.jpg").path),
                       try Data(contentsOf: real))
        // A FIFO is refused at once, not waited on.
        let fifo = outside.appendingPathComponent("pipe.jpg")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try store.copyAttachment(from: fifo.path, for: "Field")) {
            XCTAssertEqual(($0 as? DocumentError)?.message, "\(fifo.path) is not a file")
        }
    }

    /// The copy's reads go through the file system a test makes fail: a read error midway is
    /// said, and nothing is put in the media folder.
    func testAReadFailingMidwayCopiesNothing() throws {
        try store.save(SurveyDocument(), as: "Field")
        let photo = try file("p.jpg", [UInt8](repeating: 3, count: 200_000), mode: 0o644)
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, _ in operation == .read ? EIO : nil })
        XCTAssertThrowsError(try failing.copyAttachment(from: photo.path, for: "Field")) {
            XCTAssertEqual(($0 as? DocumentError)?.message, "\(photo.path) could not be read: Input/output error")
        }
        XCTAssertThrowsError(try failing.attachMediaFiles([photo.path], to: "Field"))
        XCTAssertFalse(try folderContents().contains("Field.media"))
    }
}
