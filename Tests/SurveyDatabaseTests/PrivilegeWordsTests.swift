import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 28: a refused privilege says who may do what, through the real server, never the
/// server's `permission denied for table surveys` or `new row violates row-level security
/// policy`. The SQLSTATE stays in the error's kind (`isPermissionDenied`).
final class PrivilegeWordsTests: DatabaseTestCase {
    private func refusal(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            try body()
            XCTFail("not refused", file: file, line: line)
            return ""
        } catch let error as DatabaseError {
            XCTAssertTrue(error.isPermissionDenied, "\(error.kind): \(error)", file: file, line: line)
            for serverWords in ["permission denied", "row-level security", "violates", "42501", "survey.surveys", "table"] {
                XCTAssertFalse(error.message.contains(serverWords), error.message, file: file, line: line)
            }
            return error.message
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return ""
        }
    }

    func testASupervisorsPushSaysSurveysArePushedByEnumerators() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        let words = "\(try sofia.role()) is a supervisor: surveys are pushed by enumerators (survey_enumerator); a supervisor reviews them and publishes forms"
        XCTAssertEqual(refusal { _ = try sofia.push([survey("uuid:sofia")]) }, words)
        _ = try ana.push([survey("uuid:ana")])
        var edit = survey("uuid:ana", name: "Sofia's")
        edit.baseRevision = 1
        XCTAssertEqual(refusal { _ = try sofia.push([edit]) }, words)
        XCTAssertEqual(try pullAll(ana).map { $0.answers["name"] }, [.string("Ana")])
    }

    func testAnEnumeratorsReviewSaysASupervisorReviews() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:ana")])
        XCTAssertEqual(refusal { try ana.setReview("uuid:ana", state: .approved, comment: "fine by me") },
                       "\(try ana.role()) is an enumerator: a supervisor (survey_supervisor) reviews; surveys are added and fixed by enumerators")
        XCTAssertNil(try pullAll(ana).first?.review)
    }

    func testAnEnumeratorsPublishSaysASupervisorPublishes() throws {
        try initialize()
        let ana = try enumerator("ana")
        XCTAssertEqual(refusal { try ana.publish(PublishedForm(formID: "household", version: "1", fileName: "household.csv", file: Data("x".utf8))) },
                       "\(try ana.role()) is an enumerator: forms are published by a supervisor (survey_supervisor)")
        XCTAssertEqual(try ana.forms(since: 0).forms, [])
    }

    func testARoleInNeitherGroupIsToldWhoAddsIt() throws {
        try initialize()
        let nobody = try loginRole("nobody", in: nil)
        XCTAssertEqual(refusal { _ = try SurveyServer(target(as: nobody)) },
                       "\(nobody) is in neither survey_enumerator nor survey_supervisor, so the team's database lets it do nothing:"
                       + " the database's owner adds it to one (GRANT survey_enumerator TO \(nobody), or survey_supervisor)")
    }

    /// Row-level security's own refusal (an upsert onto another enumerator's survey, which
    /// PostgreSQL refuses rather than skips), and a delete, which no role may.
    func testRowLevelSecurityAndDeletesAreInWordsToo() throws {
        try initialize()
        let ana = try enumerator("ana")
        let bruno = try enumerator("bruno")
        _ = try ana.push([survey("uuid:ana")])
        XCTAssertEqual(refusal {
            try bruno.connection.execute("""
                INSERT INTO survey.surveys (instance_id, dataset, answers) VALUES ('uuid:ana', 'household', '{}')
                ON CONFLICT (instance_id) DO UPDATE SET answers = EXCLUDED.answers
                """)
        }, "\(try bruno.role()) may change only its own surveys: this one is another enumerator's")
        XCTAssertEqual(refusal { try bruno.connection.execute("DELETE FROM survey.surveys") },
                       "nobody deletes a survey on the team's database: a deleted survey is a tombstone (survey delete, then sync), its answers kept")
        let sofia = try supervisor("sofia")
        XCTAssertEqual(refusal { try sofia.connection.execute("UPDATE survey.forms SET file_name = 'x'") },
                       "\(try sofia.role()) may not do that on the team's database: enumerators (survey_enumerator) add and change their own surveys;"
                       + " supervisors (survey_supervisor) review them and publish forms")
        XCTAssertEqual(try pullAll(ana).map { $0.answers["name"] }, [.string("Ana")])
    }

    func testDbInitByATeamMemberSaysWhoRunsIt() throws {
        let ana = try loginRole("ana", in: nil)
        XCTAssertEqual(refusal { _ = try SurveyServer.initialize(target(as: ana)) },
                       "\(ana) may not create or upgrade survey's schema: survey db init is run by the database's owner (a role with CREATEROLE)"
                       + " or a superuser (docs/team.md, \"A team on PostgreSQL\")")
    }

    /// The tests' server is a Unix socket, unencrypted and local: nothing to warn about.
    func testTheLocalSocketIsNotWarnedAbout() throws {
        try initialize()
        XCTAssertNil(try enumerator("ana").warning)
        XCTAssertNil(try SurveyServer.initialize(target()).warning)
    }
}
