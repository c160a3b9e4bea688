import Foundation
import XCTest
import SurveyValues
import SurveyStorage
import SurveyTestSupport

/// Issue 31: a version of a survey brought back (`survey history ID --bring-back N`), from the
/// shell against the tests' throwaway PostgreSQL: the laptop's survey takes revision N's
/// answers as a new edit, noted in its history with why, and the next sync sends it as a new
/// version, every version before it still on the server. Refused, with nothing changed, where
/// it would change what it must not.
final class BringBackTests: TeamCLITestCase {
    private func login(_ name: String, in group: String) throws -> [String: String] {
        ["SURVEY_DB": connection(as: try loginRole(name, in: group)), "SURVEY_DEVICE": "laptop-\(name)", "SURVEY_USERNAME": name]
    }

    /// Ana's survey, synced at age 30, corrected to 31 and synced again: revisions 1 and 2.
    private func twoRevisions(_ ana: [String: String]) throws -> String {
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva", "--age", "30"]).status, 0)
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        var document = try store.load("Field").get()
        document.records[0]["age"] = .integer(31)
        try store.save(document, as: "Field")
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        return try XCTUnwrap(document.records[0].instanceID)
    }

    func testARevisionBroughtBackIsSentAsANewVersionWithWhy() throws {
        let ana = try login("ana", in: "survey_enumerator")
        let id = try twoRevisions(ana)

        let brought = try survey(["history", id, "--bring-back", "1", "--doc", "Field", "--reason", "the paper says 30"], environment: ana)
        XCTAssertEqual(brought.status, 0, brought.stderr)
        XCTAssertEqual(brought.stdout, "Brought back revision 1 of Silva, Ana (\(id)) in “Field”: 1 answer changed; "
            + "survey sync sends it as a new version\n")
        XCTAssertEqual(try store.load("Field").get().records[0]["age"], .integer(30))
        XCTAssertEqual(try store.load("Field").get().records[0].instanceID, id)
        let local = try survey(["history", id, "--local", "--doc", "Field"])
        XCTAssertTrue(local.stdout.contains(", by ana: “brought back revision 1: the paper says 30”\n  age: 31 → 30\n"), local.stdout)

        // Sent as revision 3; the server keeps all three.
        let sync = try survey(["sync", "--doc", "Field"], environment: ana)
        XCTAssertTrue(sync.stdout.contains("0 in, 1 out"), sync.stdout + sync.stderr)
        let history = try survey(["history", id], dir: false, environment: ana).stdout
        let lines = history.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("revision ") }.count, 3, history)
        XCTAssertEqual(Array(lines.suffix(2)).last, "  age: 31 → 30", history)
        XCTAssertTrue(lines[lines.count - 2].hasPrefix("revision 3, ")
                      && lines[lines.count - 2].hasSuffix("(current): “brought back revision 1: the paper says 30”"), history)
        let json = try survey(["history", id, "--format", "json"], dir: false, environment: ana)
        let versions = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? NSDictionary)?["versions"] as? [NSDictionary])
        XCTAssertEqual(versions.map { $0["reason"] as? String }, [nil, nil, "brought back revision 1: the paper says 30"])

        // The server keeps a reason on the revision it was sent for only: an edit made without
        // one (psql, an older laptop) does not inherit it, and a review keeps it.
        let sofia = try login("sofia", in: "survey_supervisor")
        XCTAssertEqual(try survey(["review", id, "approved"], dir: false, environment: sofia).status, 0)
        let owner = try XCTUnwrap(ana["SURVEY_DB"]?.components(separatedBy: "user=").last)
        try server.psql("UPDATE survey.surveys SET answers = jsonb_set(answers, '{age}', '29'), base_revision = 3",
                        database: database, user: owner)
        XCTAssertEqual(try server.psql("""
            SELECT revision || ':' || coalesce(change_reason, '-') FROM (
                SELECT revision, change_reason FROM survey.survey_versions UNION ALL SELECT revision, change_reason FROM survey.surveys) r
            ORDER BY revision
            """, database: database).split(separator: "\n").map(String.init),
                       ["1:-", "2:-", "3:brought back revision 1: the paper says 30", "4:-"])
        // Nobody rewrites why a revision was made without making a new one.
        try server.psql("UPDATE survey.surveys SET change_reason = 'rewritten', change_reason_revision = 4", database: database, user: owner)
        XCTAssertEqual(try server.psql("SELECT coalesce(change_reason, '-') FROM survey.surveys", database: database), "-")
        // A reason no laptop sends (a control character) is refused by the server's check.
        XCTAssertThrowsError(try server.psql("UPDATE survey.surveys SET answers = jsonb_set(answers, '{age}', '28'), base_revision = 4, "
                                             + "change_reason = E'bell\\x07', change_reason_revision = 5", database: database, user: owner))

        // A reason given before a change waits in the ledger until an edit of its survey is
        // taken, then goes with it.
        XCTAssertEqual(try store.syncLedger(for: "Field").pendingReasons, [:])
        try store.appendHistory([EditHistoryEntry(survey: id, at: Date(), by: "ana", changes: [], reason: "second visit")], for: "Field")
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        var document = try store.load("Field").get()
        document.records[0]["age"] = .integer(33)
        try store.save(document, as: "Field")
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        XCTAssertTrue(try survey(["history", id], dir: false, environment: ana).stdout.contains("(current): “second visit”"))
        XCTAssertEqual(try store.syncLedger(for: "Field").pendingReasons, [:])

        // Asked again (the laptop synced back to the server's revision, age 33): nothing changes.
        let before = try Data(contentsOf: store.url(for: "Field"))
        XCTAssertEqual(try survey(["history", id, "--bring-back", "5", "--doc", "Field"], environment: ana).stdout,
                       "\(id) in “Field” already holds the answers of revision 5: nothing changed\n")
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Field")), before, "the file is not written")
    }

    func testRefusalsChangeNothing() throws {
        let ana = try login("ana", in: "survey_enumerator")
        let id = try twoRevisions(ana)
        let document = try Data(contentsOf: store.url(for: "Field"))
        func refused(_ arguments: [String], _ environment: [String: String], _ words: String,
                     file: StaticString = #filePath, line: UInt = #line) throws {
            let outcome = try survey(arguments, environment: environment)
            XCTAssertEqual(outcome.status, 1, outcome.stdout, file: file, line: line)
            XCTAssertTrue(outcome.stderr.contains(words), outcome.stderr, file: file, line: line)
            XCTAssertEqual(try Data(contentsOf: store.url(for: "Field")), document, "nothing changed", file: file, line: line)
        }
        try refused(["history", id, "--bring-back", "7", "--doc", "Field"], ana, "has no revision 7")

        // Approved by a supervisor: a reason is needed.
        let sofia = try login("sofia", in: "survey_supervisor")
        XCTAssertEqual(try survey(["review", id, "approved"], dir: false, environment: sofia).status, 0)
        try refused(["history", id, "--bring-back", "1", "--doc", "Field"], ana, "say why with --reason TEXT: a supervisor approved")

        // Bo's laptop has Ana's survey (pulled): only Ana changes it.
        let bo = try login("bo", in: "survey_enumerator")
        let boFolder = documents.appendingPathComponent("bo", isDirectory: true)
        try FileManager.default.createDirectory(at: boFolder, withIntermediateDirectories: true)
        try DocumentStore(folder: boFolder).save(SurveyDocument(records: []), as: "Field")
        XCTAssertEqual(try survey(["--dir", boFolder.path, "sync", "--doc", "Field"], dir: false, environment: bo).status, 0)
        let boDocument = try Data(contentsOf: DocumentStore(folder: boFolder).url(for: "Field"))
        let outcome = try survey(["--dir", boFolder.path, "history", id, "--bring-back", "1", "--doc", "Field", "--reason", "x"],
                                 dir: false, environment: bo)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("is not changed: it is ana_"), outcome.stderr)
        XCTAssertEqual(try Data(contentsOf: DocumentStore(folder: boFolder).url(for: "Field")), boDocument)

        // Words that make no sense are refused before the server is asked.
        XCTAssertEqual(try survey(["history", id, "--bring-back", "first"]).status, 2)
        XCTAssertEqual(try survey(["history", id, "--local", "--bring-back", "1"]).status, 2)
        XCTAssertEqual(try survey(["history", id, "--reason", "why"]).status, 2)
    }
}
