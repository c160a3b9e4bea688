import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `.NAME.sync-journal`: a commit of a few surveys over a large ledger appends their entries
/// instead of writing every base again (issue 28), and every reader folds them in. Here the
/// size from which a ledger is journaled is lowered so a small folder takes that path.
final class SyncLedgerJournalTests: LedgerJournalTestCase {
    private var journalURL: URL { folder.appendingPathComponent(".Field.sync-journal") }

    private func prepared() throws -> DocumentStore.SyncSnapshot { try prepared(in: store) }

    @discardableResult
    private func commit(_ snapshot: DocumentStore.SyncSnapshot, _ change: (inout SyncLedger) -> Void) throws -> DocumentStore.SyncSnapshot {
        try commit(snapshot, in: store, change)
    }

    func testAFewSurveysChangedAreAppendedAndEveryReaderFoldsThemIn() throws {
        let snapshot = try prepared()
        let ledgerBytes = try Data(contentsOf: store.syncURL(for: "Field"))
        let first = try commit(snapshot) { ledger in
            ledger.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(10)], revision: SyncRevision(2))
            ledger.conflicts["uuid:b"] = SyncLedger.Conflict(
                theirs: SyncLedger.Version(answers: ["age": .integer(20)], revision: SyncRevision(2)),
                fields: [FieldConflict(path: SyncFieldPath([.key("age")]), base: .integer(2), mine: .integer(3), theirs: .integer(20))])
            ledger.reviews["uuid:c"] = SyncReview(.approved, comment: "ok")
            ledger.pullCursor = 9
            ledger.setAside(SetAsideRow(id: "uuid:bad", owner: "bo", reason: "its answers are not a JSON object"))
        }
        XCTAssertEqual(try Data(contentsOf: store.syncURL(for: "Field")), ledgerBytes, "the ledger's file is not written")
        XCTAssertTrue(FileManager.default.fileExists(atPath: journalURL.path))
        XCTAssertEqual(try store.syncLedger(for: "Field"), first.state.ledger)
        XCTAssertEqual(try DocumentStore.readLedger(at: store.syncURL(for: "Field")), first.state.ledger)
        XCTAssertEqual(try store.syncLedger(for: "Field").setAside.map(\.id), ["uuid:bad"])

        // A second commit: a conflict settled (its base taken), a survey's whole entry gone.
        let second = try commit(first) { ledger in
            ledger.bases["uuid:b"] = ledger.conflicts["uuid:b"]!.theirs
            ledger.conflicts["uuid:b"] = nil
            ledger.bases["uuid:c"] = nil
            ledger.owners["uuid:c"] = nil
            ledger.reviews["uuid:c"] = nil
        }
        let read = try store.syncLedger(for: "Field")
        XCTAssertEqual(read, second.state.ledger)
        XCTAssertNil(read.conflicts["uuid:b"])
        XCTAssertEqual(read.bases["uuid:b"]?.revision, SyncRevision(2))
        XCTAssertNil(read.bases["uuid:c"])
        XCTAssertNil(read.owners["uuid:c"])
        XCTAssertNil(read.reviews["uuid:c"])
        XCTAssertEqual(read.bases["uuid:a"]?.answers["age"], .integer(10), "the first commit's change stays")
        XCTAssertEqual(try Data(contentsOf: store.syncURL(for: "Field")), ledgerBytes)
        // Two chunks, each a small ledger file plistlib's format: header, then the surveys changed.
        let line = try XCTUnwrap(SyncLedgerJournal.firstLine(token: try XCTUnwrap(read.fileToken.value), ledger: store.syncURL(for: "Field")))
        let chunks = SyncLedgerJournal.chunks(at: journalURL, first: line).chunks
        XCTAssertEqual(chunks.count, 2)
        XCTAssertEqual(try SurveyDocument(propertyListData: chunks[1]).records.dropFirst().map { $0["id"] },
                       [.string("uuid:b"), .string("uuid:c")])
    }

    /// A crash mid-append leaves a chunk cut short: the ledger read is the one the commit
    /// before left. A chunk that cannot be read ends the fold there, later ones with it.
    func testAChunkCutShortOrUnreadableEndsTheFoldAtTheCommitBefore() throws {
        let first = try commit(try prepared()) { $0.pullCursor = 7 }
        let afterFirst = try Data(contentsOf: journalURL)
        try commit(first) { $0.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(99)], revision: SyncRevision(2)) }
        let whole = try Data(contentsOf: journalURL)
        for cut in stride(from: afterFirst.count, to: whole.count, by: 7) {
            try whole.prefix(cut).write(to: journalURL)
            let read = try store.syncLedger(for: "Field")
            XCTAssertEqual(read, first.state.ledger, "cut at \(cut)")
        }
        // A whole chunk whose contents are not a ledger's, then a good one after it.
        var garbled = afterFirst
        garbled += Data("chunk 5\nhello\n".utf8)
        garbled += whole[afterFirst.count...]
        try garbled.write(to: journalURL)
        XCTAssertEqual(try store.syncLedger(for: "Field").pullCursor, 7)
        XCTAssertEqual(try store.syncLedger(for: "Field").bases["uuid:a"]?.answers["age"], .integer(1))
    }

    /// A whole write gives the ledger a new token and removes the journal; a journal of the old
    /// token put back beside it (a backup, a failed removal) is never folded into the new file.
    func testAWholeWriteStartsAfreshAndAStaleJournalIsIgnored() throws {
        let snapshot = try prepared()
        let oldToken = try XCTUnwrap(snapshot.state.ledger.fileToken.value)
        let journaled = try commit(snapshot) { $0.owners["uuid:a"] = "bo" }
        let staleJournal = try Data(contentsOf: journalURL)

        // More surveys changed than a journal takes: written whole.
        var many = journaled
        var ledger = many.lendLedger()
        for n in 0...LedgerTable<SyncLedger.Version>.mostNoted { ledger.owners["uuid:x\(n)"] = "ana" }
        XCTAssertNil(ledger.changedIDs)
        many = try XCTUnwrap(try store.committed(SyncState(records: many.state.records, deleted: many.state.deleted, ledger: ledger),
                                                  over: many, ledgerChanged: true, at: Date()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "the whole file holds the journal's changes")
        let newToken = try XCTUnwrap(try store.syncLedger(for: "Field").fileToken.value)
        XCTAssertNotEqual(newToken, oldToken)
        XCTAssertEqual(newToken.split(separator: "-").first, oldToken.split(separator: "-").first, "the same line, counted on")
        XCTAssertEqual(try store.syncLedger(for: "Field").owners["uuid:a"], "bo")

        // The old journal put back: the new file does not take it.
        try staleJournal.write(to: journalURL)
        XCTAssertEqual(try store.syncLedger(for: "Field").owners["uuid:a"], "bo")
        XCTAssertThrowsError(try store.committed(many.state, over: many, ledgerChanged: true, at: Date()),
                             "a commit over files changed since refuses")
        try commit(try store.syncSnapshot(of: "Field")) { $0.owners["uuid:a"] = "cy" }
        XCTAssertEqual(try store.syncLedger(for: "Field").owners["uuid:a"], "cy")
        XCTAssertEqual(try store.syncLedger(for: "Field").owners.count, many.state.ledger.owners.count)
        XCTAssertEqual(SyncLedgerJournal.firstLine(ofJournalAt: journalURL)?.split(separator: " ").dropFirst(4).first.map(String.init),
                       newToken, "the stale journal was started afresh")
    }

    /// Past an eighth of its ledger (or the floor) the journal is folded into a whole write, so
    /// a reader never folds more than that.
    func testAJournalPastItsShareOfTheLedgerIsFoldedIntoAWholeWrite() throws {
        DocumentStore.ledgerJournalFloor = 2_000
        var snapshot = try prepared()
        var wholeWrites = 0
        for n in 0..<20 {
            let before = try Data(contentsOf: store.syncURL(for: "Field"))
            snapshot = try commit(snapshot) { $0.reviews["uuid:a"] = SyncReview(.hasIssues, comment: "note \(n)") }
            if try Data(contentsOf: store.syncURL(for: "Field")) != before { wholeWrites += 1 }
            XCTAssertLessThanOrEqual((try? Data(contentsOf: journalURL).count) ?? 0, 2_000 + 2_000, "commit \(n)")
            XCTAssertEqual(try store.syncLedger(for: "Field").reviews["uuid:a"]?.comment, "note \(n)")
        }
        XCTAssertGreaterThan(wholeWrites, 0)
        XCTAssertLessThan(wholeWrites, 20)
    }

    /// Every call of a journaled commit (document and ledger changed) fails in turn, EIO then a
    /// full disk: after each failure the document, the ledger and its journal hold exactly the
    /// bytes they held, and what is read is the ledger before.
    func testEachFailedCallOfAJournaledCommitLeavesEveryFileAsItWas() throws {
        let first = try commit(try prepared()) { $0.pullCursor = 6 }
        let urls = [store.url(for: "Field"), store.syncURL(for: "Field"), journalURL]
        let before = try urls.map { try Data(contentsOf: $0) }
        let plan = FaultInjectionTests.Plan()
        let failing = DocumentStore(folder: folder, fileSystem: plan.fileSystem)
        func attempt() throws -> DocumentStore.SyncSnapshot? {
            var snapshot = try failing.syncSnapshot(of: "Field")
            var ledger = snapshot.lendLedger()
            ledger.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(11)], revision: SyncRevision(2))
            var records = snapshot.state.records
            records[0] = survey("uuid:a", 11)
            return try failing.committed(SyncState(records: records, deleted: snapshot.state.deleted, ledger: ledger),
                                         over: snapshot, ledgerChanged: true, at: Date())
        }
        plan.arm(failing: nil, with: EIO)
        XCTAssertNotNil(try attempt())
        let calls = plan.calls
        let after = try urls.map { try Data(contentsOf: $0) }
        XCTAssertEqual(after[1], before[1], "the ledger's file is not written")
        XCTAssertNotEqual(after[2], before[2])
        for code in [EIO, ENOSPC] {
            for call in 1...calls {
                for (url, data) in zip(urls, before) { try data.write(to: url) }
                plan.arm(failing: call, with: code)
                let outcome = Result { try attempt() }
                plan.arm(failing: nil, with: code)
                let now = try urls.map { try Data(contentsOf: $0) }
                if case .success = outcome {
                    XCTAssertEqual(now, after, "call \(call) (\(plan.failed ?? "")): succeeded, so finished whole")
                } else {
                    XCTAssertEqual(now, before, "call \(call) (\(plan.failed ?? "")) failed: files as they were")
                    XCTAssertEqual(try store.syncLedger(for: "Field"), first.state.ledger, "call \(call)")
                }
            }
        }
    }

    /// The journal is one of the document's companions: a rename, the trash and a restore take
    /// it along, and the ledger read under the new name still holds its changes.
    func testRenameTrashAndRestoreTakeTheJournalAlong() throws {
        try commit(try prepared()) { $0.owners["uuid:a"] = "bo" }
        let renamed = try store.rename("Field", to: "Farm", at: Date())
        XCTAssertEqual(try folderContents().filter { $0.contains("journal") }, [".Farm.sync-journal"])
        XCTAssertEqual(try store.syncLedger(for: renamed).owners["uuid:a"], "bo")
        _ = try store.delete(renamed, at: Date())
        XCTAssertEqual(try folderContents().filter { $0.contains("sync-journal") }, [])
        let back = try store.restore(renamed, at: Date())
        XCTAssertEqual(try store.syncLedger(for: back).owners["uuid:a"], "bo")
    }

    /// Another laptop's copy (a USB stick) is read with its journal: a merge takes what that
    /// laptop's last sync agreed, not what its file held before.
    func testAnotherFoldersLedgerIsReadWithItsJournal() throws {
        try commit(try prepared()) { $0.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(10)], revision: SyncRevision(2)) }
        let stick = folder.appendingPathComponent("stick", isDirectory: true)
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        for name in ["Field.plist", ".Field.sync.plist", ".Field.sync-journal"] {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: stick.appendingPathComponent(name))
        }
        XCTAssertEqual(try DocumentStore.readLedger(at: stick.appendingPathComponent(".Field.sync.plist")).bases["uuid:a"]?.revision,
                       SyncRevision(2))
    }

    /// A link in the journal's place (put there by someone else, to a file of theirs) is never
    /// followed: the commit writes the ledger whole, which removes the link, and the file it
    /// pointed at is untouched.
    func testALinkInTheJournalsPlaceIsNeverWrittenThrough() throws {
        _ = try prepared()
        let elsewhere = folder.appendingPathComponent("theirs.txt")
        try Data("keep me\n".utf8).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(at: journalURL, withDestinationURL: elsewhere)
        try commit(try store.syncSnapshot(of: "Field")) { $0.owners["uuid:a"] = "bo" }
        XCTAssertEqual(try String(contentsOf: elsewhere, encoding: .utf8), "keep me\n")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: journalURL.path), "the link is gone")
        XCTAssertEqual(try store.syncLedger(for: "Field").owners["uuid:a"], "bo")
        // And a reader never folds what a link points at.
        try commit(try store.syncSnapshot(of: "Field")) { $0.owners["uuid:b"] = "cy" }
        let real = try Data(contentsOf: journalURL)
        try FileManager.default.moveItem(at: journalURL, to: elsewhere.appendingPathExtension("moved"))
        try FileManager.default.createSymbolicLink(at: journalURL, withDestinationURL: elsewhere.appendingPathExtension("moved"))
        XCTAssertEqual(try Data(contentsOf: elsewhere.appendingPathExtension("moved")), real)
        XCTAssertNil(try store.syncLedger(for: "Field").owners["uuid:b"].flatMap { $0 == "cy" ? $0 : nil })
    }

    /// The mark of a sync with nothing to do is of the journal too: an append after it makes
    /// the next sync a whole one.
    func testAJournalAppendLeavesTheSyncMarkBehind() throws {
        let snapshot = try prepared()
        let mark = SyncMark(files: store.syncFiles(of: "Field"), document: "Field", dataset: "Field", formVersion: nil,
                            ledger: snapshot.state.ledger, nothingToSend: true)
        try store.writeSyncMark(mark, for: "Field")
        XCTAssertNotNil(store.currentSyncMark(for: "Field"))
        try commit(snapshot) { $0.owners["uuid:a"] = "bo" }
        XCTAssertNil(store.currentSyncMark(for: "Field"))
    }

    /// Each table notes the surveys changed; a table put in place whole, or too many changes,
    /// say nothing (the ledger is then written whole).
    func testEveryTableNotesItsChangesAndGivesUpWhenReplacedWhole() throws {
        var ledger = try prepared().state.ledger
        XCTAssertEqual(ledger.changedIDs, [])
        ledger.owners["uuid:a"] = "bo"
        ledger.bases.removeValue(forKey: "uuid:b")
        ledger.conflicts["uuid:c"] = nil
        ledger.reviews["uuid:d"] = SyncReview(.approved)
        XCTAssertEqual(ledger.changedIDs, ["uuid:a", "uuid:b", "uuid:c", "uuid:d"])
        var replaced = ledger
        replaced.conflicts = [:]
        XCTAssertNil(replaced.changedIDs)
        XCTAssertNil(SyncLedger().changedIDs, "a ledger made here is written whole")
    }
}
