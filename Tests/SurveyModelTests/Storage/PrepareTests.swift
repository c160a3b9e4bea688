import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class PrepareTests: TemporaryFolderTestCase {
    func testMissingFolderIsCreatedWithUntitled() throws {
        let nested = DocumentStore(folder: folder.appendingPathComponent("a/b/survey"))
        XCTAssertEqual(try nested.prepare(requested: nil), "Untitled")
        XCTAssertEqual(try nested.documentNames(), ["Untitled"])
        XCTAssertEqual(try nested.load("Untitled").get(), SurveyDocument())
    }

    func testWithoutRequestOpensFirstSortedDocument() throws {
        try store.save(SurveyDocument(), as: "b 10")
        try store.save(SurveyDocument(), as: "B 9")
        XCTAssertEqual(try store.prepare(requested: nil), "B 9")
        XCTAssertEqual(try folderContents(), ["B 9.plist", "b 10.plist"])
    }

    func testRequestedNameIsCleanedAndCreatedOnce() throws {
        XCTAssertEqual(try store.prepare(requested: "  Field Day.plist "), "Field Day")
        XCTAssertEqual(try store.documentNames(), ["Field Day"])
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Field Day")
        XCTAssertEqual(try store.prepare(requested: "Field Day"), "Field Day")
        XCTAssertEqual(try store.load("Field Day").get().records.count, 1, "existing document not overwritten")
    }

    func testRequestedNameMatchesExistingByCaseAndNormalisation() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Caf\u{E9} Survey")
        XCTAssertEqual(try store.prepare(requested: "CAFE\u{301} survey"), "Caf\u{E9} Survey")
        XCTAssertEqual(try store.documentNames(), ["Caf\u{E9} Survey"])
    }

    func testExactMatchWinsOverFoldedMatch() throws {
        try store.save(SurveyDocument(), as: "notes")
        try store.save(SurveyDocument(), as: "Notes")
        XCTAssertEqual(try store.prepare(requested: "Notes"), "Notes")
        XCTAssertEqual(try store.prepare(requested: "notes"), "notes")
    }

    func testInvalidRequestedNamesThrowAndCreateNothing() throws {
        for bad in ["", "   ", ".plist", "a/b", ".hidden", "tab\u{1}", String(repeating: "x", count: 101)] {
            XCTAssertThrowsError(try store.prepare(requested: bad), bad.debugDescription) { error in
                XCTAssertTrue(error is DocumentError)
            }
        }
        XCTAssertEqual(try folderContents(), [])
    }

    func testFolderThatIsAFileIsAClearError() throws {
        let file = folder.appendingPathComponent("plain-file")
        try Data().write(to: file)
        XCTAssertThrowsError(try DocumentStore(folder: file).prepare(requested: nil)) { error in
            XCTAssertTrue((error as? DocumentError)?.message.hasPrefix("Could not create the folder ") == true, "\(error)")
        }
    }
}

final class PrepareRememberedTests: TemporaryFolderTestCase {
    func testOpensTheRememberedDocument() throws {
        for name in ["A", "B", "C"] { try store.save(SurveyDocument(), as: name) }
        XCTAssertEqual(try store.prepare(requested: nil, remembered: "B"), "B")
        XCTAssertEqual(try store.prepare(requested: nil, remembered: "b"), "B", "matched folded")
    }

    func testARememberedDocumentThatIsGoneFallsBackToTheFirstSilently() throws {
        for name in ["B", "C"] { try store.save(SurveyDocument(), as: name) }
        try store.save(SurveyDocument(), as: "Deleted")
        try store.delete("Deleted", at: Date())
        XCTAssertEqual(try store.prepare(requested: nil, remembered: "Deleted"), "B")
        XCTAssertEqual(try store.documentNames(), ["B", "C"], "nothing created or restored")
    }

    func testRememberedDocumentGoneAndNoOthersCreatesUntitled() throws {
        XCTAssertEqual(try store.prepare(requested: nil, remembered: "Gone"), "Untitled")
        XCTAssertEqual(try store.documentNames(), ["Untitled"])
    }

    func testRequestedWinsOverRemembered() throws {
        for name in ["A", "B"] { try store.save(SurveyDocument(), as: name) }
        XCTAssertEqual(try store.prepare(requested: "a", remembered: "B"), "A")
        XCTAssertEqual(try store.prepare(requested: "Fresh", remembered: "B"), "Fresh")
        XCTAssertEqual(try store.documentNames(), ["A", "B", "Fresh"])
    }

    func testRequestedNFDNameCreatesTheComposedFile() throws {
        XCTAssertEqual(Array(try store.prepare(requested: "Cafe\u{301}").utf8), Array("Caf\u{E9}".utf8))
        XCTAssertEqual(try folderContents(), ["Caf\u{E9}.plist"])
    }

    func testRememberedViaSessionMemoryAcrossRuns() throws {
        for name in ["A", "B"] { try store.save(SurveyDocument(), as: name) }
        let stateURL = folder.appendingPathComponent(".state/state.plist")
        var memory = SessionMemory(url: stateURL)
        memory.remember(document: "B", record: 1, in: folder)
        try memory.save()
        XCTAssertEqual(try store.prepare(requested: nil, remembered: SessionMemory(url: stateURL).lastDocument(in: folder)), "B")
    }
}
