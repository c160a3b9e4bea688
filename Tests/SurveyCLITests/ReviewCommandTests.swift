import Foundation
import XCTest
import SurveyValues
import SurveyStorage
import SurveyTestSupport

/// Issue 31, send-back, from the shell against the tests' throwaway PostgreSQL: a supervisor
/// reviews many surveys at once by the words in their answers and by their review now, clears
/// a review, and the enumerator's laptop hears each after a sync.
final class ReviewCommandTests: TeamCLITestCase {
    private func login(_ name: String, in group: String) throws -> [String: String] {
        ["SURVEY_DB": connection(as: try loginRole(name, in: group)), "SURVEY_DEVICE": "laptop-\(name)"]
    }

    private func reviews() throws -> [String: SyncReview] { try store.syncLedger(for: "Field").reviews.dictionary }

    func testABulkReviewByWordsAndByReviewThenAClearReachTheEnumerator() throws {
        let ana = try login("ana", in: "survey_enumerator")
        let sofia = try login("sofia", in: "survey_supervisor")
        for (first, last) in [("Ana", "Silva"), ("Bo", "Silva"), ("Cy", "Lima")] {
            XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", first, "--last", last]).status, 0)
        }
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        let ids = Dictionary(uniqueKeysWithValues: try store.load("Field").get().records.map { ($0.text(forKey: "firstName"), $0.instanceID!) })

        // Every Silva, any case and accent, as the app's `/` finds them.
        let silva = try survey(["review", "--filter", "sílva", "has-issues", "--comment", "age missing"], dir: false, environment: sofia)
        XCTAssertEqual(silva.status, 0, silva.stderr)
        XCTAssertEqual(Set(silva.stdout.split(separator: "\n").dropLast().map(String.init)),
                       ["has-issues  \(ids["Ana"]!)", "has-issues  \(ids["Bo"]!)"])
        XCTAssertTrue(silva.stdout.hasSuffix("2 surveys: has-issues; the enumerators see it after their next sync\n"), silva.stdout)
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        XCTAssertEqual(try reviews()[ids["Ana"]!], SyncReview(.hasIssues, comment: "age missing"))
        XCTAssertNil(try reviews()[ids["Cy"]!])

        // The unreviewed rest approved, and only them.
        let rest = try survey(["review", "--filter", "", "--reviewed", "none", "approved"], dir: false, environment: sofia)
        XCTAssertEqual(rest.stdout, "approved  \(ids["Cy"]!)\n1 survey: approved; the enumerators see it after their next sync\n")
        XCTAssertEqual(try survey(["review", "--filter", "nobody-has-this", "approved"], dir: false, environment: sofia).stdout,
                       "0 surveys: approved (none matched)\n")

        // A review taken back: the laptop's sent-back list loses it at the next sync.
        XCTAssertEqual(try survey(["review", ids["Bo"]!, "clear"], dir: false, environment: sofia).stdout,
                       "\(ids["Bo"]!): review cleared; the enumerator sees it after their next sync\n")
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        let after = try reviews()
        XCTAssertNil(after[ids["Bo"]!], "cleared on the server, cleared here")
        XCTAssertEqual(after[ids["Ana"]!]?.state, .hasIssues)
        XCTAssertEqual(after[ids["Cy"]!]?.state, .approved)
    }

    /// The supervisor checks a fix: `survey history` says when she reviewed, on which
    /// revision, and what changed since, answer by answer.
    func testHistorySaysWhatChangedSinceTheReview() throws {
        let ana = try login("ana", in: "survey_enumerator")
        let sofia = try login("sofia", in: "survey_supervisor")
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva", "--age", "30"]).status, 0)
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        let id = try XCTUnwrap(try store.load("Field").get().records.first?.instanceID)
        XCTAssertEqual(try survey(["review", id, "has-issues", "--comment", "age wrong"], dir: false, environment: sofia).status, 0)
        let before = try survey(["history", id], dir: false, environment: sofia).stdout
        XCTAssertTrue(before.contains("\nreviewed has-issues by sofia_"), before)
        XCTAssertTrue(before.contains(", on revision 1: “age wrong”\nno change since the review\n"), before)

        var document = try store.load("Field").get()
        document.records[0]["age"] = .integer(31)
        try store.save(document, as: "Field")
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        let history = try survey(["history", id], dir: false, environment: sofia).stdout
        let lines = history.split(separator: "\n").map(String.init)
        let reviewed = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("reviewed by sofia_") }, history)
        XCTAssertTrue(lines[reviewed].hasSuffix(", on revision 1: “age wrong”; edited since, waiting for a review"), history)
        XCTAssertEqual(Array(lines[(reviewed + 1)...]), ["since the review (revision 1 → 2):", "  age: 30 → 31"], history)
    }

    func testWrongWordsAreRefusedBeforeTheServerIsAsked() throws {
        XCTAssertEqual(try survey(["review", "uuid:x", "maybe"], dir: false).status, 2)
        XCTAssertTrue(try survey(["review", "uuid:x", "clear", "--comment", "x"], dir: false).stderr.contains("clear takes no --comment"))
        XCTAssertTrue(try survey(["review", "uuid:x", "approved", "--reviewed", "none"], dir: false).stderr
            .contains("--reviewed and --form-id go with --filter"))
        XCTAssertTrue(try survey(["review", "--filter", "x", "approved", "--reviewed", "sometimes"], dir: false).stderr
            .contains("unknown review “sometimes”"))
    }
}
