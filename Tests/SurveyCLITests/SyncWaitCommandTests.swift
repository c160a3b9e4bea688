import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 28: `survey sync` whose push waits more than a second for a lock another session
/// holds says so on stderr, while it waits, and then finishes.
final class SyncWaitCommandTests: CLITestCase {
    func testSyncSaysOnStderrWhatItsPushWaitsFor() throws {
        let server: ThrowawayPostgres
        do {
            server = try ThrowawayPostgres.shared()
        } catch let unavailable as ThrowawayPostgres.Unavailable {
            throw XCTSkip(unavailable.description)
        }
        let database = try server.createDatabase("cli")
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        XCTAssertEqual(try survey(["db", "init", "--db", server.connectionString(database: database)], dir: false).status, 0)
        let ana = "ana_\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(ana) LOGIN IN ROLE survey_enumerator")
        defer { _ = try? server.psql("DROP ROLE IF EXISTS \(ana)") }
        let environment = ["SURVEY_DB": server.connectionString(database: database, user: ana), "SURVEY_DEVICE": "laptop-a"]
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva"]).status, 0)
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: environment).status, 0)
        let id = try server.psql("SELECT instance_id FROM survey.surveys", database: database)
        XCTAssertEqual(try survey(["delete", id, "--doc", "Field"]).status, 0)

        // psql, as the database's superuser, locks the survey and keeps it 3 s.
        let holder = Thread {
            _ = try? server.psql("BEGIN; SELECT 1 FROM survey.surveys FOR UPDATE; SELECT pg_sleep(3); COMMIT", database: database)
        }
        holder.start()
        XCTAssertTrue(try Polling.until {
            try server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event = 'PgSleep'") == "1"
        }, "psql never took the lock")
        let pid = try server.psql("SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event = 'PgSleep'")
        let sync = try survey(["sync", "--doc", "Field"], environment: environment)
        XCTAssertTrue(Polling.until { holder.isFinished }, "psql never let go")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(sync.stdout, "Synced “Field”: 0 in, 1 out\n")
        let lines = sync.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertFalse(lines.isEmpty, sync.stderr)
        for (second, line) in lines.enumerated() {
            XCTAssertEqual(line, "survey: Syncing “Field”: waiting \(second + 1) s for the server: \(server.superuser)'s session"
                           + " (psql, pid \(pid)) holds a lock on a survey this needs")
        }
    }
}
