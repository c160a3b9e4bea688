import Foundation
import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// No lock a client can hold stalls the other laptops (issue 28): a laptop paused mid-push
/// (a closed lid) or a teammate's own SQL holding a lock must not freeze every push and
/// review. Each waiting statement here runs under a short `statement_timeout`, so a test can
/// fail but never hang.
final class LockTests: DatabaseTestCase {
    /// The advisory lock key the trigger of migrations 1 and 2 held to commit.
    private let oldKey = "1937076853"

    /// `server` with a statement timeout of `seconds`: a push that waits longer fails.
    private func bounded(_ server: SurveyServer, seconds: Int = 3) throws -> SurveyServer {
        try server.connection.execute("SET statement_timeout = '\(seconds)s'")
        return server
    }

    private func holding(_ role: String, _ statements: [String]) throws -> DatabaseConnection {
        let holder = try DatabaseConnection(target(as: role))
        try holder.execute("BEGIN")
        for statement in statements { try holder.execute(statement) }
        return holder
    }

    func testAnAdvisoryLockAnyRoleCanTakeDoesNotStallAPushOrAReview() throws {
        try initialize()
        let bruno = try bounded(try enumerator("bruno"))
        let sofia = try bounded(try supervisor("sofia"))
        _ = try bruno.push([survey("uuid:before")])
        // An enumerator's session of its own (psql, say) takes the key and keeps its transaction open.
        let holder = try holding(try loginRole("mallory", in: "survey_enumerator"), ["SELECT pg_advisory_xact_lock(\(oldKey))"])
        defer { _ = try? holder.execute("ROLLBACK") }
        let started = Date()
        XCTAssertEqual(try bruno.push([survey("uuid:bruno")]).map(\.outcome), [.accepted(revision: 1)])
        XCTAssertTrue(try sofia.setReview("uuid:before", state: .approved, comment: nil))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertEqual(Set(try pullAll(sofia).map(\.instanceID)), ["uuid:before", "uuid:bruno"])
    }

    func testALaptopPausedMidPushDoesNotStallAnotherPushAndItsRowIsNotSkippedByAPull() throws {
        try initialize()
        let ana = try enumerator("ana")
        let bruno = try bounded(try enumerator("bruno"))
        let sofia = try bounded(try supervisor("sofia"))
        _ = try bruno.push([survey("uuid:first")])
        var cursor = try sofia.pull(dataset: "household", since: 0).cursor
        // Ana's laptop stops inside its push: the row is written, the transaction not committed.
        try ana.connection.execute("BEGIN")
        _ = try ana.connection.execute("INSERT INTO survey.surveys (instance_id, dataset, answers) VALUES ('uuid:ana', 'household', '{}')")
        let started = Date()
        XCTAssertEqual(try bruno.push([survey("uuid:bruno")]).map(\.outcome), [.accepted(revision: 1)])
        XCTAssertTrue(try sofia.setReview("uuid:first", state: .hasIssues, comment: "check the age"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        // A pull now does not pass over Ana's number: what comes after it waits for her commit.
        let during = try sofia.pull(dataset: "household", since: cursor)
        XCTAssertFalse(during.rows.map(\.instanceID).contains("uuid:ana"))
        cursor = during.cursor
        try ana.connection.execute("COMMIT")
        var after: [String] = []
        while true {
            let batch = try sofia.pull(dataset: "household", since: cursor, limit: 1)
            if batch.rows.isEmpty { break }
            after += batch.rows.map(\.instanceID)
            cursor = batch.cursor
        }
        XCTAssertTrue(after.contains("uuid:ana"), "a row committed late was skipped: \(after)")
        XCTAssertEqual(Set(after + during.rows.map(\.instanceID)), ["uuid:ana", "uuid:bruno", "uuid:first"])
    }

    func testSessionsSetTheirTimeouts() throws {
        try initialize()
        let ana = try enumerator("ana")
        XCTAssertEqual(try ana.connection.execute("SHOW lock_timeout").scalar, "5s")
        XCTAssertEqual(try ana.connection.execute("SHOW statement_timeout").scalar, "1min")
        XCTAssertEqual(try ana.connection.execute("SHOW idle_in_transaction_session_timeout").scalar, "30s")
        // A session that is not survey's (psql by hand) gets the idle timeout from the database.
        let other = try DatabaseConnection(target(as: try loginRole("mallory", in: "survey_enumerator")))
        XCTAssertEqual(try other.execute("SHOW idle_in_transaction_session_timeout").scalar, "30s")
    }

    func testARowLockedByAnotherSessionGivesAClearMessageNotARawError() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        _ = try ana.push([survey("uuid:1")])
        let holder = try holding(try ana.role(), ["SELECT 1 FROM survey.surveys WHERE instance_id = 'uuid:1' FOR UPDATE"])
        defer { _ = try? holder.execute("ROLLBACK") }
        try sofia.connection.execute("SET lock_timeout = '200ms'")
        try sofia.connection.execute("SET statement_timeout = '3s'")
        XCTAssertThrowsError(try sofia.setReview("uuid:1", state: .approved, comment: nil)) { error in
            let message = (error as? DatabaseError)?.message ?? ""
            XCTAssertTrue(message.contains("the team's database is busy"), message)
            XCTAssertTrue(message.contains("try again"), message)
        }
    }

    func testAStatementPastItsTimeoutSaysSoNotARawError() throws {
        try initialize()
        let ana = try enumerator("ana")
        try ana.connection.execute("SET statement_timeout = '100ms'")
        XCTAssertThrowsError(try ana.connection.execute("SELECT pg_sleep(2)")) { error in
            let message = (error as? DatabaseError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("the team's database took too long to answer"), message)
        }
    }

    /// What a teammate's own SQL can lock: its own rows, and no table lock that would hold
    /// back a push (column grants give none stronger than ROW EXCLUSIVE).
    func testATeammatesOwnSQLCanLockNeitherTheTableNorAnothersRow() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:ana")])
        for group in ["survey_enumerator", "survey_supervisor"] {
            let mallory = try DatabaseConnection(target(as: try loginRole("mallory", in: group)))
            for mode in ["SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"] {
                XCTAssertThrowsError(try mallory.transaction { try mallory.execute("LOCK TABLE survey.surveys IN \(mode) MODE") },
                                     "\(group) \(mode)") { error in
                    XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
                }
            }
        }
        let bruno = try DatabaseConnection(target(as: try loginRole("bruno", in: "survey_enumerator")))
        try bruno.execute("BEGIN")
        XCTAssertEqual(try bruno.execute("SELECT 1 FROM survey.surveys FOR UPDATE").rows.count, 0)
        try bruno.execute("ROLLBACK")
    }

    /// A database from before migration 3, whose change numbers (and so the laptops' cursors)
    /// ran high: every change after the upgrade still comes after the cursor a laptop kept.
    func testChangesAfterTheUpgradeComeAfterACursorFromBefore() throws {
        try initialize()
        let ana = try enumerator("ana")
        // The rows as the old trigger numbered them: from survey.change_seq, here far along.
        try server.psql("""
            DELETE FROM survey.schema_migrations WHERE version = 3;
            ALTER TABLE survey.surveys DISABLE TRIGGER surveys_stamp;
            SELECT setval('survey.change_seq', 1000000000000000);
            INSERT INTO survey.surveys (instance_id, dataset, answers, owner, change_seq)
                VALUES ('uuid:old', 'household', '{}', '\(try ana.role())', nextval('survey.change_seq'));
            ALTER TABLE survey.surveys ENABLE TRIGGER surveys_stamp;
            """, database: database)
        XCTAssertEqual(try initialize().applied, [3])
        let before = try ana.pull(dataset: "household", since: 0)
        XCTAssertEqual(before.rows.map(\.instanceID), ["uuid:old"])
        // Past the old row; with every change read, up to just under the horizon.
        XCTAssertGreaterThanOrEqual(before.cursor, 1_000_000_000_000_001)
        _ = try ana.push([survey("uuid:new")])
        XCTAssertEqual(try ana.pull(dataset: "household", since: before.cursor).rows.map(\.instanceID), ["uuid:new"])
    }
}
