import Foundation
import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 28: "a wait longer than a second says what it waits for". A statement of survey's
/// that has run past a second tells `waiting` what holds it up, while it waits (a teammate's
/// session holding a survey's row, or a busy server), and finishes as before; a quick one
/// says nothing. Each waiting statement here runs under a short `statement_timeout`, so a
/// test can fail but never hang.
final class ServerWaitTests: DatabaseTestCase {
    private var laptops: [URL] = []

    override func tearDownWithError() throws {
        for folder in laptops { try? FileManager.default.removeItem(at: folder) }
        try super.tearDownWithError()
    }

    /// Lines told to `waiting`, kept for the test (the callback runs on the statement's thread).
    private final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [(line: String, at: Date)] = []
        func add(_ line: String) { lock.withLock { kept.append((line, Date())) } }
        var lines: [String] { lock.withLock { kept.map(\.line) } }
        var times: [Date] { lock.withLock { kept.map(\.at) } }
    }

    /// A session of `role` named `psql` that has locked survey `id` and keeps its transaction open.
    private func holding(_ id: String, as role: String) throws -> DatabaseConnection {
        let holder = try DatabaseConnection(target(as: role))
        try holder.execute("SET application_name = 'psql'")
        try holder.execute("BEGIN")
        XCTAssertEqual(try holder.execute("SELECT 1 FROM survey.surveys WHERE instance_id = $1 FOR UPDATE", [id]).rows.count, 1)
        return holder
    }

    /// Ends `holder`'s transaction from another thread once the waiting statement has said
    /// what it waits for (so it was told while it waited, not after), or after 3 s when it
    /// never says (the test then fails on what it heard, under the 4 s statement timeout).
    private func releasing(_ holder: DatabaseConnection, once heard: Heard) -> Thread {
        nonisolated(unsafe) let holder = holder
        let thread = Thread {
            Polling.until(timeout: 3) { heard.lines.contains { $0.contains("waiting 1 s") } }
            _ = try? holder.execute("ROLLBACK")
        }
        thread.start()
        return thread
    }

    private func waitFor(_ thread: Thread, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(Polling.until { thread.isFinished }, "the holder never let go", file: file, line: line)
    }

    func testAPushHeldUpByAnotherSessionsLockSaysWhoHoldsItThenFinishes() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        _ = try ana.push([survey("uuid:1")])
        let holder = try holding("uuid:1", as: sofia)
        let pid = holder.serverProcessID
        try ana.connection.execute("SET statement_timeout = '4s'")
        let heard = Heard()
        ana.waiting = heard.add
        var edit = survey("uuid:1", name: "Ana Maria")
        edit.baseRevision = 1
        let started = Date()
        let release = releasing(holder, once: heard)
        XCTAssertEqual(try ana.push([edit]).map(\.outcome), [.accepted(revision: 2)])
        let took = Date().timeIntervalSince(started)
        waitFor(release)
        XCTAssertEqual(heard.lines, ["waiting 1 s for the server: \(sofia)'s session (psql, pid \(pid)) holds a lock on a survey this needs"])
        // Told while it waited (the lock is let go only then), after a second.
        let told = try XCTUnwrap(heard.times.first).timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(told, 1)
        XCTAssertLessThan(told, 1.5)
        XCTAssertGreaterThan(took, told, "the push finished once the lock was let go")
    }

    /// The sync says it on its progress line, the line F9's status line shows.
    func testASyncsProgressSaysWhatItsPushWaitsFor() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("laptop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        laptops.append(folder)
        let store = DocumentStore(folder: folder)
        _ = try store.save(SurveyDocument(records: [Record([Record.instanceIDKey: .string("uuid:s1"), "age": .integer(34)])]), as: "Field")
        XCTAssertEqual(try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 1)
        var document = try store.load("Field").get()
        document.records[0]["age"] = .integer(35)
        _ = try store.save(document, as: "Field")

        let holder = try holding("uuid:s1", as: sofia)
        let pid = holder.serverProcessID
        let heard = Heard()
        let release = releasing(holder, once: heard)
        let result = try DocumentSync.run(store: store, document: "Field", target: target(as: ana), device: "A", at: { Date() }, progress: heard.add)
        waitFor(release)
        XCTAssertEqual(result.pushed, 1)
        XCTAssertTrue(heard.lines.contains(
            "Syncing “Field”: waiting 1 s for the server: \(sofia)'s session (psql, pid \(pid)) holds a lock on a survey this needs"),
            "\(heard.lines)")
    }

    /// A session of one's own role shows what it does and since when (another role's is
    /// hidden by PostgreSQL); an advisory lock says who takes one.
    func testAnotherSessionOfYoursSaysItIsIdleInATransactionSinceWhen() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:1")])
        let holder = try holding("uuid:1", as: try ana.role())
        let pid = holder.serverProcessID
        let heard = Heard()
        ana.waiting = heard.add
        try ana.connection.execute("SET statement_timeout = '4s'")
        let release = releasing(holder, once: heard)
        var edit = survey("uuid:1", name: "Ana Maria")
        edit.baseRevision = 1
        XCTAssertEqual(try ana.push([edit]).map(\.outcome), [.accepted(revision: 2)])
        waitFor(release)
        let line = try XCTUnwrap(heard.lines.first)
        let prefix = "waiting 1 s for the server: another session of yours (psql, pid \(pid), idle in a transaction since "
        XCTAssertTrue(line.hasPrefix(prefix), line)
        XCTAssertTrue(line.hasSuffix(") holds a lock on a survey this needs"), line)
        XCTAssertNotNil(line.range(of: #"since [0-2][0-9]:[0-5][0-9]\)"#, options: .regularExpression), line)
        XCTAssertFalse(line.contains("FOR UPDATE"), "never another session's statement: \(line)")
    }

    /// survey's sessions name themselves, so a laptop's push holding a lock reads as one;
    /// a name the connection string gives is kept.
    func testSurveysSessionsNameThemselves() throws {
        try initialize()
        let ana = try enumerator("ana")
        XCTAssertEqual(try ana.connection.execute("SHOW application_name").scalar, "survey")
        let named = try SurveyServer(ConnectionString(target(as: try ana.role()).text + " application_name=tablet"))
        XCTAssertEqual(try named.connection.execute("SHOW application_name").scalar, "tablet")
    }

    func testASlowStatementWithNoLockHeldSaysTheServerIsBusy() throws {
        try initialize()
        let ana = try enumerator("ana")
        let heard = Heard()
        ana.waiting = heard.add
        try ana.connection.execute("SELECT pg_sleep(1.3)")
        XCTAssertEqual(heard.lines, ["waiting 1 s for the server (it is busy: no other session holds a lock this needs)"])
    }

    func testAQuickStatementSaysNothing() throws {
        try initialize()
        let ana = try enumerator("ana")
        let heard = Heard()
        ana.waiting = heard.add
        _ = try ana.push((1...50).map { survey("uuid:\($0)") })
        XCTAssertEqual(try pullAll(ana).count, 50)
        try ana.connection.execute("SELECT pg_sleep(0.5)")
        XCTAssertEqual(heard.lines, [])
    }

    /// The lock timeout still ends the wait, with its words; the lines came meanwhile.
    func testTheLockTimeoutStillEndsAWaitThatWasTold() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        _ = try ana.push([survey("uuid:1")])
        let holder = try holding("uuid:1", as: try ana.role())
        defer { _ = try? holder.execute("ROLLBACK") }
        let heard = Heard()
        sofia.waiting = heard.add
        try sofia.connection.execute("SET lock_timeout = '2500ms'")
        try sofia.connection.execute("SET statement_timeout = '4s'")
        XCTAssertThrowsError(try sofia.setReview("uuid:1", state: .approved, comment: nil)) { error in
            let message = (error as? DatabaseError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("the team's database is busy"), message)
        }
        XCTAssertEqual(heard.lines.map { $0.prefix(28) }, ["waiting 1 s for the server: ", "waiting 2 s for the server: "])
        XCTAssertTrue(heard.lines.allSatisfy { $0.contains("'s session (psql, pid \(holder.serverProcessID)) holds a lock on a survey") },
                      "\(heard.lines)")
        // The session goes on as before.
        XCTAssertEqual(try sofia.connection.execute("SELECT 1").scalar, "1")
    }

    /// A connection lost while a wait is told is lost as before: the push says so.
    func testAConnectionCutWhileWaitingIsLostAsBefore() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:1")])
        let holder = try holding("uuid:1", as: try ana.role())
        defer { _ = try? holder.execute("ROLLBACK") }
        let pid = ana.connection.serverProcessID
        let postgres = server!
        let heard = Heard()
        ana.waiting = { line in
            heard.add(line)
            _ = try? postgres.psql("SELECT pg_terminate_backend(\(pid))")
        }
        try ana.connection.execute("SET statement_timeout = '4s'")
        var edit = survey("uuid:1", name: "Ana Maria")
        edit.baseRevision = 1
        XCTAssertThrowsError(try ana.push([edit])) { error in
            XCTAssertEqual((error as? DatabaseError)?.kind, .connectionLost, "\(error)")
        }
        XCTAssertEqual(heard.lines.count, 1)
    }
}
