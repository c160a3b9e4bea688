import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The deleted surveys go wherever their document goes, as its draft does.
final class DeletedFollowsDocumentTests: TemporaryFolderTestCase {
    private let date: Date = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: 2024, month: 3, day: 5, hour: 9, minute: 7, second: 2))!
    }()
    private let deletedAt = Date(timeIntervalSince1970: 1_700_000_000)
    private let gone = Record(["firstName": .string("Gone"), "instanceID": .string("uuid:g")])

    private func trashContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.trashFolder.path).sorted()
    }

    func testRenameMovesTheDeletedSurveys() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.saveDraft(Record.sample(), for: "A", in: .standard)
        try store.appendDeleted([gone], for: "A", at: deletedAt)
        try store.rename("A", to: "B", at: Date())
        XCTAssertEqual(try folderContents(), [".B.deleted.plist", ".B.draft.plist", "B.plist"])
        XCTAssertEqual(store.deletedRecords(for: "B"), [DeletedRecord(record: gone, deletedAt: deletedAt)])
    }

    func testRenameChangingOnlyTheCaseMovesThem() throws {
        try store.save(SurveyDocument(), as: "field")
        try store.appendDeleted([gone], for: "field", at: deletedAt)
        try store.rename("field", to: "Field", at: Date())
        XCTAssertEqual(try folderContents(), [".Field.deleted.plist", "Field.plist"])
    }

    func testStaleDeletedSurveysInTheWayOfARenameGoToTheTrash() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.appendDeleted([gone], for: "A", at: deletedAt)
        try store.appendDeleted([Record(["firstName": .string("Stale"), "instanceID": .string("uuid:s")])],
                                for: "B", at: deletedAt)
        try store.rename("A", to: "B", at: Date())
        XCTAssertEqual(store.deletedRecords(for: "B").map(\.record), [gone])
        let trashed = try trashContents()
        XCTAssertEqual(trashed.count, 1)
        XCTAssertTrue(trashed[0].hasPrefix(".B (deleted ") && trashed[0].hasSuffix(").deleted.plist"), trashed[0])
    }

    func testARenameThatCannotMoveThemIsUndoneWhole() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.saveDraft(Record.sample(), for: "A", in: .standard)
        try store.appendDeleted([gone], for: "A", at: deletedAt)
        // A stale list in the way that cannot go to the trash: `.trash` is a file.
        try store.appendDeleted([gone], for: "B", at: deletedAt)
        try Data().write(to: store.trashFolder)
        XCTAssertThrowsError(try store.rename("A", to: "B", at: Date())) { error in
            XCTAssertEqual((error as? DocumentError)?.message,
                           "Could not rename “A” to “B”: its deleted surveys could not be moved: Not a directory")
        }
        XCTAssertEqual(try folderContents(), [".A.deleted.plist", ".A.draft.plist", ".B.deleted.plist", ".trash", "A.plist"])
    }

    func testDeleteAndRestoreTakeThemAlong() throws {
        try store.save(SurveyDocument(), as: "Field")
        try store.saveDraft(Record.sample(), for: "Field", in: .standard)
        try store.appendDeleted([gone], for: "Field", at: deletedAt)
        try store.delete("Field", at: date)
        XCTAssertEqual(try folderContents(), [".trash"])
        XCTAssertEqual(try trashContents(), [".Field (deleted 2024-03-05 09.07.02).deleted.plist",
                                             ".Field (deleted 2024-03-05 09.07.02).draft.plist",
                                             "Field (deleted 2024-03-05 09.07.02).plist"])
        XCTAssertEqual(try store.restore("Field", at: Date()), "Field")
        XCTAssertEqual(try folderContents(), [".Field.deleted.plist", ".Field.draft.plist", ".trash", "Field.plist"])
        XCTAssertEqual(store.deletedRecords(for: "Field"), [DeletedRecord(record: gone, deletedAt: deletedAt)])
    }

    func testADeletionInTheSameSecondDoesNotMeetAnotherDocumentsList() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.appendDeleted([gone], for: "A", at: deletedAt)
        try store.delete("A", at: date)
        try store.save(SurveyDocument(), as: "A")
        try store.appendDeleted([gone], for: "A", at: deletedAt)
        XCTAssertEqual(try store.delete("A", at: date), "A (deleted 2024-03-05 09.07.02) 2.plist")
        XCTAssertTrue(try trashContents().contains(".A (deleted 2024-03-05 09.07.02) 2.deleted.plist"))
    }

    func testRestoreUnderANumberedNameTakesItsListAlong() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.appendDeleted([gone], for: "A", at: deletedAt)
        try store.delete("A", at: date)
        try store.save(SurveyDocument(), as: "A")
        XCTAssertEqual(try store.restore("A", at: Date()), "A 2")
        XCTAssertEqual(store.deletedRecords(for: "A 2").map(\.record), [gone])
        XCTAssertEqual(store.deletedRecords(for: "A"), [])
    }
}
