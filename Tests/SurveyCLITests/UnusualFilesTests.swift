import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

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

    /// A file nested 10,000 arrays deep crashed (SIGSEGV) every command that read it, in
    /// Foundation's recursive reader; each now says why it cannot read it. `docs` lists it with
    /// the reason and the other documents; the others exit 1. JSON nested as deep likewise.
    func testAFileNestedTenThousandDeepIsRefusedByEveryCommandWithoutACrash() throws {
        let deep = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
            + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000) + "\n</plist>\n"
        try Data(deep.utf8).write(to: store.url(for: "Deep"))
        try store.save(records(2), as: "Fine")
        let outside = root.appendingPathComponent("Deep.plist")
        try Data(deep.utf8).write(to: outside)
        let json = root.appendingPathComponent("deep.json")
        try Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8).write(to: json)
        let reason = "Deep.plist: not a property list: nesting deeper than 512 levels"

        let docs = try survey("docs")
        XCTAssertEqual(docs.status, 0, docs.stderr)
        let lines = docs.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 3 else { return XCTFail(docs.stdout + docs.stderr) }
        XCTAssertTrue(lines[1].hasPrefix("Deep        ?  ") && lines[1].hasSuffix("  " + reason), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("Fine        2  "), lines[2])

        XCTAssertEqual(try survey("list", "--doc", "Deep"), Outcome(status: 1, stdout: "", stderr: "survey: \(reason)\n"))
        XCTAssertEqual(try survey("import", outside.path, "--doc", "Fine"),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(root.path)/\(reason)\n"))
        XCTAssertEqual(try survey("merge", outside.path, "--doc", "Fine", "--dry-run"),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(reason)\n"))
        XCTAssertEqual(try survey("import", json.path, "--doc", "Fine"),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(json.path): not JSON: nesting deeper than 512 levels at offset 512\n"))
        XCTAssertEqual(try store.load("Fine").get().records.count, 2, "nothing was imported or merged")
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Deep")), Data(deep.utf8), "the deep file is untouched")
    }
}
