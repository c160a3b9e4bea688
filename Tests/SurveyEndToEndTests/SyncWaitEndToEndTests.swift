import Foundation
import XCTest
import SurveyTestSupport

/// Issue 28 in the real binary: F9 whose push waits for a lock another session holds says on
/// the status line, while it waits, who holds it; the sync then finishes.
final class SyncWaitEndToEndTests: EndToEndTestCase {
    func testF9SaysOnTheStatusLineWhoHoldsWhatItsPushWaitsFor() throws {
        let server: ThrowawayPostgres
        do { server = try ThrowawayPostgres.shared() } catch let unavailable as ThrowawayPostgres.Unavailable {
            throw XCTSkip(unavailable.description)
        }
        let database = try server.createDatabase("e2e")
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        XCTAssertEqual(try ChildProcess.run([Self.binaryPath, "db", "init", "--db", server.connectionString(database: database)]).status, 0)
        let role = "ana_\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(role) LOGIN IN ROLE survey_enumerator")
        defer { _ = try? server.psql("DROP ROLE IF EXISTS \(role)") }
        let enumerator = server.connectionString(database: database, user: role)
        var environment = ProcessInfo.processInfo.environment
        environment["SURVEY_DB"] = enumerator
        environment["SURVEY_DEVICE"] = "laptop-a"
        func shell(_ arguments: [String]) throws -> ChildOutcome {
            try ChildProcess.run([Self.binaryPath, "--dir", folder.path] + arguments, environment: environment)
        }
        XCTAssertEqual(try shell(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva"]).status, 0)
        XCTAssertEqual(try shell(["sync", "--doc", "Field"]).status, 0)
        let id = try server.psql("SELECT instance_id FROM survey.surveys", database: database)
        XCTAssertEqual(try shell(["delete", id, "--doc", "Field"]).status, 0)

        let app = try launch(["--dir", folder.path, "--doc", "Field"], width: 100, height: 30,
                             through: ["SURVEY_DB=" + enumerator, "SURVEY_DEVICE=laptop-a"])
        app.waitFor("New survey")
        // psql, as the database's superuser, locks the survey and keeps it (4 s at most).
        let holder = Thread {
            _ = try? server.psql("BEGIN; SELECT 1 FROM survey.surveys FOR UPDATE; SELECT pg_sleep(4); COMMIT", database: database)
        }
        holder.start()
        defer { XCTAssertTrue(Polling.until { holder.isFinished }, "psql never let go") }
        XCTAssertTrue(try Polling.until {
            try server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event = 'PgSleep'") == "1"
        }, "psql never took the lock")
        try app.press("F9")
        app.waitFor("Syncing “Field”: waiting 1 s for the server: \(server.superuser)'s session (psql, pid")
        // Said while it waits: psql lets go now (its sleep cancelled, its transaction ends).
        _ = try server.psql("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event = 'PgSleep'")
        app.waitFor("Synced “Field”: 0 in, 1 out")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
    }
}
