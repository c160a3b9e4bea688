import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class TrashTests: TemporaryFolderTestCase {
    /// 2024-03-05 09:07:02 in the local time zone, the zone trash names are written in.
    private let date: Date = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: 2024, month: 3, day: 5, hour: 9, minute: 7, second: 2))!
    }()

    private func trashContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.trashFolder.path).sorted()
    }

    func testDeleteMovesTheDocumentAndDraftIntoTheTrash() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Market Street")
        try store.saveDraft(Record.sample(first: "Half"), for: "Market Street", in: .standard)
        let trashName = try store.delete("Market Street", at: date)
        XCTAssertEqual(trashName, "Market Street (deleted 2024-03-05 09.07.02).plist")
        XCTAssertEqual(try folderContents(), [".trash"])
        XCTAssertEqual(try trashContents(), [".Market Street (deleted 2024-03-05 09.07.02).draft.plist",
                                             "Market Street (deleted 2024-03-05 09.07.02).plist"])
        XCTAssertEqual(try store.documentNames(), [])
    }

    func testDeleteNumbersASecondDeletionInTheSameSecond() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.delete("A", at: date)
        try store.save(SurveyDocument(), as: "A")
        XCTAssertEqual(try store.delete("A", at: date), "A (deleted 2024-03-05 09.07.02) 2.plist")
        XCTAssertEqual(try trashContents(), ["A (deleted 2024-03-05 09.07.02) 2.plist",
                                             "A (deleted 2024-03-05 09.07.02).plist"])
    }

    func testDeletingWhatIsNotThereIsAnError() {
        XCTAssertThrowsError(try store.delete("Nothing", at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("“Nothing” does not exist"))
        }
    }

    func testDeleteMatchesFolded() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try store.delete("FIELD", at: date), "Field (deleted 2024-03-05 09.07.02).plist")
    }

    func testATrashThatIsAFileIsAClearError() throws {
        try store.save(SurveyDocument(), as: "A")
        try Data().write(to: store.trashFolder)
        XCTAssertThrowsError(try store.delete("A", at: Date())) { error in
            XCTAssertEqual((error as? DocumentError)?.message, "Could not move “A” to the trash: Not a directory")
        }
        XCTAssertTrue(store.exists("A"))
    }

    func testTrashListsMostRecentFirstWithNameAndDate() throws {
        for (name, offset) in [("First", 0.0), ("Second", 60), ("Third", 3600)] {
            try store.save(SurveyDocument(), as: name)
            try store.delete(name, at: date.addingTimeInterval(offset))
        }
        try store.save(SurveyDocument(), as: "Third")
        try store.delete("Third", at: date.addingTimeInterval(3600))
        let trash = store.trash()
        XCTAssertEqual(trash.map(\.name), ["Third", "Third", "Second", "First"])
        XCTAssertEqual(trash.map(\.fileName), ["Third (deleted 2024-03-05 10.07.02) 2.plist",
                                               "Third (deleted 2024-03-05 10.07.02).plist",
                                               "Second (deleted 2024-03-05 09.08.02).plist",
                                               "First (deleted 2024-03-05 09.07.02).plist"])
        XCTAssertEqual(trash.last?.deletedAt, date)
    }

    func testAFileDroppedInTheTrashByHandIsListedByItsModificationTime() throws {
        try FileManager.default.createDirectory(at: store.trashFolder, withIntermediateDirectories: false)
        let url = store.trashFolder.appendingPathComponent("Loose.plist")
        try Data().write(to: url)
        let mtime = Date(timeIntervalSince1970: 1_600_000_000)
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: url.path)
        try Data().write(to: store.trashFolder.appendingPathComponent("notes.txt"))
        XCTAssertEqual(store.trash(), [TrashedDocument(name: "Loose", deletedAt: mtime, fileName: "Loose.plist")])
    }

    func testNoTrashFolderMeansAnEmptyTrash() {
        XCTAssertEqual(store.trash(), [])
    }

    func testRestoreBringsBackTheMostRecentUnderItsOldName() throws {
        try store.save(SurveyDocument(records: [Record.sample(first: "Old")]), as: "Older")
        try store.delete("Older", at: date)
        try store.save(SurveyDocument(records: [Record.sample(first: "New")]), as: "Newer")
        try store.saveDraft(Record.sample(first: "Half"), for: "Newer", in: .standard)
        try store.delete("Newer", at: date.addingTimeInterval(1))
        XCTAssertEqual(try store.restore(at: Date()), "Newer")
        XCTAssertEqual(try store.load("Newer").get().records, [Record.sample(first: "New")])
        XCTAssertEqual(store.loadDraft(for: "Newer"), Record.sample(first: "Half"))
        XCTAssertEqual(store.trash().map(\.name), ["Older"])
        XCTAssertEqual(try store.restore(at: Date()), "Older")
        XCTAssertEqual(try trashContents(), [])
    }

    func testRestoreUnderATakenNameAddsANumber() throws {
        try store.save(SurveyDocument(records: [Record.sample(first: "Gone")]), as: "Field")
        try store.delete("Field", at: date)
        try store.save(SurveyDocument(), as: "FIELD")
        try store.save(SurveyDocument(), as: "Field 2")
        XCTAssertEqual(try store.restore(at: Date()), "Field 3")
        XCTAssertEqual(try store.load("Field 3").get().records, [Record.sample(first: "Gone")])
        XCTAssertEqual(try store.documentNames(), ["FIELD", "Field 2", "Field 3"])
    }

    func testRestoreByNameTakesThatNamesMostRecentDeletion() throws {
        try store.save(SurveyDocument(records: [Record.sample(first: "1")]), as: "A")
        try store.delete("A", at: date)
        try store.save(SurveyDocument(records: [Record.sample(first: "2")]), as: "A")
        try store.delete("A", at: date.addingTimeInterval(5))
        try store.save(SurveyDocument(), as: "B")
        try store.delete("B", at: date.addingTimeInterval(10))
        XCTAssertEqual(store.trashed(matching: " a.plist")?.fileName, "A (deleted 2024-03-05 09.07.07).plist")
        XCTAssertEqual(try store.restore(" a.plist", at: Date()), "A")
        XCTAssertEqual(try store.load("A").get().records, [Record.sample(first: "2")])
        XCTAssertEqual(store.trash().map(\.name), ["B", "A"])
    }

    func testRestoreFromAnEmptyTrashOrAnAbsentName() throws {
        XCTAssertThrowsError(try store.restore(at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("The trash is empty"))
        }
        XCTAssertThrowsError(try store.restore("A", at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("The trash is empty"))
        }
        try store.save(SurveyDocument(), as: "A")
        try store.delete("A", at: date)
        XCTAssertThrowsError(try store.restore("Zed", at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("Nothing named “Zed” in the trash"))
        }
    }

    func testDeletingTheLongestNameStillFits() throws {
        let name = try store.create(named: String(repeating: "山", count: 66) + "xx")
        try store.saveDraft(Record.sample(), for: name, in: .standard)
        try store.save(SurveyDocument(), as: "spare")
        try store.delete(name, at: date)
        try store.create(named: name)
        try store.saveDraft(Record.sample(), for: name, in: .standard)
        XCTAssertTrue(try store.delete(name, at: date).hasSuffix(") 2.plist"))
        XCTAssertEqual(try store.restore(at: Date()), name)
        XCTAssertEqual(store.loadDraft(for: name), Record.sample())
    }
}
