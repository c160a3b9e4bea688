import Foundation
import XCTest
import SurveyTestSupport

/// Issue 19 in the real binary: `survey db init` on a throwaway PostgreSQL, a second laptop
/// adding and syncing from the shell, and the app on the first laptop pressing F9: the
/// other laptop's survey appears in the list while the keys stay live, F4 says when it
/// synced and that nothing is left to send, and plistlib reads both surveys from the file.
final class TeamSyncEndToEndTests: EndToEndTestCase {
    func testF9BringsTheOtherLaptopsSurveyIntoTheList() throws {
        let server: ThrowawayPostgres
        do { server = try ThrowawayPostgres.shared() } catch let unavailable as ThrowawayPostgres.Unavailable {
            throw XCTSkip(unavailable.description)
        }
        let database = try server.createDatabase("e2e")
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let role = "ana_\(UUID().uuidString.prefix(6).lowercased())"
        let admin = server.connectionString(database: database)
        let enumerator = server.connectionString(database: database, user: role)

        let initialized = try ChildProcess.run([Self.binaryPath, "db", "init", "--db", admin])
        XCTAssertEqual(initialized.status, 0, initialized.errors)
        try server.psql("CREATE ROLE \(role) LOGIN IN ROLE survey_enumerator")
        defer { _ = try? server.psql("DROP ROLE IF EXISTS \(role)") }

        // Laptop B, from the shell.
        let laptopB = folder.deletingLastPathComponent().appendingPathComponent("laptop-b")
        try FileManager.default.createDirectory(at: laptopB, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env["SURVEY_DB"] = enumerator
        env["SURVEY_DEVICE"] = "laptop-b"
        func surveyB(_ arguments: [String]) throws -> ChildOutcome {
            try ChildProcess.run([Self.binaryPath, "--dir", laptopB.path] + arguments, environment: env)
        }
        XCTAssertEqual(try surveyB(["add", "--doc", "Field", "--first", "Bo", "--last", "Other", "--age", "12"]).status, 0)
        let pushed = try surveyB(["sync", "--doc", "Field"])
        XCTAssertEqual(pushed.status, 0, pushed.errors)
        XCTAssertEqual(pushed.output, "Synced “Field”: 0 in, 1 out\n")

        // Laptop A, in the app.
        let app = try launch(["--dir", folder.path, "--doc", "Field"], width: 100, height: 30,
                             through: ["SURVEY_DB=" + enumerator, "SURVEY_DEVICE=laptop-a"])
        app.waitFor("New survey")
        try app.press("Enter"); try app.type("Ana"); try app.press("Enter")
        try app.type("Smith"); try app.press("Enter")
        try app.press("Enter"); try app.press("Enter"); try app.press("Enter")   // address, phone, age
        try app.press("Enter")                                                   // [ Add ]
        app.waitFor("Added survey 1")
        try app.press("F9")
        app.waitFor("Synced “Field”: 1 in, 1 out", "Other, Bo")
        try app.press("F4")
        app.waitFor("Sync", "last ", "0 changes not sent")
        try app.press("Escape")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let saved = try records(in: "Field")
        XCTAssertEqual(Set(saved.compactMap { if case .string(let s)? = $0["firstName"] { s } else { nil } }), ["Ana", "Bo"])
        // And B takes A's survey: both laptops hold the same two.
        let pulled = try surveyB(["sync", "--doc", "Field"])
        XCTAssertEqual(pulled.output, "Synced “Field”: 1 in, 0 out\n", pulled.errors)
        XCTAssertFalse(try String(contentsOf: folder.appendingPathComponent(".Field.sync.plist"), encoding: .utf8).contains("password"))

        // The supervisor reviews Ana's survey from the shell; the app shows it after F9.
        let boss = "boss_\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(boss) LOGIN IN ROLE survey_supervisor")
        defer { _ = try? server.psql("DROP ROLE IF EXISTS \(boss)") }
        let anaID = try XCTUnwrap(saved.first { $0["firstName"] == .string("Ana") }.flatMap { if case .string(let id)? = $0["instanceID"] { id } else { nil } })
        let refused = try surveyB(["review", anaID, "has-issues", "--comment", "age missing"])
        XCTAssertEqual(refused.status, 1, "an enumerator may not review")
        XCTAssertTrue(refused.errors.contains("is an enumerator: a supervisor (survey_supervisor) reviews"), refused.errors)
        let reviewed = try ChildProcess.run([Self.binaryPath, "review", anaID, "has-issues", "--comment", "age missing",
                                             "--db", server.connectionString(database: database, user: boss)])
        XCTAssertEqual(reviewed.status, 0, reviewed.errors)
        let again = try launch(["--dir", folder.path, "--doc", "Field"], width: 100, height: 30,
                               through: ["SURVEY_DB=" + enumerator, "SURVEY_DEVICE=laptop-a"])
        again.waitFor("Smith, Ana")
        try again.press("F9")
        again.waitFor("! Smith, Ana")
        try again.press("C-q")
        XCTAssertEqual(again.waitForExit(), 0)
    }
}
