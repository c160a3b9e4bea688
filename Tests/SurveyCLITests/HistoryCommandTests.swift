import Foundation
import XCTest
import SurveyTestSupport

/// Issue 31: `survey history ID` on the real binary, against the tests' throwaway PostgreSQL:
/// a survey's versions, oldest first, and what each changed (a roster member by its path),
/// as text and in ODK Central's diff shape.
final class HistoryCommandTests: TeamCLITestCase {
    private func login(_ name: String, in group: String?) throws -> String { try loginRole(name, in: group) }

    private func environment(_ role: String) -> [String: String] {
        ["SURVEY_DB": server.connectionString(database: database, user: role)]
    }

    /// Ana sends a household with two members, corrects the second member's age, then deletes
    /// the first member, adds a phone and drops the age in one edit, which also deletes the
    /// survey (a tombstone): what a laptop's pushes do, in SQL as her login.
    private func historyOfAnEditedRoster() throws -> String {
        let ana = try login("ana", in: "survey_enumerator")
        try server.psql("""
            INSERT INTO survey.surveys (instance_id, dataset, answers, form_id, form_version, device) VALUES ('uuid:1', 'household',
                '{"name": "Ana", "age": 35, "members": [{"member_name": "Bea", "member_age": 7}, {"member_name": "Ciro", "member_age": 71}]}',
                'household', '2024-05', 'laptop-1')
            """, database: database, user: ana)
        try server.psql("UPDATE survey.surveys SET answers = jsonb_set(answers, '{members,1,member_age}', '72'), base_revision = 1",
                        database: database, user: ana)
        try server.psql("""
            UPDATE survey.surveys SET answers = (answers - 'age') || '{"phone": "555", "members": [{"member_name": "Ciro", "member_age": 72}]}',
                deleted = true, base_revision = 2
            """, database: database, user: ana)
        return ana
    }

    /// Each version's time as the command prints it (TZ=UTC, whole seconds).
    private func times(_ format: String) throws -> [String] {
        try server.psql("SELECT string_agg(to_char(made_at AT TIME ZONE 'UTC', '\(format)'), ',' ORDER BY revision) FROM survey.survey_history",
                        database: database).split(separator: ",").map(String.init)
    }

    func testTheHistoryOfASurveyWithARosterMemberEdited() throws {
        let ana = try historyOfAnEditedRoster()
        let at = try times("YYYY-MM-DD HH24:MI:SS")
        XCTAssertEqual(try survey(["history", "uuid:1"], dir: false, environment: environment(ana)), Outcome(status: 0, stdout: """
            revision 1, \(at[0]), by \(ana) on laptop-1, form household version 2024-05
            revision 2, \(at[1]), by \(ana) on laptop-1
              members[2]/member_age: 71 → 72
            revision 3, \(at[2]), by \(ana) on laptop-1, deleted (current)
              age: 35 → -
              members[1]: { "member_age": 7, "member_name": "Bea" } → -
              phone: - → 555

            """, stderr: ""))
        // A version's id names the same survey; a supervisor reads it too.
        let sofia = try login("sofia", in: "survey_supervisor")
        let byVersion = try survey(["history", "uuid:1~2"], dir: false, environment: environment(sofia))
        XCTAssertEqual(byVersion.status, 0, byVersion.stderr)
        XCTAssertTrue(byVersion.stdout.hasPrefix("uuid:1~2 is a version of uuid:1\nrevision 1, "), byVersion.stdout)
    }

    /// `--format json`: each version as ODK Central's `/versions` lists one, its changes as
    /// Central's `/diffs` gives them: `{"new", "old", "path"}`, a side that was not there left
    /// out, a member as `[name, place from 0]`, the version's instanceID and deprecatedID.
    func testTheJSONIsCentralsVersionsAndDiffs() throws {
        let ana = try historyOfAnEditedRoster()
        let outcome = try survey(["history", "uuid:1", "--format", "json"], dir: false, environment: environment(ana))
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? NSDictionary)
        let at = try times("YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"")
        let expected: NSDictionary = [
            "instanceId": "uuid:1",
            "versions": [
                ["instanceId": "uuid:1", "revision": 1, "current": false, "deleted": false, "submitter": ana, "deviceId": "laptop-1",
                 "createdAt": at[0], "formId": "household", "formVersion": "2024-05"],
                ["instanceId": "uuid:1~2", "deprecatedId": "uuid:1", "revision": 2, "current": false, "deleted": false, "submitter": ana,
                 "deviceId": "laptop-1", "createdAt": at[1], "formId": "household", "formVersion": "2024-05",
                 "diff": [
                    ["old": 71, "new": 72, "path": [["members", 1], "member_age"]],
                    ["old": "uuid:1", "new": "uuid:1~2", "path": ["meta", "instanceID"]],
                    ["new": "uuid:1", "path": ["meta", "deprecatedID"]],
                 ]],
                ["instanceId": "uuid:1~3", "deprecatedId": "uuid:1~2", "revision": 3, "current": true, "deleted": true, "submitter": ana,
                 "deviceId": "laptop-1", "createdAt": at[2], "formId": "household", "formVersion": "2024-05",
                 "diff": [
                    ["old": 35, "path": ["age"]],
                    ["old": ["member_name": "Bea", "member_age": 7], "path": [["members", 0]]],
                    ["new": "555", "path": ["phone"]],
                    ["old": "uuid:1~2", "new": "uuid:1~3", "path": ["meta", "instanceID"]],
                    ["old": "uuid:1", "new": "uuid:1~2", "path": ["meta", "deprecatedID"]],
                 ]],
            ],
        ]
        XCTAssertEqual(object, expected)
    }

    func testAnUnknownIdIsRefusedInWords() throws {
        let ana = try login("ana", in: "survey_enumerator")
        let shown = server.connectionString(database: database, user: ana)
        XCTAssertEqual(try survey(["history", "uuid:nope"], dir: false, environment: environment(ana)),
                       Outcome(status: 1, stdout: "", stderr: "survey: uuid:nope: no such survey on \(shown)\n"))
        XCTAssertEqual(try survey(["history", "uuid:nope", "--format", "json"], dir: false, environment: environment(ana)),
                       Outcome(status: 1, stdout: "", stderr: "survey: uuid:nope: no such survey on \(shown)\n"))
        // A role in neither group is told who adds it, never the server's `permission denied`.
        let nobody = try login("nobody", in: nil)
        XCTAssertEqual(try survey(["history", "uuid:1"], dir: false, environment: environment(nobody)),
                       Outcome(status: 1, stdout: "", stderr: "survey: uuid:1: \(nobody) is in neither survey_enumerator nor survey_supervisor,"
                               + " so the team's database lets it do nothing: the database's owner adds it to one"
                               + " (GRANT survey_enumerator TO \(nobody), or survey_supervisor)\n"))
        let usage = try survey(["history"], dir: false)
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.hasPrefix("survey: missing id: survey history ID [--format table|json] [--db URL]\n"), usage.stderr)
        XCTAssertTrue(try survey(["history", "uuid:1", "--format", "csv"], dir: false).stderr
            .hasPrefix("survey: unknown format “csv” for survey history (use table, json)\n"))
    }
}
