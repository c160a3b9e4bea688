import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class RenameDocumentTests: TemporaryFolderTestCase {
    private func records(_ name: String) throws -> [Record] {
        Array(try store.load(name).get().records)
    }

    func testRenamesTheFileKeepingItsContent() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Old")
        XCTAssertEqual(try store.rename("Old", to: " New.plist ", at: Date()), "New")
        XCTAssertEqual(try folderContents(), ["New.plist"])
        XCTAssertEqual(try records("New"), [Record.sample()])
    }

    func testTheDraftMovesAlong() throws {
        try store.save(SurveyDocument(), as: "Old")
        try store.saveDraft(Record.sample(first: "Half"), for: "Old", in: .standard)
        try store.rename("Old", to: "New", at: Date())
        XCTAssertEqual(try folderContents(), [".New.draft.plist", "New.plist"])
        XCTAssertEqual(store.loadDraft(for: "New"), Record.sample(first: "Half"))
    }

    func testChangingOnlyTheCaseIsAllowed() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "field notes")
        try store.saveDraft(Record.sample(first: "Half"), for: "field notes", in: .standard)
        XCTAssertEqual(try store.rename("field notes", to: "Field Notes", at: Date()), "Field Notes")
        XCTAssertEqual(try folderContents(), [".Field Notes.draft.plist", "Field Notes.plist"])
        XCTAssertEqual(try records("Field Notes"), [Record.sample()])
        XCTAssertEqual(store.loadDraft(for: "Field Notes"), Record.sample(first: "Half"))
    }

    func testRenamingToTheSameNameDoesNothing() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Same")
        let before = try FileManager.default.attributesOfItem(atPath: store.url(for: "Same").path)[.systemFileNumber]
        XCTAssertEqual(try store.rename("Same", to: "  Same.plist", at: Date()), "Same")
        let after = try FileManager.default.attributesOfItem(atPath: store.url(for: "Same").path)[.systemFileNumber]
        XCTAssertEqual(try folderContents(), ["Same.plist"])
        XCTAssertEqual(before as? NSNumber, after as? NSNumber)
    }

    func testOtherCompositionOfTheSameNameDoesNothing() throws {
        try store.save(SurveyDocument(), as: "Caf\u{E9}")
        XCTAssertEqual(try store.rename("Caf\u{E9}", to: "Cafe\u{301}", at: Date()), "Caf\u{E9}")
        XCTAssertEqual(try folderContents(), ["Caf\u{E9}.plist"])
    }

    func testRefusesANameTakenByAnotherDocument() throws {
        try store.save(SurveyDocument(records: [Record.sample(first: "A")]), as: "A")
        try store.save(SurveyDocument(records: [Record.sample(first: "B")]), as: "Field")
        try store.save(SurveyDocument(), as: "Caf\u{E9}")
        for (target, message) in [("FIELD", "A document named “Field” already exists"),
                                  ("field", "A document named “Field” already exists"),
                                  ("CAFE\u{301}", "A document named “Caf\u{E9}” already exists")] {
            XCTAssertThrowsError(try store.rename("A", to: target, at: Date()), target) { error in
                XCTAssertEqual(error as? DocumentError, DocumentError(message))
            }
        }
        XCTAssertEqual(try folderContents(), ["A.plist", "Caf\u{E9}.plist", "Field.plist"])
        XCTAssertEqual(try records("Field"), [Record.sample(first: "B")])
    }

    func testCaseOnlyChangeIsRefusedWhenAnotherDocumentHasThatSpelling() throws {
        try store.save(SurveyDocument(), as: "notes")
        try store.save(SurveyDocument(), as: "Notes")
        XCTAssertThrowsError(try store.rename("notes", to: "NOTES", at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document named “Notes” already exists"))
        }
    }

    func testNeverOverwritesAFileThatIsNotADocument() throws {
        try store.save(SurveyDocument(), as: "A")
        try FileManager.default.createDirectory(at: store.url(for: "B"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try store.rename("A", to: "B", at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document named “B” already exists"))
        }
        XCTAssertTrue(store.exists("A"))
        XCTAssertEqual(try folderContents(), ["A.plist", "B.plist"])
    }

    func testMissingOldNameIsAnError() throws {
        XCTAssertThrowsError(try store.rename(" Gone.plist", to: "New", at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("“Gone” does not exist"))
        }
    }

    func testOldNameIsMatchedFolded() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try store.rename("FIELD", to: "Meadow", at: Date()), "Meadow")
        XCTAssertEqual(try store.documentNames(), ["Meadow"])
    }

    func testInvalidNewNameIsRefused() throws {
        try store.save(SurveyDocument(), as: "A")
        XCTAssertThrowsError(try store.rename("A", to: "x/y", at: Date())) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document name cannot contain \"/\""))
        }
        XCTAssertEqual(try folderContents(), ["A.plist"])
    }

    func testAStaleDraftInTheWayGoesToTheTrash() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.saveDraft(Record.sample(first: "Mine"), for: "A", in: .standard)
        try store.saveDraft(Record.sample(first: "Stale"), for: "B", in: .standard)
        try store.rename("A", to: "B", at: Date())
        XCTAssertEqual(store.loadDraft(for: "B"), Record.sample(first: "Mine"))
        let trashed = try FileManager.default.contentsOfDirectory(atPath: store.trashFolder.path)
        XCTAssertEqual(trashed.count, 1)
        XCTAssertTrue(trashed[0].hasPrefix(".B (deleted ") && trashed[0].hasSuffix(").draft.plist"), trashed[0])
        XCTAssertEqual(try folderContents(), [".B.draft.plist", ".trash", "B.plist"])
    }
}
