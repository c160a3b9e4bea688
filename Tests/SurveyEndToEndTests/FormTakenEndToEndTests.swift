import Foundation
import XCTest
import SurveyTestSupport

/// Issue 28 in the real binary: the supervisor publishes version 3 of the form while the
/// app on a laptop keys a New form under version 2. F9 takes version 3: the status says the
/// New form keeps version 2, it is added under version 2, and the next New form asks version
/// 3's new question, without reopening the app.
final class FormTakenEndToEndTests: EndToEndTestCase {
    private func form(version: Int) -> String {
        """
        survey,,,
        ,type,name,label
        ,text,name,Name
        ,integer,age,Age
        \(version >= 3 ? ",text,phone,Phone" : "")
        settings,,,
        ,form_id,version,
        ,household,\(version),
        """
    }

    func testF9TakesTheNewVersionAndTheNewFormInProgressKeepsItsOwn() throws {
        let server: ThrowawayPostgres
        do { server = try ThrowawayPostgres.shared() } catch let unavailable as ThrowawayPostgres.Unavailable {
            throw XCTSkip(unavailable.description)
        }
        let database = try server.createDatabase("e2e")
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let (ana, boss) = ("ana_\(suffix)", "boss_\(suffix)")
        XCTAssertEqual(try ChildProcess.run([Self.binaryPath, "db", "init", "--db", server.connectionString(database: database)]).status, 0)
        try server.psql("CREATE ROLE \(ana) LOGIN IN ROLE survey_enumerator")
        try server.psql("CREATE ROLE \(boss) LOGIN IN ROLE survey_supervisor")
        defer { _ = try? server.psql("DROP ROLE IF EXISTS \(ana)"); _ = try? server.psql("DROP ROLE IF EXISTS \(boss)") }
        let enumerator = server.connectionString(database: database, user: ana)

        // The office publishes version 2; the laptop's first sync takes it.
        let office = folder.deletingLastPathComponent().appendingPathComponent("office")
        try FileManager.default.createDirectory(at: office, withIntermediateDirectories: true)
        func survey(_ dir: URL, _ arguments: [String], as role: String) throws {
            let outcome = try ChildProcess.run([Self.binaryPath, "--dir", dir.path] + arguments,
                                               environment: ProcessInfo.processInfo.environment.merging(
                                                   ["SURVEY_DB": server.connectionString(database: database, user: role),
                                                    "SURVEY_DEVICE": "e2e"]) { $1 })
            XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome.errors)")
        }
        func publish(_ version: Int) throws {
            let file = office.appendingPathComponent("household-\(version).csv")
            try Data(form(version: version).utf8).write(to: file)
            try survey(office, ["form", "attach", file.path, "--doc", "household"], as: boss)
            try survey(office, ["form", "publish", "--doc", "household"], as: boss)
        }
        try survey(office, ["docs", "new", "household"], as: boss)
        try publish(2)
        try survey(folder, ["docs", "new", "household"], as: ana)
        try survey(folder, ["sync", "--doc", "household"], as: ana)
        try publish(3)

        let app = try launch(["--dir", folder.path, "--doc", "household"], width: 100, height: 30,
                             through: ["SURVEY_DB=" + enumerator, "SURVEY_DEVICE=laptop-a"])
        app.waitFor("Name", "Age")
        try app.press("C-n")
        try app.type("Ana"); try app.press("Enter")      // committed; Age is being typed
        try app.press("Escape")                          // left empty for now
        try app.press("F9")
        app.waitFor("form household version 3 taken; this new survey keeps version 2")
        let screen = try app.screen()
        XCTAssertFalse(screen.contains("Phone"), screen)
        try app.press("Enter")                           // Age
        try app.type("34"); try app.press("Enter")       // the last question of version 2
        try app.press("Enter")                           // [ Add ]
        app.waitFor("Added survey 1")
        try app.press("C-n")
        app.waitFor("Phone")
        try app.press("Escape")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        let saved = try records(in: "household")
        XCTAssertEqual(saved.first?["formVersion"], .string("2"))
        XCTAssertEqual(saved.first?["name"], .string("Ana"))
    }
}
