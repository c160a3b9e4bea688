import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `undelete(id:from:)` and `removeFromDeleted(ids:for:)`.
final class UndeleteTests: TemporaryFolderTestCase {
    private let first = Date(timeIntervalSince1970: 1_700_000_000)
    private let second = Date(timeIntervalSince1970: 1_700_000_060)

    private func withID(_ record: Record, _ id: String) -> Record {
        var copy = record
        copy.values[Record.instanceIDKey] = .string(id)
        return copy
    }

    private lazy var ana = withID(Record.sample(first: "Ana"), "uuid:aaaaaaaa-0000-4000-8000-000000000001")
    private lazy var bo = withID(Record.sample(first: "Bo"), "uuid:bbbbbbbb-0000-4000-8000-000000000002")
    private lazy var cy = withID(Record.sample(first: "Cy"), "uuid:cccccccc-0000-4000-8000-000000000003")

    func testUndeletePutsTheRecordBackAtTheEndAndTakesItOffTheList() throws {
        try store.save(SurveyDocument(records: [cy]), as: "Field")
        try store.appendDeleted([ana, bo], for: "Field", at: first)
        XCTAssertEqual(try store.undelete(id: ana.instanceID!, from: "Field"), ana)
        XCTAssertEqual(try store.load("Field").get().records, [cy, ana])
        XCTAssertEqual(store.deletedRecords(for: "Field"), [DeletedRecord(record: bo, deletedAt: first)])
        try store.undelete(id: bo.instanceID!, from: "Field")
        XCTAssertEqual(try store.load("Field").get().records, [cy, ana, bo])
        XCTAssertEqual(try folderContents(), ["Field.plist"], "the emptied list is removed")
    }

    func testUndeleteGivesOtherRecordsWithoutAnIDOneAtThatSave() throws {
        let old = Record(["firstName": .string("Old")])
        try store.save(SurveyDocument(records: [old]), as: "Field")
        try store.appendDeleted([ana], for: "Field", at: first)
        try store.undelete(id: ana.instanceID!, from: "Field")
        let records = try store.load("Field").get().records
        XCTAssertEqual(records[0].answers, old.values)
        XCTAssertTrue(InstanceIDCheck.isFresh(records[0].instanceID))
        XCTAssertEqual(records[1], ana, "the record comes back exactly")
    }

    func testTheMostRecentDeletionOfAnIDComesBack() throws {
        try store.save(SurveyDocument(), as: "Field")
        let edited = withID(Record.sample(first: "Ana", phone: "999"), ana.instanceID!)
        try store.appendDeleted([ana], for: "Field", at: first)
        try store.appendDeleted([edited], for: "Field", at: second)
        XCTAssertEqual(try store.undelete(id: ana.instanceID!, from: "Field"), edited)
        XCTAssertEqual(store.deletedRecords(for: "Field"), [DeletedRecord(record: ana, deletedAt: first)])
    }

    func testAnUnknownIDIsRefused() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertThrowsError(try store.undelete(id: "uuid:nope", from: "Field")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("“Field” has no deleted surveys"))
        }
        try store.appendDeleted([ana], for: "Field", at: first)
        XCTAssertThrowsError(try store.undelete(id: "uuid:nope", from: "Field")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("No deleted survey of “Field” has the id uuid:nope"))
        }
        XCTAssertEqual(try store.load("Field").get().records, [])
    }

    func testARecordAlreadyInTheDocumentIsNotBroughtBackTwice() throws {
        try store.save(SurveyDocument(records: [bo, ana]), as: "Field")
        try store.appendDeleted([ana], for: "Field", at: first)
        let document = try Data(contentsOf: store.url(for: "Field"))
        let deleted = try Data(contentsOf: store.deletedURL(for: "Field"))
        XCTAssertThrowsError(try store.undelete(id: ana.instanceID!, from: "Field")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError(
                "\(ana.instanceID!) is already in “Field” (record 2, Lima, Ana): nothing brought back"))
        }
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Field")), document)
        XCTAssertEqual(try Data(contentsOf: store.deletedURL(for: "Field")), deleted)
    }

    func testAMissingDocumentIsRefusedAndTheListKept() throws {
        try store.appendDeleted([ana], for: "Gone", at: first)
        XCTAssertThrowsError(try store.undelete(id: ana.instanceID!, from: "Gone")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("Gone.plist does not exist"))
        }
        XCTAssertEqual(store.deletedRecords(for: "Gone").count, 1)
        XCTAssertEqual(try folderContents(), [".Gone.deleted.plist"])
    }

    /// The list is written after the document; when that write fails the record is back and
    /// still listed, the error says so, and a second undelete cannot double it. The write is
    /// made to fail (even as root) by a link to a file whose name leaves no room for the
    /// temporary name beside it.
    func testWhenTheListCannotBeRewrittenTheRecordIsBackAndNotDoubled() throws {
        let elsewhere = folder.appendingPathComponent("elsewhere", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let longName = elsewhere.appendingPathComponent(String(repeating: "d", count: 250))
        let other = DocumentStore(folder: elsewhere)
        try other.appendDeleted([ana, cy], for: "X", at: first)
        try FileManager.default.moveItem(at: other.deletedURL(for: "X"), to: longName)
        try FileManager.default.createSymbolicLink(at: store.deletedURL(for: "Field"), withDestinationURL: longName)
        try store.save(SurveyDocument(records: [bo]), as: "Field")

        XCTAssertThrowsError(try store.undelete(id: ana.instanceID!, from: "Field")) { error in
            let message = (error as? DocumentError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("Put Lima, Ana back into “Field”, but it is still listed as deleted: Could not save"),
                          message)
        }
        XCTAssertEqual(try store.load("Field").get().records, [bo, ana])
        XCTAssertEqual(store.deletedRecords(for: "Field").map(\.record), [ana, cy])
        XCTAssertThrowsError(try store.undelete(id: ana.instanceID!, from: "Field"))
        XCTAssertEqual(try store.load("Field").get().records, [bo, ana])
    }

    func testRemoveFromDeletedTakesTheMostRecentEntryOfEachID() throws {
        try store.appendDeleted([ana, bo], for: "Field", at: first)
        try store.appendDeleted([ana], for: "Field", at: second)
        try store.removeFromDeleted(ids: [ana.instanceID!, "uuid:unknown"], for: "Field")
        XCTAssertEqual(store.deletedRecords(for: "Field"), [
            DeletedRecord(record: ana, deletedAt: first), DeletedRecord(record: bo, deletedAt: first),
        ])
        try store.removeFromDeleted(ids: [ana.instanceID!, bo.instanceID!], for: "Field")
        XCTAssertEqual(try folderContents(), [], "the emptied list is removed")
    }

    func testRemovingUnknownIDsWritesNothing() throws {
        try store.removeFromDeleted(ids: [ana.instanceID!], for: "Field")
        XCTAssertEqual(try folderContents(), [])
        try store.appendDeleted([bo], for: "Field", at: first)
        let before = try FileManager.default.attributesOfItem(atPath: store.deletedURL(for: "Field").path)[.systemFileNumber]
        try store.removeFromDeleted(ids: [ana.instanceID!], for: "Field")
        let after = try FileManager.default.attributesOfItem(atPath: store.deletedURL(for: "Field").path)[.systemFileNumber]
        XCTAssertEqual(before as? Int, after as? Int, "not rewritten (an atomic write makes a new file)")
    }
}
