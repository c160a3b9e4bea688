import Foundation
import XCTest
import SurveyValues
import SurveyStorage
import SurveyTestSupport

/// Issue 31: `survey history ID --local` lists the changes made on this laptop to a survey,
/// from the document's edit history, with no server: oldest first, who, why, old → new; as
/// Central's diff shape in JSON (read back by Python's json).
final class LocalHistoryCommandTests: CLITestCase {
    func testTheLaptopsChangesOfASurveyAreListed() throws {
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Lima", "--age", "30"]).status, 0)
        let id = try XCTUnwrap(try store.load("Field").get().records.first?.instanceID)
        let at = Date(timeIntervalSince1970: 1_780_000_000)
        try store.appendHistory([
            EditHistoryEntry(survey: id, at: at, by: "ana", changes: [AnswerChange(path: SyncFieldPath(text: "age")!, old: .integer(30), new: .integer(31))],
                             reason: "misread the paper"),
            EditHistoryEntry(survey: "uuid:other", at: at, by: "bo", changes: []),
        ], for: "Field")
        let table = try survey(["history", id, "--local", "--doc", "Field"], environment: ["TZ": "UTC"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertEqual(table.stdout, "2026-05-28 20:26:40, by ana: “misread the paper”\n  age: 30 → 31\n")
        let json = try survey(["history", id, "--local", "--doc", "Field", "--format", "json"])
        let file = documents.appendingPathComponent("history.json")
        try Data(json.stdout.utf8).write(to: file)
        let check = try ChildProcess.run(["python3", "-c", """
            import json, sys
            entries = json.loads(open(sys.argv[2], encoding='utf-8').read())
            assert entries == [{"createdAt": "2026-05-28T20:26:40Z", "diff": [{"new": 31, "old": 30, "path": "age"}],
                                "instanceId": sys.argv[1], "reason": "misread the paper", "submitter": "ana"}], entries
            """, id, file.path])
        XCTAssertEqual(check.status, 0, check.errors)
        XCTAssertTrue(try survey(["history", "uuid:none", "--local", "--doc", "Field"]).stdout.hasPrefix("No change of uuid:none made here"))
        XCTAssertEqual(try survey(["history", id, "--local", "--db", "postgresql:///x"]).status, 2, "--local asks no server")
    }
}
