import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 28: who reviewed a survey, and when, stays the supervisor's. An enumerator's fix of a
/// reviewed survey marks it `edited` (the server's trigger) and leaves `reviewed_by` and
/// `reviewed_at` as the review set them; until migration 4 the fix overwrote both with the
/// enumerator and the time of the fix.
final class ReviewStampTests: DatabaseTestCase {
    func testAFixMarksTheSurveyEditedAndKeepsTheSupervisorsNameAndTime() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        _ = try ana.push([survey("uuid:1")])
        XCTAssertTrue(try sofia.setReview("uuid:1", state: .hasIssues, comment: "age looks wrong"))
        let reviewed = try XCTUnwrap(try pullAll(sofia).first?.review)
        XCTAssertEqual(reviewed.by, try sofia.role())
        let reviewedAt = try XCTUnwrap(reviewed.at)

        var fix = survey("uuid:1")
        fix.answers["age"] = .integer(36)
        fix.baseRevision = 1
        XCTAssertEqual(try ana.push([fix]).map(\.outcome), [.accepted(revision: 2)])
        let fixed = try XCTUnwrap(try pullAll(sofia).first)
        XCTAssertEqual(fixed.review?.state, .edited)
        XCTAssertEqual(fixed.review?.comment, "age looks wrong")
        XCTAssertEqual(fixed.review?.by, try sofia.role(), "the enumerator's fix is not a review")
        XCTAssertEqual(fixed.review?.at, reviewedAt)
        XCTAssertEqual(fixed.owner, try ana.role())
        XCTAssertGreaterThan(fixed.updatedAt, reviewedAt)

        // A second fix changes nothing of the review either.
        fix.answers["age"] = .integer(37)
        fix.baseRevision = 2
        XCTAssertEqual(try ana.push([fix]).map(\.outcome), [.accepted(revision: 3)])
        let again = try XCTUnwrap(try pullAll(sofia).first?.review)
        XCTAssertEqual([again.state.rawValue, again.comment, again.by], [ReviewState.edited.rawValue, "age looks wrong", try sofia.role()])
        XCTAssertEqual(again.at, reviewedAt)

        // The supervisor's next verdict is stamped anew, with her name and its own time.
        XCTAssertTrue(try sofia.setReview("uuid:1", state: .approved, comment: nil))
        let approved = try XCTUnwrap(try pullAll(sofia).first?.review)
        XCTAssertEqual(approved.state, .approved)
        XCTAssertEqual(approved.by, try sofia.role())
        XCTAssertGreaterThan(try XCTUnwrap(approved.at), reviewedAt)
    }

    /// The stamp is the server's: the database's owner (who bypasses the column privileges)
    /// writing it without a review gets the stamp the row had.
    func testTheStampIsWrittenOnlyByAReview() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        _ = try ana.push([survey("uuid:1")])
        XCTAssertTrue(try sofia.setReview("uuid:1", state: .rejected, comment: "duplicate"))
        try server.psql("UPDATE survey.surveys SET reviewed_by = 'someone', reviewed_at = now() - interval '1 day'",
                        database: database)
        let review = try XCTUnwrap(try pullAll(ana).first?.review)
        XCTAssertEqual(review.by, try sofia.role())
        XCTAssertEqual(review.state, .rejected)
    }

    /// Issue 31, a bulk review: the surveys chosen are reviewed only if still as they were
    /// chosen. One deleted since, one of another form and one reviewed meanwhile are left.
    func testABulkReviewLeavesWhatChangedSinceItWasChosen() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        var other = survey("uuid:3")
        other.dataset = "other"
        _ = try ana.push([survey("uuid:1"), survey("uuid:2"), other, survey("uuid:4")])
        var gone = survey("uuid:2")
        gone.deleted = true
        gone.baseRevision = 1
        XCTAssertEqual(try ana.push([gone]).map(\.outcome), [.accepted(revision: 2)])
        XCTAssertTrue(try sofia.setReview("uuid:4", state: .approved, comment: nil))
        let dataset = survey("uuid:1").dataset
        let changed = try sofia.setReviews(["uuid:1", "uuid:2", "uuid:3", "uuid:4"], state: .hasIssues, comment: "check",
                                          dataset: dataset, reviewed: .some(nil))
        XCTAssertEqual(changed, ["uuid:1"], "not the deleted, not another form's, not one reviewed since")
        XCTAssertEqual(try sofia.review(of: "uuid:4")?.state, .approved)
        XCTAssertNil(try sofia.review(of: "uuid:2"))
    }
}
