import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A save keeps the file's owner, group and mode (the tests run as root, so a file given to
/// uid 1000 is "a user's file" that root saves).
final class OwnershipTests: TemporaryFolderTestCase {
    private func owner(_ url: URL) -> (uid: uid_t, gid: gid_t, mode: mode_t) {
        var status = stat()
        XCTAssertEqual(stat(url.path, &status), 0)
        return (status.st_uid, status.st_gid, status.st_mode & 0o7777)
    }

    func testRootSavingAUsersDocumentKeepsItTheirs() throws {
        guard geteuid() == 0 else { return XCTFail("the tests run as root, to give a file to another user") }
        let url = store.url(for: "Theirs")
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Theirs")
        XCTAssertEqual(chown(url.path, 1000, 1000), 0)
        XCTAssertEqual(chmod(url.path, 0o640), 0)
        try store.save(SurveyDocument(records: [Record.sample(), Record.sample(first: "B")]), as: "Theirs")
        let after = owner(url)
        XCTAssertEqual(after.uid, 1000)
        XCTAssertEqual(after.gid, 1000)
        XCTAssertEqual(after.mode, 0o640)
        XCTAssertEqual(try store.load("Theirs").get().records.count, 2)
        XCTAssertEqual(try folderContents(), ["Theirs.plist"])
    }

    func testRootSavingAUsersDraftKeepsItTheirs() throws {
        guard geteuid() == 0 else { return XCTFail("the tests run as root, to give a file to another user") }
        try store.save(SurveyDocument(), as: "Theirs")
        try store.saveDraft(Record.sample(first: "Half"), for: "Theirs", in: .standard)
        let draft = store.draftURL(for: "Theirs")
        XCTAssertEqual(chown(draft.path, 1000, 1001), 0)
        XCTAssertEqual(chmod(draft.path, 0o660), 0)
        try store.saveDraft(Record.sample(first: "Halfway"), for: "Theirs", in: .standard)
        let after = owner(draft)
        XCTAssertEqual(after.uid, 1000)
        XCTAssertEqual(after.gid, 1001)
        XCTAssertEqual(after.mode, 0o660)
        XCTAssertEqual(store.loadDraft(for: "Theirs").values["firstName"], .string("Halfway"))
    }

    /// A copy left by a save that was interrupted while writing in place is the good copy
    /// of a broken document: loading says where it is, and nothing removes it.
    func testABackupLeftByAnInterruptedInPlaceSaveIsNamedAndKept() throws {
        let good = try SurveyDocument(records: [Record.sample()]).propertyListData()
        try Data(good.prefix(good.count / 2)).write(to: store.url(for: "Cut"))
        let backup = folder.appendingPathComponent(".Cut.plist.backup-99999999-ab")
        try good.write(to: backup)
        guard case .failure(let error) = store.load("Cut") else { return XCTFail("a cut file must not load") }
        XCTAssertTrue(error.message.hasPrefix("Cut.plist: "), error.message)
        XCTAssertTrue(error.message.contains(".Cut.plist.backup-99999999-ab"), error.message)
        _ = try store.prepare(requested: nil)
        try store.save(SurveyDocument(), as: "Other")
        XCTAssertEqual(try Data(contentsOf: backup), good)
    }

    /// The path taken when the owner cannot be kept (exercised end to end, as another user,
    /// by SharedFolderTests): the same inode gets the new content and no backup stays.
    func testWritingInPlaceKeepsTheFileAndLeavesNoBackup() throws {
        let url = store.url(for: "Shared")
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Shared")
        var before = stat()
        XCTAssertEqual(stat(url.path, &before), 0)
        let data = try SurveyDocument(records: [Record.sample(), Record.sample(first: "B")]).propertyListData()
        try InPlaceWrite.write(data, over: url.path, keeping: FileOwner(before), in: .live)
        var after = stat()
        XCTAssertEqual(stat(url.path, &after), 0)
        XCTAssertEqual(after.st_ino, before.st_ino)
        XCTAssertEqual(try Data(contentsOf: url), data)
        XCTAssertEqual(try folderContents(), ["Shared.plist"])
    }

    func testOnlyTemporaryNamesAreCleanUpCandidates() {
        XCTAssertEqual(LeftoverTemporaryFiles.parse(".K2.plist.tmp-123-1f")?.target, "K2.plist")
        XCTAssertEqual(LeftoverTemporaryFiles.parse(".K2.draft.plist.tmp-123-ab")?.pid, 123)
        for name in [".K2.plist.backup-123-1f", ".K2.plist.rename-123-1f", "K2.plist.tmp-123-1f",
                     ".K2.plist.tmp-x-1f", ".K2.plist.tmp-123-", ".K2.draft.plist", ".tmp-1-a"] {
            XCTAssertNil(LeftoverTemporaryFiles.parse(name), name)
        }
        XCTAssertTrue(InPlaceWrite.backupName(for: "K2.plist").hasPrefix(".K2.plist.backup-\(getpid())-"))
        XCTAssertTrue(AtomicFile.parkingName(for: "K2.plist").hasPrefix(".K2.plist.rename-\(getpid())-"))
    }
}
