import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 31, "protected at rest": what survey creates holds respondents' answers, so it is
/// created for its owner alone (files 0600, folders 0700), whatever the umask allows; a file
/// or folder that exists keeps its owner and mode, as a shared folder's files always have.
final class PrivateFilesTests: TemporaryFolderTestCase {
    private var savedUmask: mode_t = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        savedUmask = umask(0o022)   // the usual one, which left documents 0644 in 0755 folders
    }

    override func tearDownWithError() throws {
        umask(savedUmask)
        try super.tearDownWithError()
    }

    private func mode(_ url: URL) -> mode_t {
        var status = stat()
        XCTAssertEqual(lstat(url.path, &status), 0, url.path)
        return status.st_mode & 0o7777
    }

    func testEverythingSurveyCreatesIsItsOwnersAlone() throws {
        // The document folder and its missing parents.
        let outer = folder.appendingPathComponent("home")
        let store = DocumentStore(folder: outer.appendingPathComponent("survey"))
        try store.createFolder()
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Field")
        XCTAssertEqual(mode(outer), 0o700)
        XCTAssertEqual(mode(store.folder), 0o700)
        XCTAssertEqual(mode(store.url(for: "Field")), 0o600)

        try store.saveDraft(Record.sample(first: "Half"), for: "Field", in: .standard)
        XCTAssertEqual(mode(store.draftURL(for: "Field")), 0o600)

        var ledger = SyncLedger()
        ledger.pullCursor = 7   // not empty: an empty ledger is no file
        try store.writeLedger(ledger, for: "Field")
        XCTAssertEqual(mode(store.syncURL(for: "Field")), 0o600)

        // A photo another user may read is copied for the owner alone.
        let photo = folder.appendingPathComponent("photo.jpg")
        try Data([1, 2, 3]).write(to: photo)
        XCTAssertEqual(chmod(photo.path, 0o644), 0)
        let name = try store.copyAttachment(from: photo.path, for: "Field")
        let media = store.mediaFolderURL(for: "Field")
        XCTAssertEqual(mode(media), 0o700)
        XCTAssertEqual(mode(media.appendingPathComponent(name)), 0o600)

        _ = try store.delete("Field", at: Date())
        let trash = store.folder.appendingPathComponent(".trash")
        XCTAssertEqual(mode(trash), 0o700)
        for file in try FileManager.default.contentsOfDirectory(atPath: trash.path) {
            let url = trash.appendingPathComponent(file)
            XCTAssertEqual(mode(url) & 0o077, 0, "\(file) in the trash is readable by others")
        }
    }

    /// A folder its owners share with a group (setgid, group write: the set-up for a team
    /// on one machine) gets new files and folders the group can use, or a teammate could not
    /// open a document made there, nor delete into a `.trash/` another made.
    func testInATeamsSharedFolderNewFilesAreTheGroups() throws {
        umask(0o002)
        let shared = folder.appendingPathComponent("team")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(shared.path, 0o2770), 0)
        let store = DocumentStore(folder: shared)
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Field")
        XCTAssertEqual(mode(store.url(for: "Field")), 0o660)
        try store.saveDraft(Record.sample(first: "Half"), for: "Field", in: .standard)
        XCTAssertEqual(mode(store.draftURL(for: "Field")), 0o660)
        let photo = folder.appendingPathComponent("photo.jpg")
        try Data([1]).write(to: photo)
        XCTAssertEqual(chmod(photo.path, 0o644), 0)
        let name = try store.copyAttachment(from: photo.path, for: "Field")
        XCTAssertEqual(mode(store.mediaFolderURL(for: "Field")) & 0o777, 0o770)
        XCTAssertEqual(mode(store.mediaFolderURL(for: "Field").appendingPathComponent(name)), 0o640, "never more than its file")
        _ = try store.delete("Field", at: Date())
        XCTAssertEqual(mode(shared.appendingPathComponent(".trash")) & 0o777, 0o770)
    }

    /// A team's shared folder (0775, documents 0664) stays as its owners set it: survey
    /// neither narrows nor widens what exists.
    func testWhatExistsKeepsItsMode() throws {
        let shared = folder.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(shared.path, 0o775), 0)
        let store = DocumentStore(folder: shared)
        try store.save(SurveyDocument(), as: "Team")
        XCTAssertEqual(chmod(store.url(for: "Team").path, 0o664), 0)
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Team")
        XCTAssertEqual(mode(store.url(for: "Team")), 0o664)
        XCTAssertEqual(mode(shared), 0o775)
    }
}
