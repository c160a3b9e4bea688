import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class CreateDocumentTests: TemporaryFolderTestCase {
    func testCreatesAnEmptyArrayDocument() throws {
        XCTAssertEqual(try store.create(named: "  Market Street.plist "), "Market Street")
        XCTAssertEqual(try folderContents(), ["Market Street.plist"])
        let text = try String(contentsOf: store.url(for: "Market Street"), encoding: .utf8)
        XCTAssertTrue(text.contains("<array/>"), text)
        XCTAssertEqual(try store.load("Market Street").get(), SurveyDocument())
    }

    func testCreatesTheFolderWhenMissing() throws {
        let nested = DocumentStore(folder: folder.appendingPathComponent("a/b"))
        XCTAssertEqual(try nested.create(named: "One"), "One")
        XCTAssertEqual(try nested.documentNames(), ["One"])
    }

    func testStoresTheComposedForm() throws {
        let name = try store.create(named: "Cafe\u{301}")
        XCTAssertEqual(Array(name.utf8), Array("Caf\u{E9}".utf8))
        XCTAssertEqual(try folderContents(), ["Caf\u{E9}.plist"])
    }

    func testRefusesInvalidNamesWithTheValidationMessage() throws {
        for (raw, message) in [("", "A document name cannot be empty"),
                               ("a/b", "A document name cannot contain \"/\""),
                               (".hidden", "A document name cannot start with \".\""),
                               ("a\u{7}", "A document name cannot contain control characters"),
                               (String(repeating: "x", count: 101), "A document name is limited to 100 characters")] {
            XCTAssertThrowsError(try store.create(named: raw), raw.debugDescription) { error in
                XCTAssertEqual(error as? DocumentError, DocumentError(message))
            }
        }
        XCTAssertEqual(try folderContents(), [])
    }

    func testRefusesANameTakenInAnotherCaseOrComposition() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Field")
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Cafe\u{301}")
        XCTAssertThrowsError(try store.create(named: "FIELD")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document named “Field” already exists"))
        }
        XCTAssertThrowsError(try store.create(named: "Field")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document named “Field” already exists"))
        }
        XCTAssertThrowsError(try store.create(named: "caf\u{E9}")) { error in
            XCTAssertEqual((error as? DocumentError)?.message, "A document named “Cafe\u{301}” already exists")
        }
        XCTAssertEqual(try store.load("Field").get().records.count, 1, "nothing overwritten")
        XCTAssertEqual(try folderContents().count, 2)
    }

    func testNeverReplacesAFileInTheWay() throws {
        try FileManager.default.createDirectory(at: store.url(for: "Blocked"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try store.create(named: "Blocked")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document named “Blocked” already exists"))
        }
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.url(for: "Blocked").path, isDirectory: &isFolder))
        XCTAssertTrue(isFolder.boolValue)
        XCTAssertEqual(try folderContents(), ["Blocked.plist"], "no temporary file left behind")
    }
}
