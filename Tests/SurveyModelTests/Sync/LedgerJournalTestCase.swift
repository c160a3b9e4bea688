import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A folder whose ledger commits of a few surveys go through the ledger's journal, as from a
/// 1 MB ledger (`DocumentStore.ledgerJournaledFrom` lowered to 0 here), and the steps the
/// journal's tests share.
class LedgerJournalTestCase: TemporaryFolderTestCase {
    private var saved: (from: Int64, floor: Int64) = (0, 0)

    override func setUp() {
        super.setUp()
        saved = (DocumentStore.ledgerJournaledFrom, DocumentStore.ledgerJournalFloor)
        DocumentStore.ledgerJournaledFrom = 0
    }

    override func tearDown() {
        (DocumentStore.ledgerJournaledFrom, DocumentStore.ledgerJournalFloor) = saved
        super.tearDown()
    }

    func survey(_ id: String, _ age: Int) -> Record {
        Record(["instanceID": .string(id), "age": .integer(age)])
    }

    /// "Field" in `store` with three surveys, each with a base at revision 1 and an owner,
    /// written whole.
    func prepared(in store: DocumentStore) throws -> DocumentStore.SyncSnapshot {
        try store.save(SurveyDocument(records: [survey("uuid:a", 1), survey("uuid:b", 2), survey("uuid:c", 3)]), as: "Field")
        var ledger = SyncLedger()
        ledger.pullCursor = 5
        ledger.role = "ana"
        for (id, age) in [("uuid:a", 1), ("uuid:b", 2), ("uuid:c", 3)] {
            ledger.bases[id] = SyncLedger.Version(answers: ["age": .integer(age)], revision: SyncRevision(1))
            ledger.owners[id] = "ana"
        }
        try store.writeLedger(ledger, for: "Field")
        return try store.syncSnapshot(of: "Field")
    }

    /// Commits `change` of the snapshot's ledger (lent, as a sync lends it) to `store` and
    /// returns the new snapshot.
    @discardableResult
    func commit(_ snapshot: DocumentStore.SyncSnapshot, in store: DocumentStore,
                _ change: (inout SyncLedger) -> Void) throws -> DocumentStore.SyncSnapshot {
        var snapshot = snapshot
        var ledger = snapshot.lendLedger()
        change(&ledger)
        let state = SyncState(records: snapshot.state.records, deleted: snapshot.state.deleted, ledger: ledger)
        return try XCTUnwrap(try store.committed(state, over: snapshot, ledgerChanged: true, at: Date()))
    }
}
