import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 28, the shape of a sync at size (the figures themselves are `make bench`'s): a
/// laptop never downloads its own pushes back, yet nothing a teammate wrote between its
/// batches is skipped; a pull of many batches writes the document once; the cursor moves
/// past what this laptop pushed, so the next sync scans nothing.
final class TeamScaleTests: DatabaseTestCase {
    private func record(_ i: Int) -> Record {
        Record([Record.instanceIDKey: .string("uuid:r\(i)"), "name": .string("Person \(i)"), "age": .integer(i % 90)])
    }

    func testThePushersOwnRowsAreSkippedButATeammatesRowWrittenBetweenItsBatchesComes() throws {
        try initialize()
        let ana = try enumerator("ana")
        let bruno = try enumerator("bruno")
        var written: [ClosedRange<Int64>] = []
        let results = try ana.push((1...4).map { survey("uuid:a\($0)") }, batchSize: 2, progress: { step in
            // Bruno pushes while Ana is between her two batches.
            if step.sent == 2 { _ = try bruno.push([survey("uuid:b1")]) }
        }, written: { written.append($0) })
        XCTAssertTrue(results.allSatisfy(\.isStored))
        XCTAssertEqual(written.count, 2, "one range per committed batch")
        let pulled = try ana.pull(dataset: "household", since: 0, skipping: written)
        XCTAssertEqual(pulled.rows.map(\.instanceID), ["uuid:b1"])
        // Nothing else is there: the cursor moves past Ana's own rows, and asking again brings nothing.
        XCTAssertGreaterThanOrEqual(pulled.cursor, written.map(\.upperBound).max()!)
        XCTAssertEqual(try ana.pull(dataset: "household", since: pulled.cursor).rows, [])
        // Without skipping, all five come (what a laptop downloaded back before).
        XCTAssertEqual(try ana.pull(dataset: "household", since: 0).rows.count, 5)
    }

    func testALaptopsNextSyncDownloadsNothingItPushedAndStillGetsATeammatesChange() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptop((0..<1_200).map(record))
        XCTAssertEqual(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 1_200)
        XCTAssertFalse(try a.syncLedger(for: "Field").ownChanges.isEmpty, "the pushed batches are noted")

        let next = try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() })
        // Before, each of the 1,200 came back as an `agreed` event.
        XCTAssertEqual(next.events, [])
        XCTAssertEqual(next.message, "Synced “Field”: 0 in, 0 out")
        XCTAssertEqual(try a.syncLedger(for: "Field").ownChanges, [], "the cursor has passed them")

        let b = try laptop([Record([Record.instanceIDKey: .string("uuid:bruno"), "name": .string("Bo")])])
        XCTAssertEqual(try DocumentSync.run(store: b, document: "Field", target: target(as: bruno), device: "B", at: { Date() }).pulled, 1_200)
        let third = try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual(third.pulled, 1)
        XCTAssertEqual(try a.load("Field").get().records.count, 1_201)
    }

    func testAPullOfManyBatchesWritesTheDocumentOnce() throws {
        try initialize()
        let bruno = try enumerator("bruno")
        let rows = (0..<2_500).map { i -> OutgoingRow in survey("uuid:p\(i)", name: "Person \(i)", dataset: "Field") }
        XCTAssertTrue(try bruno.push(rows).allSatisfy(\.isStored))
        let ana = try loginRole("ana", in: "survey_enumerator")
        let renames = Counter()
        let plain = try laptop()
        let documentPath = plain.url(for: "Field").path
        let a = DocumentStore(folder: plain.folder, fileSystem: .failing { operation, path in
            if operation == .rename, path == documentPath { renames.add() }
            return nil
        })
        let result = try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", push: false, at: { Date() })
        XCTAssertEqual(result.pulled, 2_500)
        XCTAssertEqual(try a.load("Field").get().records.count, 2_500)
        // Three batches of 1,000; before, each wrote the whole document (and ledger) again.
        XCTAssertEqual(renames.value, 1)
    }

    /// A sync with nothing to do reads neither the document nor the ledger and writes only
    /// its mark; anything that happened since (a keyed answer, a teammate's change, a survey
    /// left unsent, a new form version) still makes a whole sync.
    func testASyncWithNothingToDoWritesOnlyItsMarkAndMissesNothing() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptop((0..<5).map(record))
        let b = try laptop()
        func sync(_ store: DocumentStore, _ role: String, _ device: String, at date: Date = Date()) throws -> DocumentSync.Result {
            try DocumentSync.run(store: store, document: "Field", target: target(as: role), device: device, at: { date })
        }
        XCTAssertEqual(try sync(a, ana, "A").pushed, 5)
        let ledgerFile = { a.fingerprint(atPathForTests: a.syncURL(for: "Field").path) }
        let before = ledgerFile()
        let later = Date(timeIntervalSince1970: 2_000_000_000)
        XCTAssertEqual(try sync(a, ana, "A", at: later).message, "Synced “Field”: 0 in, 0 out")
        XCTAssertEqual(ledgerFile(), before, "nothing to do writes only the mark")
        XCTAssertEqual(try a.syncLedger(for: "Field").lastSync, later, "the time of the sync is the ledger's")

        // A keyed answer since: the mark is of the old file, so the edit goes out.
        var document = try a.load("Field").get()
        document.records[2]["age"] = .integer(77)
        _ = try a.save(document, as: "Field")
        XCTAssertEqual(try sync(a, ana, "A").pushed, 1)
        XCTAssertEqual(try sync(b, bruno, "B").pulled, 5)
        XCTAssertEqual(try b.load("Field").get().records.first { $0.instanceID == "uuid:r2" }?["age"], .integer(77))

        // A teammate's change comes in through a laptop that had nothing to do.
        XCTAssertEqual(try sync(a, ana, "A").message, "Synced “Field”: 0 in, 0 out")
        var theirs = try b.load("Field").get()
        theirs.records.append(Record([Record.instanceIDKey: .string("uuid:bruno"), "name": .string("Bo")]))
        _ = try b.save(theirs, as: "Field")
        XCTAssertEqual(try sync(b, bruno, "B").pushed, 1)
        XCTAssertEqual(try sync(a, ana, "A").pulled, 1)

        // A journal holding changes not yet in the file: a whole sync, which waits for it.
        XCTAssertNotNil(a.currentSyncMark(for: "Field"))
        try Data(String(repeating: "entries not yet in the file\n", count: 20).utf8).write(to: a.journalURL(for: "Field"))
        XCTAssertNil(a.currentSyncMark(for: "Field"))
        try FileManager.default.removeItem(at: a.journalURL(for: "Field"))

        // An edit of another's survey is kept as a conflict, and said by every sync after.
        var mine = try a.load("Field").get()
        let place = try XCTUnwrap(mine.records.firstIndex { $0.instanceID == "uuid:bruno" })
        mine.records[place]["name"] = .string("Bo Edited")
        _ = try a.save(mine, as: "Field")
        XCTAssertEqual(try sync(a, ana, "A").conflicts, ["uuid:bruno"])
        XCTAssertEqual(try sync(a, ana, "A").conflicts, ["uuid:bruno"], "still said by a sync with nothing to do")

        // The mark goes with a renamed document, but is not used under the new name (a
        // document without a form syncs under its name).
        XCTAssertNotNil(a.currentSyncMark(for: "Field"))
        XCTAssertEqual(try a.rename("Field", to: "Field 2", at: Date()), "Field 2")
        XCTAssertTrue(FileManager.default.fileExists(atPath: a.folder.appendingPathComponent(".Field 2.synced.plist").path))
        XCTAssertNil(a.currentSyncMark(for: "Field 2"))
    }

    /// A formless document syncs under its name; a form attached later makes its dataset the
    /// form's id. The cursor moved along the first dataset must not pass over the second's
    /// rows (a review of this change found that the mark kept syncing the old dataset, and the
    /// cursor, moved to the horizon, skipped the team's rows for good).
    func testAttachingAFormStartsTheNewDatasetFromItsBeginning() throws {
        try initialize()
        let bruno = try enumerator("bruno")
        XCTAssertTrue(try bruno.push([survey("uuid:h1", name: "Household one")]).allSatisfy(\.isStored))
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptop()
        XCTAssertEqual(try sync(a, as: ana, device: "A").pulled, 0, "dataset Field is empty")
        XCTAssertEqual(try sync(a, as: ana, device: "A").message, "Synced “Field”: 0 in, 0 out")
        let form = a.folder.appendingPathComponent("household.csv")
        try Data("""
            survey,,,
            ,type,name,label
            ,text,name,Name
            settings,,,
            ,form_id,version,
            ,household,1,

            """.utf8).write(to: form)
        _ = try a.attachForm(from: form.path, to: "Field", at: Date())
        XCTAssertNil(a.currentSyncMark(for: "Field"), "a form attached since: a whole sync")
        let after = try sync(a, as: ana, device: "A")
        XCTAssertEqual(after.pulled, 1)
        XCTAssertEqual(try a.load("Field").get().records.map(\.instanceID), ["uuid:h1"])
        XCTAssertEqual(try a.syncLedger(for: "Field").pullDataset, "household")
    }

    /// A reviewed survey this laptop changes is `edited` on the server (the trigger); the
    /// laptop, which no longer pulls its own push back, notes it itself.
    func testAnEditOfAReviewedSurveyIsNotedEditedWithoutPullingItBack() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let sofia = try supervisor("sofia")
        let a = try laptop([record(1)])
        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 1)
        XCTAssertTrue(try sofia.setReview("uuid:r1", state: .approved, comment: "fine"))
        XCTAssertEqual(try sync(a, as: ana, device: "A").pulled, 1)
        XCTAssertEqual(try a.syncLedger(for: "Field").reviews["uuid:r1"], SyncReview(.approved, comment: "fine"))
        var document = try a.load("Field").get()
        document.records[0]["age"] = .integer(50)
        _ = try a.save(document, as: "Field")
        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 1)
        XCTAssertEqual(try server.psql("SELECT review_state FROM survey.surveys WHERE instance_id = 'uuid:r1'", database: database), "edited")
        XCTAssertEqual(try a.syncLedger(for: "Field").reviews["uuid:r1"], SyncReview(.edited, comment: "fine"))
    }

    func testALongSyncSaysHowFarItIsAndHowLongIsLeft() {
        let start = ContinuousClock.now
        var clock = ProgressClock(total: 10_000, started: start)
        XCTAssertEqual(clock.left(done: 1_000, at: start + .seconds(1)), "", "nothing said in the first seconds")
        XCTAssertEqual(clock.left(done: 2_000, at: start + .seconds(4)), ", about 16 s left")
        XCTAssertEqual(clock.left(done: 1_000, at: start + .seconds(20)), ", about 3 min left")
        XCTAssertEqual(clock.left(done: 10_000, at: start + .seconds(30)), "")
        var open = ProgressClock(total: nil, started: start)
        XCTAssertEqual(open.left(done: 5_000, at: start + .seconds(10)), "", "no total, no time left")
    }
}

/// A count the file system's fault hook can bump from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
