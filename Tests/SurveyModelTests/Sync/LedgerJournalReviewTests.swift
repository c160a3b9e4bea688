import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A hostile review of the ledger's journal (1864bf7): ways a ledger change is lost, or a
/// journal is folded onto a ledger it does not extend. Every commit of a few surveys takes the
/// journal here (the size from which a ledger is journaled is lowered to 0).
final class LedgerJournalReviewTests: LedgerJournalTestCase {
    /// As `commit`, written whole (the journal not used), as a large change or a small ledger is.
    @discardableResult
    private func commitWhole(_ snapshot: DocumentStore.SyncSnapshot, in store: DocumentStore,
                             _ change: (inout SyncLedger) -> Void) throws -> DocumentStore.SyncSnapshot {
        let from = DocumentStore.ledgerJournaledFrom
        DocumentStore.ledgerJournaledFrom = .max
        defer { DocumentStore.ledgerJournaledFrom = from }
        return try commit(snapshot, in: store, change)
    }

    private func journal(in folder: URL) -> URL { folder.appendingPathComponent(".Field.sync-journal") }

    /// Was lost before the review of the journal (1864bf7): a crash mid-append leaves a chunk cut short at the journal's end; the next
    /// append (`SyncLedgerJournal.append`, not fresh: same token) writes its chunk after the torn
    /// bytes (lseek to the end), and every reader stops at the torn chunk
    /// (`SyncLedgerJournal.chunks`), so that commit, and every one after it until the next whole
    /// write, is silently lost to the next process: its base, conflict, owner, review, cursor.
    /// The next whole write, read from that, then removes the journal for good.
    func testACommitAfterACrashMidAppendIsReadBackByTheNextProcess() throws {
        let store = self.store
        let first = try commit(try prepared(in: store), in: store) { $0.pullCursor = 7 }
        let afterFirst = try Data(contentsOf: journal(in: folder))
        // A second commit whose append is cut short by a crash (power lost before its fdatasync).
        try commit(first, in: store) { $0.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(99)], revision: SyncRevision(2)) }
        let whole = try Data(contentsOf: journal(in: folder))
        try whole.prefix(afterFirst.count + (whole.count - afterFirst.count) / 2).write(to: journal(in: folder))

        // The next run: reads the ledger as the first commit left it (by design), then commits a
        // conflict and an owner, which the journal takes.
        let next = try store.syncSnapshot(of: "Field")
        XCTAssertEqual(next.state.ledger.pullCursor, 7)
        let conflict = SyncLedger.Conflict(theirs: SyncLedger.Version(answers: ["age": .integer(20)], revision: SyncRevision(2)),
                                           fields: [FieldConflict(path: SyncFieldPath([.key("age")]), base: .integer(2),
                                                                  mine: .integer(3), theirs: .integer(20))])
        let third = try commit(next, in: store) { ledger in
            ledger.conflicts["uuid:b"] = conflict
            ledger.owners["uuid:c"] = "bo"
            ledger.pullCursor = 12
        }
        XCTAssertEqual(third.state.ledger.conflicts["uuid:b"], conflict, "what the commit says is on disk")

        // What the next process reads.
        let read = try store.syncLedger(for: "Field")
        XCTAssertEqual(read.conflicts["uuid:b"], conflict, "the conflict committed after the crash is lost")
        XCTAssertEqual(read.owners["uuid:c"], "bo", "the owner committed after the crash is lost")
        XCTAssertEqual(read.pullCursor, 12, "the cursor committed after the crash is lost")
        XCTAssertEqual(read, third.state.ledger)
    }

    /// Was lost before the review of the journal (1864bf7): the token binding a journal to its ledger is `LINE-N`, LINE drawn once at
    /// the ledger's first write and N counted on at each whole write (`SyncLedger.FileToken.next`).
    /// Laptops set up from one copied folder (a supervisor's prepared folder) share LINE and count
    /// in step, so two different ledger files carry the same token. A journal of laptop A left
    /// beside laptop B's ledger (a USB stick's folder copied to again: B has no journal, so A's
    /// stays) is folded onto B's ledger: A's owners, bases and header (role, cursor) replace B's.
    /// `survey merge` of that stick then takes A's entries as B's.
    func testAnotherLaptopsJournalOfTheSameTokenIsNotFoldedOntoThisLedger() throws {
        let laptopA = DocumentStore(folder: folder.appendingPathComponent("A", isDirectory: true))
        let laptopB = DocumentStore(folder: folder.appendingPathComponent("B", isDirectory: true))
        let stick = folder.appendingPathComponent("stick", isDirectory: true)
        for url in [laptopA.folder, laptopB.folder, stick] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        // The folder prepared once and copied to both laptops.
        _ = try prepared(in: laptopA)
        for name in ["Field.plist", ".Field.sync.plist"] {
            try FileManager.default.copyItem(at: laptopA.folder.appendingPathComponent(name),
                                             to: laptopB.folder.appendingPathComponent(name))
        }
        // Each laptop syncs on its own: a whole write each.
        let a = try commitWhole(try laptopA.syncSnapshot(of: "Field"), in: laptopA) { $0.pullCursor = 10 }
        try commitWhole(try laptopB.syncSnapshot(of: "Field"), in: laptopB) { ledger in
            ledger.pullCursor = 20
            ledger.owners["uuid:a"] = "cy"
        }
        // Laptop A then journals a few surveys.
        try commit(a, in: laptopA) { ledger in
            ledger.owners["uuid:a"] = "bo"
            ledger.role = "dee"
            ledger.bases["uuid:b"] = SyncLedger.Version(answers: ["age": .integer(77)], revision: SyncRevision(9))
        }
        // A's copy goes on the stick, then B's over it (B has no journal to copy).
        for name in ["Field.plist", ".Field.sync.plist", ".Field.sync-journal"] {
            try FileManager.default.copyItem(at: laptopA.folder.appendingPathComponent(name), to: stick.appendingPathComponent(name))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal(in: laptopB.folder).path))
        for name in ["Field.plist", ".Field.sync.plist"] {
            try FileManager.default.removeItem(at: stick.appendingPathComponent(name))
            try FileManager.default.copyItem(at: laptopB.folder.appendingPathComponent(name), to: stick.appendingPathComponent(name))
        }
        let bLedger = try laptopB.syncLedger(for: "Field")
        XCTAssertEqual(try DocumentStore.readLedger(at: laptopA.syncURL(for: "Field")).fileToken.value, bLedger.fileToken.value,
                       "two different ledger files, one token")

        let onStick = try DocumentStore.readLedger(at: stick.appendingPathComponent(".Field.sync.plist"))
        XCTAssertEqual(onStick.owners["uuid:a"], "cy", "laptop A's journal was folded onto laptop B's ledger")
        XCTAssertEqual(onStick.role, "ana")
        XCTAssertEqual(onStick.pullCursor, 20)
        XCTAssertEqual(onStick.bases["uuid:b"]?.revision, SyncRevision(1))
        XCTAssertEqual(onStick, bLedger)
    }

    /// Was lost before the review of the journal (1864bf7): the ledger's journal of "Field" is `.Field.sync-journal`
    /// (DocumentCompanion.swift:90), which is also the write-ahead journal (`.NAME.journal`,
    /// DocumentCompanion.swift:89) of a document named "Field.sync", a name survey accepts. The
    /// app crashed on "Field.sync" with a survey keyed into its journal but not yet into its
    /// `.plist`; "Field"'s next sync of a few surveys finds a journal that is not of its ledger's
    /// token (`SyncLedgerJournal.append`: fresh), truncates it and writes a ledger journal in its
    /// place: the keyed survey is gone. (The other way round, "Field.sync" no longer opens or
    /// syncs: `putBackJournal` refuses a journal survey did not write; and renaming or trashing
    /// "Field" takes "Field.sync"'s journal with it.)
    func testASyncOfOneDocumentNeverTouchesTheJournalOfAnotherNamedAfterIt() throws {
        let store = self.store
        _ = try prepared(in: store)
        try store.save(SurveyDocument(records: [survey("uuid:k1", 30)]), as: "Field.sync")
        let appJournal = store.journalURL(for: "Field.sync")
        do {
            // The app's journal of "Field.sync": a survey keyed, then the app killed.
            let journal = try XCTUnwrap(try DocumentJournal.open(at: appJournal, in: .live))
            try journal.append([.put(index: 1, record: survey("uuid:k2", 31))])
        }
        XCTAssertEqual(try store.loadWithJournal("Field.sync").get().records.count, 2, "the keyed survey is in the journal")

        try commit(try store.syncSnapshot(of: "Field"), in: store) { $0.owners["uuid:a"] = "bo" }
        XCTAssertEqual(try store.syncLedger(for: "Field").owners["uuid:a"], "bo")
        XCTAssertEqual(DocumentJournal.entries(at: appJournal), [.put(index: 1, record: survey("uuid:k2", 31))],
                       "the survey keyed into Field.sync was lost to Field's sync")
        XCTAssertEqual(try store.loadWithJournal("Field.sync").get().records.map(\.instanceID), ["uuid:k1", "uuid:k2"])
    }
}
