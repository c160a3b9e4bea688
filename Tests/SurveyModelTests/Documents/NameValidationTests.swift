import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class NameValidationTests: XCTestCase {
    private func validate(_ raw: String) -> Result<String, DocumentError> {
        DocumentStore.validateName(raw)
    }

    func testCleaning() {
        XCTAssertEqual(validate("Survey"), .success("Survey"))
        XCTAssertEqual(validate("  Survey 2  "), .success("Survey 2"))
        XCTAssertEqual(validate("Survey.plist"), .success("Survey"))
        XCTAssertEqual(validate("Survey.PLIST"), .success("Survey"))
        XCTAssertEqual(validate(" Survey .plist "), .success("Survey"))
        XCTAssertEqual(validate("山田 survey"), .success("山田 survey"))
        XCTAssertEqual(validate("a.b"), .success("a.b"))
    }

    func testRefusals() {
        XCTAssertEqual(validate(""), .failure(DocumentError("A document name cannot be empty")))
        XCTAssertEqual(validate(" \t "), .failure(DocumentError("A document name cannot be empty")))
        XCTAssertEqual(validate(".plist"), .failure(DocumentError("A document name cannot be empty")))
        XCTAssertEqual(validate("a/b"), .failure(DocumentError("A document name cannot contain \"/\"")))
        XCTAssertEqual(validate(".hidden"), .failure(DocumentError("A document name cannot start with \".\"")))
        XCTAssertEqual(validate(".."), .failure(DocumentError("A document name cannot start with \".\"")))
        XCTAssertEqual(validate("a\u{0}b"), .failure(DocumentError("A document name cannot contain control characters")))
        XCTAssertEqual(validate("a\nb"), .failure(DocumentError("A document name cannot contain control characters")))
        XCTAssertEqual(validate("a\u{7F}"), .failure(DocumentError("A document name cannot contain control characters")))
        XCTAssertEqual(validate("a\tb"), .failure(DocumentError("A document name cannot contain control characters")))
        XCTAssertEqual(validate("a\u{FFFF}"), .failure(DocumentError("A document name cannot contain control characters")))
    }

    func testLengthLimits() {
        XCTAssertEqual(validate(String(repeating: "x", count: 100)), .success(String(repeating: "x", count: 100)))
        XCTAssertEqual(validate(String(repeating: "x", count: 101)),
                       .failure(DocumentError("A document name is limited to 100 characters")))
        // 67 three-byte characters = 201 bytes, under 100 characters.
        XCTAssertEqual(validate(String(repeating: "山", count: 66)), .success(String(repeating: "山", count: 66)))
        guard case .failure(let error) = validate(String(repeating: "山", count: 67)) else {
            return XCTFail("201 bytes should be refused")
        }
        XCTAssertTrue(error.message.hasPrefix("A document name is limited to 200 bytes"), error.message)
    }

    func testLongestNameCanBeSavedWithDraftAndTemporaryFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DocumentStore(folder: folder)
        let name = try validate(String(repeating: "山", count: 66) + "xx").get()
        XCTAssertEqual(try store.prepare(requested: name), name)
        try store.saveDraft(Record.sample(), for: name, in: .standard)
        XCTAssertEqual(store.loadDraft(for: name), Record.sample())
    }
}
