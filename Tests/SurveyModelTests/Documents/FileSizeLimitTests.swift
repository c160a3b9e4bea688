import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A file is looked at before it is read whole: its size, then its first bytes. A 2 GB
/// sparse file named like a document must be refused at once, not read into memory.
final class FileSizeLimitTests: TemporaryFolderTestCase {
    private func makeSparse(_ name: String, bytes: off_t) throws -> URL {
        let url = store.url(for: name)
        try Data().write(to: url)
        XCTAssertEqual(truncate(url.path, bytes), 0)
        return url
    }

    func testAFileOverTheLimitIsRefusedWithItsSize() throws {
        _ = try makeSparse("Big", bytes: 2 << 30)
        guard case .failure(let error) = store.load("Big") else { return XCTFail("a 2 GB file must not load") }
        XCTAssertEqual(error.message, "Big.plist is 2.0 GB, more than survey opens (512 MB)")
        let summary = try XCTUnwrap(store.summary(of: "Big"))
        XCTAssertNil(summary.recordCount)
        XCTAssertEqual(summary.problem, "Big.plist is 2.0 GB, more than survey opens (512 MB)")
        XCTAssertEqual(summary.byteSize, 2 << 30)
    }

    func testAnOversizeDraftIsAnEmptyDraft() throws {
        try store.save(SurveyDocument(), as: "Doc")
        let draft = store.draftURL(for: "Doc")
        try Data().write(to: draft)
        XCTAssertEqual(truncate(draft.path, 2 << 30), 0)
        XCTAssertEqual(store.loadDraft(for: "Doc"), Record())
    }

    func testAFileThatDoesNotStartLikeAPropertyListIsRefusedByItsFirstBytes() throws {
        _ = try makeSparse("Zeros", bytes: 64 << 20)
        guard case .failure(let error) = store.load("Zeros") else { return XCTFail("zeros must not load") }
        XCTAssertEqual(error.message, "Zeros.plist: not a property list: it starts with 00 00 00 00")
        XCTAssertEqual(store.summary(of: "Zeros")?.problem, "Zeros.plist: not a property list: it starts with 00 00 00 00")
    }

    func testEveryPropertyListStartIsStillRead() throws {
        let body = "<plist version=\"1.0\"><array><dict><key>firstName</key><string>Ana</string></dict></array></plist>"
        let starts = ["", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "\u{FEFF}", " \n\t",
                      "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"]
        for start in starts {
            try Data((start + body).utf8).write(to: store.url(for: "Doc"))
            XCTAssertEqual(try store.load("Doc").get().records.count, 1, start)
        }
        let binary = try PropertyListSerialization.data(fromPropertyList: [["firstName": "Ana"]], format: .binary, options: 0)
        try binary.write(to: store.url(for: "Doc"))
        XCTAssertEqual(try store.load("Doc").get().records.count, 1)
        try Data().write(to: store.url(for: "Doc"))
        XCTAssertEqual(try store.load("Doc").get(), SurveyDocument())
    }
}
