import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
@testable import SurveyStorage
import SurveyTestSupport

/// Issue 28: a sync of a few surveys appends their ledger entries to `.Field.sync-journal`
/// instead of writing every base again, at the size where it does so by itself (a ledger of
/// 1 MB and more, here 3,000 surveys), and the team goes on from what the journal holds:
/// edits, a conflict kept and settled, a teammate's pull.
final class LedgerJournalSyncTests: DatabaseTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // The size at which a ledger is journaled as shipped (DatabaseTestCase lowers it to 0).
        DocumentStore.ledgerJournaledFrom = 1 << 20
    }

    private func record(_ i: Int) -> Record {
        Record([Record.instanceIDKey: .string("uuid:r\(i)"), "name": .string("Person \(i) of the household in the village"),
                "village": .string("Mathare"), "age": .integer(i % 90)])
    }

    func testASyncOfAFewEditsAppendsToTheJournalAndTheTeamGoesOnFromIt() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptop((0..<3_000).map(record))
        XCTAssertEqual(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 3_000)
        let ledgerURL = a.syncURL(for: "Field")
        let journal = a.folder.appendingPathComponent(".Field.sync-journal")
        XCTAssertGreaterThan(try Data(contentsOf: ledgerURL).count, 1 << 20, "a ledger the journal is used for")
        let ledgerBytes = try Data(contentsOf: ledgerURL)

        // Three edits go out: the ledger's file stays, their new bases are in the journal.
        for i in [3, 1_000, 2_499] { try edit(a, "uuid:r\(i)") { $0["age"] = .integer(100 + i) } }
        XCTAssertEqual(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 3)
        XCTAssertEqual(try Data(contentsOf: ledgerURL), ledgerBytes)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal.path))
        XCTAssertEqual(try a.syncLedger(for: "Field").bases["uuid:r1000"]?.revision, SyncRevision(2))
        // Nothing waits: the next sync sends nothing again.
        XCTAssertEqual(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() }).message,
                       "Synced “Field”: 0 in, 0 out")

        // Bruno pulls everything (his ledger written whole), then both change r3's answer.
        let b = try laptop()
        XCTAssertEqual(try DocumentSync.run(store: b, document: "Field", target: target(as: bruno), device: "B", at: { Date() }).pulled, 3_000)
        try edit(a, "uuid:r3") { $0["village"] = .string("Kibera") }
        XCTAssertEqual(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 1)
        // A survey of Ana's that Bruno may not change: he sees it, and her change comes in.
        let pulled = try DocumentSync.run(store: b, document: "Field", target: target(as: bruno), device: "B", at: { Date() })
        XCTAssertEqual(pulled.pulled, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: b.folder.appendingPathComponent(".Field.sync-journal").path))
        let mine = try b.load("Field").get().records.first { $0.instanceID == "uuid:r3" }
        XCTAssertEqual(mine?["village"], .string("Kibera"))
        XCTAssertEqual(try b.syncLedger(for: "Field").bases["uuid:r3"]?.answers["village"], .string("Kibera"))
        XCTAssertEqual(try b.syncLedger(for: "Field").owners["uuid:r3"], ana)
    }
}
