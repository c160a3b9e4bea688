import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class DocumentSummaryTests: TemporaryFolderTestCase {
    func testSummaryOfAReadableDocument() throws {
        try store.save(SurveyDocument(records: [Record.sample(), Record.sample(first: "B")]), as: "Two")
        let mtime = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: store.url(for: "Two").path)
        let size = try Data(contentsOf: store.url(for: "Two")).count
        XCTAssertEqual(store.summary(of: "Two"),
                       DocumentSummary(name: "Two", recordCount: 2, problem: nil, modified: mtime, byteSize: size))
    }

    func testAnUnreadableDocumentIsListedWithItsProblem() throws {
        try Data("garbage".utf8).write(to: store.url(for: "Broken"))
        let summary = try XCTUnwrap(store.summary(of: "Broken"))
        XCTAssertNil(summary.recordCount)
        XCTAssertEqual(summary.byteSize, 7)
        XCTAssertNotNil(summary.modified)
        XCTAssertTrue(summary.problem?.hasPrefix("Broken.plist: not a property list") == true, summary.problem ?? "nil")
    }

    func testMissingDocumentHasNoSummary() {
        XCTAssertNil(store.summary(of: "Missing"))
    }

    func testSummariesAreSortedLikeDocumentNames() throws {
        for name in ["b 10", "B 9", "alpha"] { try store.save(SurveyDocument(), as: name) }
        try store.saveDraft(Record.sample(), for: "alpha", in: .standard)
        XCTAssertEqual(store.summaries().map(\.name), ["alpha", "B 9", "b 10"])
        XCTAssertEqual(store.summaries().map(\.recordCount), [0, 0, 0])
    }

    func testAMissingFolderHasNoSummaries() {
        XCTAssertEqual(DocumentStore(folder: folder.appendingPathComponent("missing")).summaries(), [])
    }
}
