import Foundation
import XCTest
import SurveyTestSupport
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// A sync cut off part-way (the connection dropped between batches or inside one, the server
/// stopped mid-pull) leaves the server consistent, and running it again finishes the job
/// without duplicates.
final class InterruptedSyncTests: DatabaseTestCase {
    private var rows: [OutgoingRow] { (1...7).map { survey("uuid:\($0)", name: "person \($0)") } }

    private func count() throws -> String {
        try server.psql("SELECT count(*) || ' ' || count(DISTINCT instance_id) || ' ' || max(revision) FROM survey.surveys", database: database)
    }

    func testAPushCutOffBetweenBatchesFinishesWhenRunAgain() throws {
        try initialize()
        let ana = try enumerator("ana")
        let role = try ana.role()
        let pid = ana.connection.serverProcessID
        XCTAssertThrowsError(try ana.push(rows, batchSize: 3) { progress in
            // The network goes after the first batch is committed, before its answer is kept.
            if progress.sent == 3 { try self.server.psql("SELECT pg_terminate_backend(\(pid))") }
        }) { error in
            XCTAssertEqual((error as? DatabaseError)?.kind, .connectionLost, "\(error)")
        }
        XCTAssertEqual(try count(), "3 3 1")
        let again = try SurveyServer(target(as: role)).push(rows, batchSize: 3)
        XCTAssertEqual(again.map(\.outcome), Array(repeating: .alreadyThere(revision: 1), count: 3)
                       + Array(repeating: .accepted(revision: 1), count: 4))
        XCTAssertEqual(try count(), "7 7 1")
    }

    func testAPushKilledInsideABatchLeavesNoneOfThatBatch() throws {
        try initialize()
        let ana = try enumerator("ana")
        let role = try ana.role()
        let pid = ana.connection.serverProcessID
        // A second session has inserted, uncommitted, a survey the second batch sends, so that
        // batch waits inside its transaction; the push's server process is then ended there.
        let holder = try DatabaseConnection(target())
        let postgres = server!
        let killer = Thread {
            // Ended even when the wait never shows, so a failing test cannot hang on the lock.
            Polling.until { (try? postgres.psql("SELECT wait_event_type FROM pg_stat_activity WHERE pid = \(pid)")) == "Lock" }
            _ = try? postgres.psql("SELECT pg_terminate_backend(\(pid))")
        }
        XCTAssertThrowsError(try ana.push(rows, batchSize: 3) { progress in
            guard progress.sent == 3 else { return }
            try holder.execute("BEGIN")
            try holder.execute("INSERT INTO survey.surveys (instance_id, dataset, answers) VALUES ('uuid:4', 'household', '{}')")
            killer.start()
        }) { error in
            XCTAssertEqual((error as? DatabaseError)?.kind, .connectionLost, "\(error)")
        }
        try holder.execute("ROLLBACK")
        XCTAssertEqual(try count(), "3 3 1", "the first batch whole, nothing of the second")
        let again = try SurveyServer(target(as: role)).push(rows, batchSize: 3)
        XCTAssertEqual(again.filter(\.isStored).count, 7)
        XCTAssertEqual(try count(), "7 7 1")
    }

    func testTheServerStoppedMidPullGivesAClearErrorAndTheLocalSideIsUnchanged() throws {
        try initialize()
        let ana = try enumerator("ana")
        let role = try ana.role()
        _ = try ana.push(rows)
        // The local side: what was kept, and the cursor it was kept up to.
        var kept: [String: IncomingRow] = [:]
        var cursor: Int64 = 0
        func pullOnce(_ server: SurveyServer) throws {
            let batch = try server.pull(dataset: "household", since: cursor, limit: 3)
            for row in batch.rows { kept[row.instanceID] = row }
            cursor = batch.cursor
        }
        try pullOnce(ana)
        let before = (kept, cursor)
        try server.stopServer(immediately: true)
        defer { try? server.startServer() }
        XCTAssertThrowsError(try pullOnce(ana)) { error in
            let failure = error as? DatabaseError
            XCTAssertEqual(failure?.kind, .connectionLost, "\(error)")
            XCTAssertTrue(failure?.message.contains("was lost (the server stopped, or the network was cut)") == true, "\(error)")
        }
        XCTAssertEqual(kept, before.0)
        XCTAssertEqual(cursor, before.1)
        try server.startServer()
        let reconnected = try SurveyServer(target(as: role))
        while true {
            let count = kept.count
            try pullOnce(reconnected)
            if kept.count == count { break }
        }
        XCTAssertEqual(Set(kept.keys), Set(rows.map(\.instanceID)))
    }

    /// A push killed after the server kept a batch but before the laptop noted it: the next
    /// sync finds its own surveys on the server with no base here. Those it has not touched
    /// since agree; one edited since is this laptop's change of its own push, sent as an edit,
    /// never a conflict with itself (issue 28).
    func testAfterAPushKilledMidWayAnEditOfASurveyTheServerKeptIsNotAConflictWithItself() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let batch = SurveyServer.pushBatchSize, total = batch + batch / 5
        let store = try laptop((0..<total).map { Record([Record.instanceIDKey: .string("uuid:k\($0)"), "name": .string("Person \($0)")]) })
        syncCutAfterFirstPushBatch(store, as: ana, total: total)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "\(batch)")
        XCTAssertEqual(try store.syncLedger(for: "Field").bases.count, 0, "the laptop never heard")

        try edit(store, "uuid:k7") { $0["name"] = .string("Person 7, corrected") }
        let again = try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual(again.conflicts, [], "its own push is no conflict")
        XCTAssertEqual(again.pushed, 1 + total - batch, "the correction and those never sent")
        XCTAssertEqual(try server.psql("SELECT answers->>'name' || ' ' || revision FROM survey.surveys WHERE instance_id = 'uuid:k7'",
                                       database: database), "Person 7, corrected 2")
        XCTAssertEqual(try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() }).message,
                       "Synced “Field”: 0 in, 0 out")
    }

    /// A push killed after the server kept a batch, then every survey deleted here: the next
    /// sync begins with nothing in the document and no base, so it would skip looking for what
    /// to send; its own pushes come back as the bases of the deletes, which must still go out.
    func testAfterAPushKilledMidWayTheSurveysDeletedHereSinceAreDeletedThere() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let batch = SurveyServer.pushBatchSize, total = batch + batch / 5
        let records = (0..<total).map { Record([Record.instanceIDKey: .string("uuid:d\($0)"), "name": .string("Person \($0)")]) }
        let store = try laptop(records)
        syncCutAfterFirstPushBatch(store, as: ana, total: total)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "\(batch)")
        // Every survey deleted here, as the app deletes: kept in the deleted surveys.
        try store.appendDeleted(records, for: "Field", at: Date())
        _ = try store.save(SurveyDocument(records: []), as: "Field")
        let again = try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual(again.conflicts, [])
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys WHERE NOT deleted", database: database), "0",
                       "the deletes went out: \(again.message)")
    }

    /// A document restored without its ledger meets its own role's surveys on the server with
    /// no base: they are not taken as pushes killed mid-way (the role was not known here, and
    /// an edited survey's revision is past 1), so the older answers never overwrite the newer
    /// ones unseen: they are merged, the clash kept as a conflict.
    func testARestoredDocumentWithoutItsLedgerIsMergedNotTakenAsItsOwnPush() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("restored-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DocumentStore(folder: folder)
        _ = try store.save(SurveyDocument(records: [Record([Record.instanceIDKey: .string("uuid:s"), "name": .string("Old")])]), as: "Field")
        let backup = try Data(contentsOf: store.url(for: "Field"))
        XCTAssertEqual(try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 1)
        var document = try store.load("Field").get()
        document.records[0]["name"] = .string("Newer")
        _ = try store.save(document, as: "Field")
        XCTAssertEqual(try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 1)
        // The laptop is restored from a backup of the document alone.
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix(".") {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        }
        try backup.write(to: store.url(for: "Field"))
        let again = try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual(again.conflicts, ["uuid:s"], "the older answer is not sent over the newer one unseen")
        XCTAssertEqual(try server.psql("SELECT answers->>'name' FROM survey.surveys WHERE instance_id = 'uuid:s'", database: database), "Newer")
    }

    /// The same for a push of edits: killed after the server kept the first batch of edits,
    /// before the laptop heard. A survey of that batch edited again here, in the same answer,
    /// is this laptop's change of its own edit, sent as an edit of it, never a conflict with
    /// itself; the others agree, and those never sent go (issue 28).
    func testAfterAPushOfEditsKilledMidWayAnotherEditOfTheSameAnswerIsNotAConflictWithItself() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let batch = SurveyServer.pushBatchSize, total = batch + batch / 5
        let records = (0..<total).map { Record([Record.instanceIDKey: .string("uuid:e\($0)"), "name": .string("Person \($0)")]) }
        let store = try laptop(records)
        XCTAssertEqual(try sync(store, as: ana, device: "A").pushed, total)
        var document = try store.load("Field").get()
        for i in document.records.indices { document.records[i]["name"] = .string("Person \(i), edited") }
        _ = try store.save(document, as: "Field")
        syncCutAfterFirstPushBatch(store, as: ana, total: total)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys WHERE revision = 2", database: database), "\(batch)")
        XCTAssertEqual(try store.syncLedger(for: "Field").bases["uuid:e7"]?.revision, SyncRevision(1), "the laptop never heard")

        try edit(store, "uuid:e7") { $0["name"] = .string("Person 7, corrected") }
        let again = try sync(store, as: ana, device: "A")
        XCTAssertEqual(again.conflicts, [], "its own edit is no conflict")
        XCTAssertEqual(again.pushed, 1 + total - batch, "the correction and the edits never sent")
        XCTAssertEqual(try server.psql("SELECT answers->>'name' || ' ' || revision FROM survey.surveys WHERE instance_id = 'uuid:e7'",
                                       database: database), "Person 7, corrected 3")
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys WHERE answers->>'name' LIKE '%, edited'",
                                       database: database), "\(total - 1)")
        XCTAssertEqual(try sync(store, as: ana, device: "A").message, "Synced “Field”: 0 in, 0 out")
        // A data manager's fix after an edit of this laptop's is never taken for its own.
        try server.psql("UPDATE survey.surveys SET answers = answers || '{\"name\": \"Fixed\"}' WHERE instance_id = 'uuid:e8'",
                        database: database)
        XCTAssertEqual(try server.psql("SELECT base_revision || ' ' || revision FROM survey.surveys WHERE instance_id = 'uuid:e8'",
                                       database: database), "1 3", "the fix keeps the edit's base_revision")
        try edit(store, "uuid:e8") { $0["name"] = .string("Person 8, mine") }
        XCTAssertEqual(try sync(store, as: ana, device: "A").conflicts, ["uuid:e8"], "the fix and mine clash, as they should")
    }

    /// Device and role alone never make a row this laptop's lost edit: one person's two
    /// laptops that share a host name each edit a different answer of a survey; the second
    /// to sync merges the first one's edit instead of overwriting it unseen.
    func testTwoLaptopsOfOneNameAndLoginMergeEachOthersEditsOfOneSurvey() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let first = try laptop([Record([Record.instanceIDKey: .string("uuid:x"), "age": .integer(30), "phone": .string("555")])])
        try sync(first, as: ana, device: "laptop")
        let second = try laptop()
        try sync(second, as: ana, device: "laptop")
        try edit(first, "uuid:x") { $0["age"] = .integer(31) }
        try edit(second, "uuid:x") { $0["phone"] = .string("556") }
        XCTAssertEqual(try sync(first, as: ana, device: "laptop").pushed, 1)
        let merged = try sync(second, as: ana, device: "laptop")
        XCTAssertEqual(merged.conflicts, [])
        XCTAssertEqual(merged.pushed, 1)
        XCTAssertEqual(try server.psql("SELECT answers->>'age' || ' ' || (answers->>'phone') || ' ' || revision FROM survey.surveys",
                                       database: database), "31 556 3", "both edits kept")
    }
}
