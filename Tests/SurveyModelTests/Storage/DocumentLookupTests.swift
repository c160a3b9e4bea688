import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class DocumentLookupTests: TemporaryFolderTestCase {
    private func make(_ names: String...) throws {
        for name in names { try store.save(SurveyDocument(), as: name) }
    }

    func testExistsIsExactAndIgnoresFoldersAndHiddenFiles() throws {
        try make("Field")
        try FileManager.default.createDirectory(at: store.url(for: "Folder"), withIntermediateDirectories: false)
        try store.saveDraft(Record.sample(), for: "Ghost", in: .standard)
        XCTAssertTrue(store.exists("Field"))
        XCTAssertFalse(store.exists("Folder"))
        XCTAssertFalse(store.exists("Ghost"), "a draft alone is not a document")
        XCTAssertFalse(store.exists(""))
        XCTAssertFalse(store.exists("../Field"))
    }

    func testExistingNameMatchesTrimmedSuffixedFoldedAndNormalised() throws {
        try make("Caf\u{E9}", "Field")
        XCTAssertEqual(store.existingName(matching: "Field"), "Field")
        XCTAssertEqual(store.existingName(matching: "  FIELD.plist "), "Field")
        XCTAssertEqual(store.existingName(matching: "cafe\u{301}"), "Caf\u{E9}", "NFD typed, NFC on disk")
        XCTAssertNil(store.existingName(matching: "Fields"))
        XCTAssertNil(store.existingName(matching: "   "))
    }

    func testExistingNameReturnsTheSpellingOnDisk() throws {
        try make("Cafe\u{301}")
        let found = try XCTUnwrap(store.existingName(matching: "Caf\u{E9}"))
        XCTAssertEqual(Array(found.utf8), Array("Cafe\u{301}".utf8), "the NFD bytes that are on disk")
        XCTAssertTrue(store.exists(found))
    }

    func testExactSpellingWinsWhenTwoDiffer() throws {
        try make("notes", "Notes")
        XCTAssertEqual(store.existingName(matching: "Notes"), "Notes")
        XCTAssertEqual(store.existingName(matching: "notes"), "notes")
    }

    func testNextUntitledNameCountsUpAndComparesFolded() throws {
        XCTAssertEqual(store.nextUntitledName(), "Untitled")
        try make("untitled")
        XCTAssertEqual(store.nextUntitledName(), "Untitled 2")
        try make("UNTITLED 2", "Untitled 3")
        XCTAssertEqual(store.nextUntitledName(), "Untitled 4")
    }

    func testNextUntitledNameSkipsANonDocumentInTheWay() throws {
        try FileManager.default.createDirectory(at: store.url(for: "Untitled"), withIntermediateDirectories: false)
        XCTAssertEqual(store.nextUntitledName(), "Untitled 2")
    }

    func testUntitledNamesSortNumerically() throws {
        try make("Untitled")
        for _ in 2...10 { try store.create(named: store.nextUntitledName()) }
        let names = try store.documentNames()
        XCTAssertEqual(names.count, 10)
        XCTAssertEqual(Array(names.prefix(3)), ["Untitled", "Untitled 2", "Untitled 3"])
        XCTAssertEqual(names.last, "Untitled 10", "\"Untitled 2\" sorts before \"Untitled 10\"")
    }

    func testNeighbourIsNextElsePreviousElseNil() {
        let names = ["A", "B", "C"]
        XCTAssertEqual(DocumentName.neighbour(of: "A", in: names), "B", "first -> next")
        XCTAssertEqual(DocumentName.neighbour(of: "B", in: names), "C", "middle -> next")
        XCTAssertEqual(DocumentName.neighbour(of: "C", in: names), "B", "last -> previous")
        XCTAssertNil(DocumentName.neighbour(of: "A", in: ["A"]), "only one -> nothing")
    }

    func testNeighbourOfANameNotInTheList() {
        XCTAssertEqual(DocumentName.neighbour(of: "Bb", in: ["A", "C"]), "C")
        XCTAssertEqual(DocumentName.neighbour(of: "Z", in: ["A", "C"]), "C")
        XCTAssertNil(DocumentName.neighbour(of: "Z", in: []))
    }
}
