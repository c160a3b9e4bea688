import Foundation
import XCTest
@testable import SurveyModel

/// `append(_:to:)`: all records in one save, to an existing document or a new one.
final class AppendTests: TemporaryFolderTestCase {
    func testAppendsToAnExistingDocumentKeepingItsRecords() throws {
        let old = Record(["firstName": .string("Old"), "notes": .string("kept")])
        try store.save(SurveyDocument(records: [old]), as: "Field")
        let count = try store.append([Record.sample(), Record.sample(first: "Bo")], to: .existing("Field"))
        XCTAssertEqual(count, 3)
        XCTAssertEqual(try store.load("Field").get().records, [old, Record.sample(), Record.sample(first: "Bo")])
        XCTAssertEqual(try folderContents(), ["Field.plist"], "no temporary file left")
    }

    func testANewDocumentIsWrittenWithTheRecords() throws {
        let nested = DocumentStore(folder: folder.appendingPathComponent("a/b"))
        XCTAssertEqual(try nested.append([Record.sample()], to: .new("Fresh")), 1)
        XCTAssertEqual(try nested.load("Fresh").get().records, [Record.sample()])
    }

    func testANewNameTakenMeanwhileIsRefusedAndTheOtherDocumentKept() throws {
        try store.save(SurveyDocument(records: [Record.sample(first: "Theirs")]), as: "fresh")
        XCTAssertThrowsError(try store.append([Record.sample()], to: .new("Fresh"))) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document named “fresh” already exists"))
        }
        XCTAssertEqual(try store.load("fresh").get().records, [Record.sample(first: "Theirs")])
    }

    func testAnUnreadableDocumentIsNeverReplaced() throws {
        let garbage = Data("garbage".utf8)
        try garbage.write(to: store.url(for: "Broken"))
        XCTAssertThrowsError(try store.append([Record.sample()], to: .existing("Broken")))
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Broken")), garbage)
    }
}
