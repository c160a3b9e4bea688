import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// Who may do what, enforced by the server: row-level security for enumerators, column
/// privileges for the supervisor.
final class RowSecurityTests: DatabaseTestCase {
    func testAnEnumeratorCannotChangeAnotherEnumeratorsSurvey() throws {
        try initialize()
        let ana = try enumerator("ana")
        let bruno = try enumerator("bruno")
        _ = try ana.push([survey("uuid:ana")])
        var edit = survey("uuid:ana", name: "Bruno was here")
        edit.baseRevision = 1
        XCTAssertEqual(try bruno.push([edit]).map(\.outcome), [.refused(owner: try ana.role())])
        var tombstone = survey("uuid:ana")
        tombstone.baseRevision = 1
        tombstone.deleted = true
        XCTAssertEqual(try bruno.push([tombstone]).map(\.outcome), [.refused(owner: try ana.role())])
        // Not through SQL of his own either.
        XCTAssertEqual(try bruno.connection.execute("UPDATE survey.surveys SET answers = '{}'").changed, 0)
        XCTAssertThrowsError(try bruno.connection.execute("DELETE FROM survey.surveys")) { error in
            XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
        }
        let row = try XCTUnwrap(try pullAll(ana).first)
        XCTAssertEqual(row.answers["name"], .string("Ana"))
        XCTAssertFalse(row.deleted)
        XCTAssertEqual(row.revision, 1)
    }

    /// A login in both groups (a supervisor who also collects surveys) keys its own surveys
    /// and reviews anyone's, but never changes a teammate's answers, by push or by SQL: the
    /// supervisor's rule let it update any row and the enumerator's grant any answer column.
    /// Its push hears whose survey it is, and the rest of the batch is stored (issue 28).
    func testALoginInBothGroupsReviewsButNeverChangesATeammatesAnswers() throws {
        try initialize()
        let ana = try enumerator("ana")
        let role = try loginRole("mia", in: "survey_enumerator")
        try server.psql("GRANT survey_supervisor TO \(role)")
        let mia = try SurveyServer(target(as: role))
        _ = try ana.push([survey("uuid:ana")])
        var edit = survey("uuid:ana", name: "Mia was here")
        edit.baseRevision = 1
        var tombstone = survey("uuid:ana")
        tombstone.baseRevision = 1
        tombstone.deleted = true
        XCTAssertEqual(try mia.push([edit, survey("uuid:mia", name: "Mia")]).map(\.outcome),
                       [.refused(owner: try ana.role()), .accepted(revision: 1)])
        XCTAssertEqual(try mia.push([tombstone]).map(\.outcome), [.refused(owner: try ana.role())])
        XCTAssertEqual(try mia.connection.execute("UPDATE survey.surveys SET answers = '{}' WHERE instance_id = 'uuid:ana'").changed, 0)
        XCTAssertEqual(try mia.connection.execute("UPDATE survey.surveys SET dataset = 'elsewhere' WHERE instance_id = 'uuid:ana'").changed, 0)
        // Her own survey she may change; anyone's she may review.
        var own = survey("uuid:mia", name: "Mia, corrected")
        own.baseRevision = 1
        XCTAssertEqual(try mia.push([own]).map(\.outcome), [.accepted(revision: 2)])
        XCTAssertTrue(try mia.setReview("uuid:ana", state: .approved, comment: "fine"))
        let row = try XCTUnwrap(try pullAll(ana).first { $0.instanceID == "uuid:ana" })
        XCTAssertEqual(row.answers["name"], .string("Ana"))
        XCTAssertFalse(row.deleted)
        XCTAssertEqual(row.revision, 1)
        XCTAssertEqual(row.review?.state, .approved)
        // The database's owner (a data manager) still can.
        XCTAssertEqual(try server.psql("UPDATE survey.surveys SET answers = answers || '{\"name\": \"Fixed\"}' WHERE instance_id = 'uuid:ana'",
                                       database: database), "")
        XCTAssertEqual(try server.psql("SELECT answers->>'name' FROM survey.surveys WHERE instance_id = 'uuid:ana'", database: database),
                       "Fixed")
    }

    func testAnEnumeratorCannotClaimAnotherOwnerOrSetAReview() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:ana")])
        XCTAssertThrowsError(try ana.connection.execute("UPDATE survey.surveys SET review_state = 'approved'")) { error in
            XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
        }
        XCTAssertThrowsError(try ana.connection.execute(
            "INSERT INTO survey.surveys (instance_id, dataset, answers, owner) VALUES ('x', 'household', '{}', 'someone')")) { error in
            XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
        }
    }

    func testASupervisorSetsOnlyTheReviewColumnsAndTheFixComesBackEdited() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        _ = try ana.push([survey("uuid:1")])
        XCTAssertTrue(try sofia.setReview("uuid:1", state: .hasIssues, comment: "age looks wrong"))
        XCTAssertFalse(try sofia.setReview("uuid:none", state: .approved, comment: nil))
        // The answers are not the supervisor's to change, by push or by SQL.
        var edit = survey("uuid:1", name: "Sofia's")
        edit.baseRevision = 1
        XCTAssertThrowsError(try sofia.push([edit])) { error in
            XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
        }
        XCTAssertThrowsError(try sofia.connection.execute("UPDATE survey.surveys SET answers = '{}'")) { error in
            XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
        }
        // The enumerator sees the state and the comment after a pull; the review kept the revision.
        let reviewed = try XCTUnwrap(try pullAll(ana).first)
        XCTAssertEqual(reviewed.review?.state, .hasIssues)
        XCTAssertEqual(reviewed.review?.comment, "age looks wrong")
        XCTAssertEqual(reviewed.review?.by, try sofia.role())
        XCTAssertNotNil(reviewed.review?.at)
        XCTAssertEqual(reviewed.revision, 1)
        XCTAssertEqual(reviewed.answers["name"], .string("Ana"))
        // The fix syncs back as edited.
        var fix = survey("uuid:1")
        fix.answers["age"] = .integer(36)
        fix.baseRevision = reviewed.revision
        XCTAssertEqual(try ana.push([fix]).map(\.outcome), [.accepted(revision: 2)])
        let fixed = try XCTUnwrap(try pullAll(sofia).first)
        XCTAssertEqual(fixed.review?.state, .edited)
        XCTAssertEqual(fixed.answers["age"], .integer(36))
    }
}
