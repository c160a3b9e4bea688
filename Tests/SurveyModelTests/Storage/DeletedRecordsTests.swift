import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `.NAME.deleted.plist`: deleted surveys kept beside their document, listed, brought back
/// and tidied; a file that cannot be read is never written over.
final class DeletedRecordsTests: TemporaryFolderTestCase {
    /// Whole seconds: a property list keeps dates to the second.
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

    func testTheFileIsHiddenBesideTheDocument() throws {
        XCTAssertEqual(store.deletedURL(for: "Field"), folder.appendingPathComponent(".Field.deleted.plist"))
        try store.save(SurveyDocument(), as: "Field")
        try store.appendDeleted([ana], for: "Field", at: first)
        XCTAssertEqual(try store.documentNames(), ["Field"])
        XCTAssertEqual(store.recoveries(), [])
    }

    /// A member deleted with ^D is kept in the same file (issue 27: nothing deleted is ever
    /// in no file), beside the deleted surveys, which it leaves listed as they were.
    func testADeletedMemberIsKeptBesideTheDeletedSurveys() throws {
        try store.appendDeleted([ana], for: "Field", at: first)
        let member = DeletedMemberEntry(answers: ["name": .string("Bo"), "age": .integer(31)], survey: "uuid:k",
                                        roster: "member[2]", deletedAt: second)
        try store.appendDeletedMember(member, for: "Field")
        XCTAssertEqual(store.deletedMembers(for: "Field"), [member])
        XCTAssertEqual(store.deletedRecords(for: "Field"), [DeletedRecord(record: ana, deletedAt: first)])
        try store.appendDeleted([bo], for: "Field", at: second)
        XCTAssertEqual(store.deletedMembers(for: "Field"), [member], "a later delete keeps it")
    }

    func testAppendingKeepsEarlierEntriesInOrder() throws {
        try store.appendDeleted([ana, bo], for: "Field", at: first)
        try store.appendDeleted([cy], for: "Field", at: second)
        XCTAssertEqual(store.deletedRecords(for: "Field"), [
            DeletedRecord(record: ana, deletedAt: first), DeletedRecord(record: bo, deletedAt: first),
            DeletedRecord(record: cy, deletedAt: second),
        ])
        XCTAssertEqual(try folderContents(), [".Field.deleted.plist"], "no temporary file left")
    }

    func testNothingToAppendWritesNothing() throws {
        try store.appendDeleted([], for: "Field", at: first)
        XCTAssertEqual(try folderContents(), [])
    }

    func testARecordWithoutAnIDIsGivenOneSoItCanComeBack() throws {
        try store.appendDeleted([Record.sample()], for: "Field", at: first)
        let kept = try XCTUnwrap(store.deletedRecords(for: "Field").first)
        XCTAssertTrue(InstanceIDCheck.isFresh(kept.record.instanceID))
        XCTAssertEqual(kept.record.answers, Record.sample().values)
    }

    func testPlistlibReadsTheFile() throws {
        var odd = bo
        odd.values["notes"] = .array([.string("x"), .integer(2)])
        try store.appendDeleted([ana, odd], for: "Field", at: first)
        let output = try TestSupport.python(#"""
            import calendar, json, plistlib, sys
            with open(sys.argv[1], "rb") as f:
                entries = plistlib.load(f)
            print(json.dumps([[calendar.timegm(e["deletedAt"].utctimetuple()), e["record"]["firstName"],
                               e["record"]["instanceID"], e["record"].get("notes"), sorted(e.keys())] for e in entries]))
            """#, [store.deletedURL(for: "Field").path])
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Any]]
        XCTAssertEqual(parsed?.count, 2)
        XCTAssertEqual(parsed?[0][0] as? Int, 1_700_000_000)
        XCTAssertEqual(parsed?[0][1] as? String, "Ana")
        XCTAssertEqual(parsed?[0][2] as? String, ana.instanceID)
        XCTAssertEqual(parsed?[1][1] as? String, "Bo")
        XCTAssertEqual(parsed?[1][3] as? [AnyHashable], ["x", 2])
        XCTAssertEqual(parsed?[1][4] as? [String], ["deletedAt", "record"])
    }

    func testAFileWrittenByPlistlibIsRead() throws {
        _ = try TestSupport.python(#"""
            import datetime, plistlib, sys
            entries = [{"deletedAt": datetime.datetime(2023, 11, 14, 22, 13, 20),
                        "record": {"firstName": "Py", "instanceID": "uuid:p"}}]
            with open(sys.argv[1], "wb") as f:
                plistlib.dump(entries, f)
            """#, [store.deletedURL(for: "Field").path])
        XCTAssertEqual(store.deletedRecords(for: "Field"), [
            DeletedRecord(record: Record(["firstName": .string("Py"), "instanceID": .string("uuid:p")]), deletedAt: first),
        ])
    }

    func testAnUnreadableFileIsNeverWrittenOver() throws {
        let garbage = Data("garbage".utf8)
        try garbage.write(to: store.deletedURL(for: "Field"))
        XCTAssertThrowsError(try store.appendDeleted([ana], for: "Field", at: first)) { error in
            XCTAssertEqual((error as? DocumentError)?.message,
                           ".Field.deleted.plist: not a property list: it starts with 67 61 72 62; "
                           + "it holds deleted surveys, so survey does not write over it (repair it or move it away)")
        }
        XCTAssertThrowsError(try store.removeFromDeleted(ids: [ana.instanceID!], for: "Field"))
        XCTAssertThrowsError(try store.undelete(id: "uuid:x", from: "Field"))
        XCTAssertEqual(try Data(contentsOf: store.deletedURL(for: "Field")), garbage)
        XCTAssertEqual(store.deletedRecords(for: "Field"), [])
    }

    func testAFileOfAnotherShapeIsNeverWrittenOver() throws {
        let dictionary = try SurveyDocument(records: []).propertyListData()
            .replacingOccurrences(of: "<array/>", with: "<dict/>")
        try dictionary.write(to: store.deletedURL(for: "Field"))
        XCTAssertThrowsError(try store.appendDeleted([ana], for: "Field", at: first)) { error in
            XCTAssertTrue((error as? DocumentError)?.message.hasPrefix(
                ".Field.deleted.plist: not a survey document: the top level is") == true, "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: store.deletedURL(for: "Field")), dictionary)
    }

    func testEntriesOfAnotherShapeAreKeptButNotListed() throws {
        let stranger = Record(["note": .string("written by hand")])
        try SurveyDocument(records: [stranger]).propertyListData().write(to: store.deletedURL(for: "Field"))
        try store.appendDeleted([ana], for: "Field", at: first)
        XCTAssertEqual(store.deletedRecords(for: "Field"), [DeletedRecord(record: ana, deletedAt: first)])
        let raw = try SurveyDocument(propertyListData: Data(contentsOf: store.deletedURL(for: "Field")))
        XCTAssertEqual(raw.records.first, stranger)
        try store.removeFromDeleted(ids: [ana.instanceID!], for: "Field")
        XCTAssertEqual(try SurveyDocument(propertyListData: Data(contentsOf: store.deletedURL(for: "Field"))).records,
                       [stranger])
    }
}

private extension Data {
    func replacingOccurrences(of old: String, with new: String) -> Data {
        Data(String(decoding: self, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
    }
}
