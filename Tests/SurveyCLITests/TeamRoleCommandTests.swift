import Foundation
import XCTest
import SurveyTestSupport

/// Issue 28: the real binary, against the tests' throwaway PostgreSQL, says who may do what
/// when the server refuses a role, never `permission denied for table surveys`.
final class TeamRoleCommandTests: TeamCLITestCase {
    /// A login role in `group` (nil: in none); the environment that connects as it.
    private func login(_ name: String, in group: String?) throws -> (role: String, environment: [String: String]) {
        let role = try loginRole(name, in: group)
        return (role, ["SURVEY_DB": connection(as: role), "SURVEY_DEVICE": "laptop-\(name)"])
    }

    func testAReviewByAnEnumeratorSaysASupervisorReviews() throws {
        let ana = try login("ana", in: "survey_enumerator")
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva"]).status, 0)
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana.environment).status, 0)
        let id = try XCTUnwrap(try store.load("Field").get().records.first?.instanceID)
        XCTAssertEqual(try survey(["review", id, "approved"], dir: false, environment: ana.environment),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(id): \(ana.role) is an enumerator: a supervisor (survey_supervisor)"
                               + " reviews; surveys are added and fixed by enumerators\n"))
    }

    func testASyncByASupervisorWithSurveysOfHerOwnSaysEnumeratorsPush() throws {
        let sofia = try login("sofia", in: "survey_supervisor")
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva"]).status, 0)
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: sofia.environment),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(sofia.role) is a supervisor: surveys are pushed by enumerators"
                               + " (survey_enumerator); a supervisor reviews them and publishes forms\n"))
        // Pulling is hers to do.
        XCTAssertEqual(try survey(["pull", "--doc", "Field"], environment: sofia.environment).status, 0)
    }

    func testARoleInNeitherGroupIsToldWhoAddsIt() throws {
        let nobody = try login("nobody", in: nil)
        XCTAssertEqual(try survey(["docs", "new", "Field"]).status, 0)
        let words = "\(nobody.role) is in neither survey_enumerator nor survey_supervisor, so the team's database lets it do nothing:"
            + " the database's owner adds it to one (GRANT survey_enumerator TO \(nobody.role), or survey_supervisor)"
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: nobody.environment),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(words)\n"))
        XCTAssertEqual(try survey(["review", "uuid:x", "approved"], dir: false, environment: nobody.environment),
                       Outcome(status: 1, stdout: "", stderr: "survey: uuid:x: \(words)\n"))
    }
}
