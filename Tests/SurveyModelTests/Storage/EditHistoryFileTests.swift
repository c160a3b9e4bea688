import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 31: the laptop's edit history file. Lines round-trip (members' paths, answers
/// absent on a side, a reason, text needing escapes); a line cut short or written by hand is
/// passed over and counted; one survey's lines are found among many; a write refused by the
/// file system leaves the lines there as they were.
final class EditHistoryFileTests: TemporaryFolderTestCase {
    private func entry(_ id: String, _ changes: [AnswerChange], reason: String? = nil, ms: Int = 1_780_000_000_123) -> EditHistoryEntry {
        EditHistoryEntry(survey: id, at: Date(timeIntervalSince1970: Double(ms) / 1000), by: "ana", changes: changes, reason: reason)
    }

    func testLinesRoundTripAndATornLineIsPassedOver() throws {
        try store.save(SurveyDocument(), as: "Field")
        let age = AnswerChange(path: SyncFieldPath(text: "member[2]/age")!, old: .integer(30), new: .integer(31))
        let added = AnswerChange(path: SyncFieldPath(text: "phone")!, old: nil, new: .string("555 \"0101\"\nx"))
        let first = entry("uuid:a", [age, added], reason: "misread, then fixed")
        let second = entry("uuid:b", [AnswerChange(path: SyncFieldPath(text: "name")!, old: .string("Bo"), new: nil)])
        try store.appendHistory([first, second], for: "Field")
        XCTAssertFalse(first.jsonLine.contains("\n"), "one line each")
        // A crash cut the last line short, then a later change came.
        let url = store.historyURL(for: "Field")
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        handle.write(Data("{\"survey\": \"uuid:a\", \"at\": 17".utf8))
        try handle.close()
        let third = entry("uuid:a", [age], ms: 1_780_000_100_000)
        try store.appendHistory([third], for: "Field")
        let all = try store.editHistory(for: "Field")
        XCTAssertEqual(all.entries, [first, second, third], "the change after the torn line starts a line of its own")
        XCTAssertEqual(all.unreadable, 1)
        XCTAssertEqual(try store.editHistory(for: "Field", survey: "uuid:b").entries, [second])
        // plistlib's sister, Python's json, reads every good line.
        let python = try TestSupport.python("""
            import json, sys
            good = 0
            for line in open(sys.argv[1], encoding='utf-8'):
                try:
                    json.loads(line); good += 1
                except ValueError:
                    pass
            print(good)
            """, [url.path])
        XCTAssertEqual(python.trimmingCharacters(in: .whitespacesAndNewlines), "3")
    }

    /// A line over a megabyte (written by hand, or by something else) is counted once and
    /// passed over to its newline: what is left of it is never read as a line of its own,
    /// however much it looks like one, and the line after it is read.
    func testAnOverLongLineIsPassedOverToItsEnd() throws {
        try store.save(SurveyDocument(), as: "Field")
        let planted = entry("uuid:a", [AnswerChange(path: SyncFieldPath(text: "age")!, old: .integer(1), new: .integer(99))])
        let real = entry("uuid:a", [AnswerChange(path: SyncFieldPath(text: "age")!, old: .integer(1), new: .integer(2))])
        for length in [(1 << 20) + 10, 3 << 20] {
            var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
            bytes += Array((planted.jsonLine + "\n" + real.jsonLine + "\n").utf8)
            try Data(bytes).write(to: store.historyURL(for: "Field"))
            let read = try store.editHistory(for: "Field")
            XCTAssertEqual(read.entries, [real], "\(length)")
            XCTAssertEqual(read.unreadable, 1, "\(length)")
        }
    }

    func testAWriteRefusedLeavesTheLinesAsTheyWere() throws {
        try store.save(SurveyDocument(), as: "Field")
        let one = entry("uuid:a", [AnswerChange(path: SyncFieldPath(text: "age")!, old: .integer(1), new: .integer(2))])
        try store.appendHistory([one], for: "Field")
        let before = try Data(contentsOf: store.historyURL(for: "Field"))
        for operation in [FileSystem.Operation.open, .write] {
            let failing = DocumentStore(folder: folder, fileSystem: .failing { op, _ in op == operation ? ENOSPC : nil })
            XCTAssertThrowsError(try failing.appendHistory([one], for: "Field"), "\(operation)")
            XCTAssertEqual(try Data(contentsOf: store.historyURL(for: "Field")), before, "\(operation)")
        }
    }
}
