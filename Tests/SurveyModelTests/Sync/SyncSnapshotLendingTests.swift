import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A sync changes the ledger it read without a second copy of it (the snapshot lends it
/// out), and compares a survey with its base without copying either.
final class SyncSnapshotLendingTests: TemporaryFolderTestCase {
    private func prepared() throws -> DocumentStore.SyncSnapshot {
        try store.save(SurveyDocument(records: [Record(["instanceID": .string("uuid:a"), "age": .integer(3)])]), as: "Field")
        var ledger = SyncLedger()
        ledger.pullCursor = 5
        ledger.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(3)], revision: SyncRevision(1))
        try store.writeLedger(ledger, for: "Field")
        return try store.syncSnapshot(of: "Field")
    }

    func testALentLedgerComesBackWhenNothingIsCommitted() throws {
        var snapshot = try prepared()
        let before = snapshot.state.ledger
        let lent = snapshot.lendLedger()
        XCTAssertTrue(snapshot.ledgerLent)
        XCTAssertEqual(snapshot.state.ledger, SyncLedger(), "the snapshot no longer holds it")
        let state = SyncState(records: snapshot.state.records, deleted: snapshot.state.deleted, ledger: lent)
        XCTAssertNil(try store.committed(state, over: snapshot, ledgerChanged: false, at: Date()), "nothing written")
        snapshot.takeBack(lent)
        XCTAssertFalse(snapshot.ledgerLent)
        XCTAssertEqual(snapshot.state.ledger, before)
    }

    func testALentLedgerSaidToHaveChangedIsWritten() throws {
        var snapshot = try prepared()
        var ledger = snapshot.lendLedger()
        ledger.pullCursor = 9
        let state = SyncState(records: snapshot.state.records, deleted: snapshot.state.deleted, ledger: ledger)
        let written = try XCTUnwrap(try store.committed(state, over: snapshot, ledgerChanged: true, at: Date()))
        XCTAssertEqual(written.state.ledger.pullCursor, 9)
        XCTAssertFalse(written.ledgerLent)
        XCTAssertEqual(try store.syncLedger(for: "Field").pullCursor, 9)
    }

    /// Compared in place around the id's entry: equal answers wherever the id sorts, a
    /// change in any value, and answers packed out of order (as a file may list them) still
    /// compared by value.
    func testASurveyIsComparedWithItsBaseAroundItsID() {
        let base = SyncLedger.Version(answers: ["age": .integer(3), "zz": .string("last"), "a": .string("first")], revision: nil)
        let survey = Record(["instanceID": .string("uuid:0123456789abcdef0123456789abcdef0123"), "age": .integer(3),
                             "zz": .string("last"), "a": .string("first")])
        XCTAssertTrue(base.holdsSameAnswers(as: survey))
        var changed = survey
        changed["zz"] = .string("other")
        XCTAssertFalse(base.holdsSameAnswers(as: changed))
        var extra = survey
        extra["new"] = .integer(1)
        XCTAssertFalse(base.holdsSameAnswers(as: extra))
        XCTAssertFalse(base.holdsSameAnswers(as: Record(["age": .integer(3)])))
        XCTAssertTrue(SyncLedger.Version(answers: [:], revision: nil).holdsSameAnswers(as: Record(["instanceID": .string("uuid:x")])))
        // The same entries in reverse order: not the bytes packing makes, the same answers.
        var reversed: [UInt8] = []
        for key in ["zz", "instanceID", "age", "a"] {
            PackedAnswers.appendKey(key, to: &reversed)
            PackedAnswers.appendValue(survey[key]!, to: &reversed)
        }
        XCTAssertNotEqual(reversed, survey.packed)
        XCTAssertTrue(base.holdsSameAnswers(as: Record(packed: reversed)))
    }
}
