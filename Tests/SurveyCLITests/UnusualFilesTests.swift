import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import SurveyTestSupport
import SurveyModel

/// Files in the document folder that are not what their name says: too big to read, or
/// named with bytes that are not UTF-8. `survey docs` lists them with the reason.
final class UnusualFilesTests: CLITestCase {
    func testDocsListsAnOversizeFileWithItsReasonAndListRefusesIt() throws {
        try store.save(records(3), as: "Fine")
        let big = store.url(for: "Big")
        try Data().write(to: big)
        XCTAssertEqual(truncate(big.path, 2 << 30), 0)

        let outcome = try survey("docs")
        XCTAssertEqual(outcome.status, 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 3 else { return XCTFail(outcome.stdout) }
        XCTAssertTrue(lines[1].hasPrefix("Big         ?  "), lines[1])
        XCTAssertTrue(lines[1].hasSuffix("  Big.plist is 2.0 GB, more than survey opens (512 MB)"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("Fine        3  "), lines[2])

        XCTAssertEqual(try survey("list", "--doc", "Big"),
                       Outcome(status: 1, stdout: "", stderr: "survey: Big.plist is 2.0 GB, more than survey opens (512 MB)\n"))
    }

    func testANameThatIsNotUTF8IsListedAndCanBeRenamed() throws {
        let latin1 = Array("caf".utf8) + [0xE9] + Array(".plist".utf8)
        try RawFileNames.create(latin1, in: documents, contents: try records(2).propertyListData())

        let listed = try survey("docs")
        XCTAssertEqual(listed.status, 0)
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 2 else { return XCTFail(listed.stdout) }
        XCTAssertTrue(lines[1].hasPrefix("caf\u{FFFD}        2  "), lines[1])
        XCTAssertTrue(lines[1].contains("not valid UTF-8"), lines[1])

        let refused = try survey("add", "--doc", "caf\u{FFFD}", "--first", "A", "--last", "B")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("rename"), refused.stderr)
        XCTAssertEqual(RawFileNames.entries(of: documents), [latin1], "no second file")

        XCTAssertEqual(try survey("docs", "rename", "caf\u{FFFD}", "café"),
                       Outcome(status: 0, stdout: "Renamed “caf\u{FFFD}” to “café”\n", stderr: ""))
        XCTAssertEqual(RawFileNames.entries(of: documents), [Array("café.plist".utf8)])
        XCTAssertEqual(try store.load("café").get().records.count, 2)
    }
}
