import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A second hostile review of the ledger's journal (ab9ee6a, 96d5fa6) and of the ledger read in
/// one walk per entry (e5affbc).
final class LedgerJournalReview2Tests: TemporaryFolderTestCase {
    // MARK: - The digest of a ledger of 64 to 128 KB

    /// The variable that makes a run of this test the child that reads the ledger.
    private static let childFolder = "LEDGER_JOURNAL_REVIEW2_FOLDER"

    // FAILS TODAY: `SyncLedgerJournal.firstLine(token:ledger:)` (SyncLedgerJournal.swift:42-54)
    // reads a ledger of at most 128 KB whole (`want` = its size) into a buffer of 64 KB: `pread`
    // writes past the buffer's end (a heap overflow), then `buffer[..<want]` traps
    // ("Array index is out of range", line 54). Every reader of a ledger that has a token
    // (every ledger `writeLedger` wrote) asks for the digest (`withJournal`,
    // DocumentStore+Sync.swift:108), journal or not, so a document whose ledger is 64 to 128 KB
    // (some 120 to 350 surveys synced) crashes its every sync, `survey conflicts`, `resolve`,
    // and `survey merge` of a stick holding one. The read runs in a child (this test run again),
    // so the crash fails this test and not the whole run.
    func testALedgerOf64To128KilobytesIsRead() throws {
        if let path = ProcessInfo.processInfo.environment[Self.childFolder] {
            // The child: reads the ledger its parent wrote.
            let read = try DocumentStore(folder: URL(fileURLWithPath: path)).syncLedger(for: "Field")
            XCTAssertEqual(read.bases.count, Self.midSizedSurveys)
            return
        }
        var ledger = SyncLedger()
        ledger.pullCursor = 5
        for i in 0..<Self.midSizedSurveys {
            ledger.bases["uuid:\(i)"] = SyncLedger.Version(answers: ["age": .integer(i), "name": .string("someone \(i)")],
                                                           revision: SyncRevision(1))
        }
        try store.writeLedger(ledger, for: "Field")
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: store.syncURL(for: "Field").path)[.size] as? Int)
        XCTAssertTrue((64 << 10) < size && size <= (128 << 10), "a ledger of \(size) bytes")

        var environment = ProcessInfo.processInfo.environment
        environment[Self.childFolder] = folder.path
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = try ChildProcess.run([me, "SurveyModelTests.LedgerJournalReview2Tests/testALedgerOf64To128KilobytesIsRead"],
                                         environment: environment)
        XCTAssertEqual(child.status, 0, "reading a ledger of \(size) bytes: \(Self.crashLine(child.errors + child.output))")
        XCTAssertTrue(child.output.contains("Executed 1 test, with 0 failures") || child.errors.contains("Executed 1 test, with 0 failures"),
                      "the child ran the read")
    }

    private static let midSizedSurveys = 350

    private static func crashLine(_ text: String) -> String {
        text.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("error:") }.map(String.init) ?? "(no message)"
    }
}
