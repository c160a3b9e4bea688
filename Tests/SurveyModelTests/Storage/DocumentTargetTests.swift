import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `target(requested:remembered:)` picks what the app would open, but never creates.
final class DocumentTargetTests: TemporaryFolderTestCase {
    func testWithoutDocumentsNothingIsPickedOrCreated() throws {
        let missing = DocumentStore(folder: folder.appendingPathComponent("missing"))
        XCTAssertThrowsError(try missing.target(requested: nil, remembered: "Gone")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("There are no documents in \(missing.folder.path)"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.folder.path))
        XCTAssertThrowsError(try store.target(requested: nil, remembered: nil))
        XCTAssertEqual(try folderContents(), [])
    }

    func testRememberedThenFirstAsTheAppWould() throws {
        try store.save(SurveyDocument(), as: "B")
        try store.save(SurveyDocument(), as: "a")
        XCTAssertEqual(try store.target(requested: nil, remembered: "b"), .existing("B"))
        XCTAssertEqual(try store.target(requested: nil, remembered: "Gone"), .existing("a"))
        XCTAssertEqual(try store.target(requested: nil, remembered: nil), .existing("a"))
    }

    func testRequestedMatchesExistingElseIsANewValidName() throws {
        try store.save(SurveyDocument(), as: "Caf\u{E9}")
        XCTAssertEqual(try store.target(requested: "CAFE\u{301}.plist", remembered: nil), .existing("Caf\u{E9}"))
        XCTAssertEqual(try store.target(requested: "  New One ", remembered: "Caf\u{E9}"), .new("New One"))
        XCTAssertThrowsError(try store.target(requested: "a/b", remembered: nil)) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document name cannot contain \"/\""))
        }
        XCTAssertEqual(try store.documentNames(), ["Caf\u{E9}"])
    }

    func testAListedNameThatIsNotValidForNewDocumentsCanStillBeReached() throws {
        let odd = String(repeating: "x", count: 120)
        try store.save(SurveyDocument(), as: odd)
        XCTAssertEqual(try store.target(requested: odd, remembered: nil), .existing(odd))
    }
}
