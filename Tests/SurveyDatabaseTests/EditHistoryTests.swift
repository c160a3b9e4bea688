import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 31, edit history on the team's store: every version an edit replaces is kept, with
/// who made it and when (migration 6), and nobody but the server writes it.
final class EditHistoryTests: DatabaseTestCase {
    private func kept(_ sql: String = "SELECT count(*) FROM survey.survey_versions") throws -> String {
        try server.psql(sql, database: database)
    }

    private func edit(_ id: String, from base: Int64, _ change: (inout OutgoingRow) -> Void) -> OutgoingRow {
        var row = survey(id)
        row.baseRevision = base
        change(&row)
        return row
    }

    /// A laptop's edit, through a real sync, keeps the version it replaced: its answers, who
    /// sent it (the enumerator's login, not the schema's owner the trigger runs as) and when.
    func testAnEditPushedByALaptopKeepsTheVersionItReplaced() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let members: PropertyValue = .array([.dictionary(["member_name": .string("Bea"), "member_age": .integer(7)]),
                                             .dictionary(["member_name": .string("Ciro"), "member_age": .integer(71)])])
        let store = try laptop([survey("uuid:1", ["name": .string("Ana"), "age": .integer(35), "members": members])])
        try sync(store, as: ana, device: "laptop-1")
        XCTAssertEqual(try kept(), "0")
        try edit(store, "uuid:1") { record in
            guard case .array(var list)? = record["members"], case .dictionary(var ciro) = list[1] else { return }
            ciro["member_age"] = .integer(72)
            list[1] = .dictionary(ciro)
            record["members"] = .array(list)
        }
        try sync(store, as: ana, device: "laptop-1")

        XCTAssertEqual(try kept("SELECT v.revision || ' ' || v.made_by || ' ' || (v.answers->'members'->1->>'member_age') || ' ' || (v.made_at = s.created_at)"
                                + " FROM survey.survey_versions v JOIN survey.surveys s USING (instance_id)"), "1 \(ana) 71 true")
        let versions = try SurveyServer(target(as: ana)).versions(of: "uuid:1")
        XCTAssertEqual(versions.map(\.revision), [1, 2])
        XCTAssertEqual(versions.map(\.isCurrent), [false, true])
        XCTAssertEqual(versions.map(\.by), [ana, ana], "the login that pushed, not the trigger's owner")
        XCTAssertEqual(versions.map(\.device), ["laptop-1", "laptop-1"])
        XCTAssertEqual(versions.map(\.versionID), ["uuid:1", "uuid:1~2"])
        XCTAssertEqual(versions.map(\.deprecatedID), [nil, "uuid:1"])
        XCTAssertLessThanOrEqual(versions[0].at, versions[1].at)
        XCTAssertEqual(AnswerChanges.between(versions[0].answers, versions[1].answers),
                       [AnswerChange(path: SyncFieldPath([.key("members"), .index(1), .key("member_age")]), old: .integer(71), new: .integer(72))])
    }

    /// A second edit keeps both versions before it, a tombstone too; each keeps its own time.
    func testASecondEditKeepsBothVersionsBeforeIt() throws {
        try initialize()
        let ana = try enumerator("ana")
        XCTAssertEqual(try ana.push([survey("uuid:1")]).map(\.outcome), [.accepted(revision: 1)])
        XCTAssertEqual(try ana.push([edit("uuid:1", from: 1) { $0.answers["age"] = .integer(36) }]).map(\.outcome), [.accepted(revision: 2)])
        XCTAssertEqual(try ana.push([edit("uuid:1", from: 2) { $0.answers["age"] = .integer(37); $0.deleted = true }]).map(\.outcome),
                       [.accepted(revision: 3)])
        XCTAssertEqual(try kept("SELECT string_agg(revision || ':' || (answers->>'age') || ':' || deleted, ' ' ORDER BY revision) FROM survey.survey_versions"),
                       "1:35:false 2:36:false")
        let versions = try ana.versions(of: "uuid:1")
        XCTAssertEqual(versions.map(\.revision), [1, 2, 3])
        XCTAssertEqual(versions.map { $0.answers["age"] }, [.integer(35), .integer(36), .integer(37)])
        XCTAssertEqual(versions.map(\.deleted), [false, false, true])
        XCTAssertEqual(versions.map(\.by), Array(repeating: try ana.role(), count: 3))
        XCTAssertTrue(zip(versions, versions.dropFirst()).allSatisfy { $0.at <= $1.at }, "\(versions.map(\.at))")
        // Paged: a long history is read a page at a time.
        XCTAssertEqual(try ana.versions(of: "uuid:1", after: 1, limit: 1).map(\.revision), [2])
        XCTAssertEqual(try ana.versions(of: "uuid:1", after: 3).map(\.revision), [])
    }

    /// A review changes no answer: it keeps no version, before a fix or after it; a login in
    /// both groups that sends a teammate's survey changes nothing, so keeps nothing either.
    func testAReviewKeepsNoVersion() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        _ = try ana.push([survey("uuid:1")])
        XCTAssertTrue(try sofia.setReview("uuid:1", state: .hasIssues, comment: "age?"))
        XCTAssertTrue(try sofia.setReview("uuid:1", state: .hasIssues, comment: "age, please"))
        XCTAssertEqual(try kept(), "0")
        XCTAssertEqual(try ana.push([edit("uuid:1", from: 1) { $0.answers["age"] = .integer(36) }]).map(\.outcome), [.accepted(revision: 2)])
        XCTAssertTrue(try sofia.setReview("uuid:1", state: .approved, comment: nil))
        XCTAssertEqual(try kept("SELECT string_agg(revision::text, ',') FROM survey.survey_versions"), "1")
        XCTAssertEqual(try sofia.versions(of: "uuid:1").map(\.revision), [1, 2])

        let role = try loginRole("mia", in: "survey_enumerator")
        try server.psql("GRANT survey_supervisor TO \(role)")
        let mia = try SurveyServer(target(as: role))
        XCTAssertEqual(try mia.push([edit("uuid:1", from: 2) { $0.answers["age"] = .integer(99) }]).map(\.outcome), [.refused(owner: try ana.role())])
        XCTAssertEqual(try kept(), "1")
    }

    /// Nobody but the server writes the history: an enumerator (on a plain connection of its
    /// own) cannot insert, change or delete a version, disable or drop the trigger, switch
    /// triggers off for its session, replace the function, or hang it on a table of its own
    /// to write versions of its choosing.
    func testAnEnumeratorCannotWriteTheHistoryOrStopIt() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sofia = try supervisor("sofia")
        _ = try ana.push([survey("uuid:1")])
        _ = try ana.push([edit("uuid:1", from: 1) { $0.answers["age"] = .integer(36) }])
        XCTAssertEqual(try kept(), "1")
        let attempts = [
            "INSERT INTO survey.survey_versions VALUES ('uuid:1', 9, '{}', false, NULL, NULL, NULL, 'someone', now())",
            "UPDATE survey.survey_versions SET answers = '{}'",
            "DELETE FROM survey.survey_versions",
            "TRUNCATE survey.survey_versions",
            "ALTER TABLE survey.surveys DISABLE TRIGGER surveys_keep_version",
            "ALTER TABLE survey.surveys DISABLE TRIGGER ALL",
            "DROP TRIGGER surveys_keep_version ON survey.surveys",
            "SET session_replication_role = replica",
            "CREATE OR REPLACE FUNCTION survey.keep_version() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
            "ALTER FUNCTION survey.keep_version() OWNER TO \(try ana.role())",
            "UPDATE survey.surveys SET changed_by = 'someone'",
        ]
        for (who, connection) in [("ana", ana.connection), ("sofia", sofia.connection)] {
            for sql in attempts {
                XCTAssertThrowsError(try connection.execute(sql), "\(who): \(sql)") { error in
                    XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(who): \(sql): \(error)")
                }
            }
        }
        // A table of her own (a temporary one: she may create no other) with the function as
        // its trigger would run it with the schema owner's rights.
        try ana.connection.execute("""
            CREATE TEMPORARY TABLE mine (instance_id text, revision bigint, answers jsonb, deleted boolean, form_id text,
                form_version text, device text, owner name, changed_by name, changed_at timestamptz, created_at timestamptz,
                updated_at timestamptz)
            """)
        XCTAssertThrowsError(try ana.connection.execute(
            "CREATE TRIGGER mine_kept AFTER UPDATE ON mine FOR EACH ROW EXECUTE FUNCTION survey.keep_version()")) { error in
            XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
        }
        XCTAssertEqual(try server.psql("""
            SELECT p.prosecdef, array_to_string(p.proconfig, ';'), p.proowner = n.nspowner, t.relowner = n.nspowner,
                   has_function_privilege('\(try ana.role())', p.oid, 'EXECUTE')
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace, pg_class t
            WHERE n.nspname = 'survey' AND p.proname = 'keep_version' AND t.oid = 'survey.survey_versions'::regclass
            """, database: database), "t|search_path=pg_catalog, pg_temp|t|t|f")
        // Nothing of it changed, and the next edit is kept as ever.
        XCTAssertEqual(try kept("SELECT string_agg(revision || ':' || made_by || ':' || (answers->>'age') || ':' || (answers->>'name'), ' ') FROM survey.survey_versions"),
                       "1:\(try ana.role()):35:Ana")
        _ = try ana.push([edit("uuid:1", from: 2) { $0.answers["age"] = .integer(37) }])
        XCTAssertEqual(try kept(), "2")
    }

    /// A first push of many surveys writes no version: only edits pay for the history. The
    /// one trigger an insert fires is the one that was there before.
    func testTheFirstPushOfManySurveysWritesNoVersion() throws {
        try initialize()
        let ana = try enumerator("ana")
        let rows = (0..<2_500).map { survey("uuid:\($0)", name: "Person \($0)") }
        XCTAssertEqual(try ana.push(rows).filter(\.isStored).count, 2_500)
        XCTAssertEqual(try kept(), "0")
        // Sent again (a push cut off before it heard): already there, still no version.
        XCTAssertEqual(try ana.push(Array(rows.prefix(1_000))).map(\.outcome), Array(repeating: .alreadyThere(revision: 1), count: 1_000))
        XCTAssertEqual(try kept(), "0")
        XCTAssertEqual(try server.psql("""
            SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger
            WHERE tgrelid = 'survey.surveys'::regclass AND NOT tgisinternal AND tgtype & 4 <> 0
            """, database: database), "surveys_stamp")
        XCTAssertEqual(try server.psql("""
            SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger
            WHERE tgrelid = 'survey.surveys'::regclass AND NOT tgisinternal AND tgtype & 16 <> 0
            """, database: database), "surveys_keep_version,surveys_stamp,surveys_stamp_reason")
    }

    /// `survey db init` on a database of schema version 5 that already holds edited surveys:
    /// the rows stay as they were (no laptop pulls them again), and the next edit keeps the
    /// version it replaces, though it was made before: by its owner, at its last change.
    func testTheMigrationOnADatabaseThatHasSurveys() throws {
        let connection = try DatabaseConnection(target())
        for statement in Schema.bookkeeping { try connection.execute(statement) }
        for migration in Schema.migrations where migration.version <= 5 {
            try connection.transaction {
                for statement in migration.statements { try connection.execute(statement) }
                try connection.execute("INSERT INTO survey.schema_migrations (version, summary) VALUES ($1, $2)",
                                       [String(migration.version), migration.summary])
            }
        }
        connection.close()
        let ana = try loginRole("ana", in: "survey_enumerator")
        try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers, device) VALUES ('uuid:old', 'household', '{\"age\": 35}', 'laptop-1')",
                        database: database, user: ana)
        try server.psql("UPDATE survey.surveys SET answers = '{\"age\": 36}', base_revision = 1 WHERE instance_id = 'uuid:old'",
                        database: database, user: ana)
        let before = try server.psql("SELECT revision || ' ' || change_seq || ' ' || updated_at FROM survey.surveys", database: database)

        XCTAssertEqual(try initialize().applied, [6, 7, 8, 9])
        XCTAssertEqual(try server.psql("SELECT revision || ' ' || change_seq || ' ' || updated_at FROM survey.surveys", database: database), before)
        let enumerator = try SurveyServer(target(as: ana))
        XCTAssertEqual(try enumerator.versions(of: "uuid:old").map(\.revision), [2], "versions replaced before the migration are gone")
        XCTAssertEqual(try enumerator.push([OutgoingRow(instanceID: "uuid:old", dataset: "household", answers: ["age": .integer(37)],
                                                        device: "laptop-1", baseRevision: 2)]).map(\.outcome), [.accepted(revision: 3)])
        XCTAssertEqual(try kept("SELECT revision || ' ' || made_by || ' ' || (answers->>'age') || ' ' || (made_at::text = '\(before.split(separator: " ", maxSplits: 2)[2])')"
                                + " FROM survey.survey_versions"), "2 \(ana) 36 true")
        let versions = try enumerator.versions(of: "uuid:old")
        XCTAssertEqual(versions.map(\.revision), [2, 3])
        XCTAssertEqual(versions.map(\.by), [ana, ana])
        XCTAssertEqual(versions.map(\.deprecatedID), ["uuid:old", "uuid:old~2"])
    }

    /// Who made a version is the login that sent it (`session_user`), even when it acts as
    /// another role: a data manager's fix under `SET ROLE ana` is the data manager's.
    func testADataManagersFixIsNamedByTheirLoginEvenUnderSetRole() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:1")])
        try server.psql("SET ROLE \(try ana.role()); UPDATE survey.surveys SET answers = answers || '{\"age\": 40}'", database: database)
        try server.psql("UPDATE survey.surveys SET answers = answers || '{\"age\": 41}'", database: database)
        let versions = try ana.versions(of: "uuid:1")
        XCTAssertEqual(versions.map(\.revision), [1, 2, 3])
        XCTAssertEqual(versions.map(\.by), [try ana.role(), server.superuser, server.superuser])
        XCTAssertEqual(try server.psql("SELECT owner FROM survey.surveys", database: database), try ana.role(), "still Ana's survey")
    }

    /// `survey history` takes the survey's id or any of its versions': a survey's own id wins,
    /// a version that is not there names nothing.
    func testAVersionsIDNamesItsSurvey() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:1"), survey("odd~2")])
        _ = try ana.push([edit("uuid:1", from: 1) { $0.answers["age"] = .integer(36) }])
        XCTAssertEqual(try ana.surveyNamed("uuid:1"), "uuid:1")
        XCTAssertEqual(try ana.surveyNamed("uuid:1~2"), "uuid:1")
        XCTAssertNil(try ana.surveyNamed("uuid:1~3"))
        XCTAssertNil(try ana.surveyNamed("uuid:1~1"), "revision 1's id is the survey's own")
        XCTAssertNil(try ana.surveyNamed("uuid:1~02"))
        XCTAssertNil(try ana.surveyNamed("uuid:nope"))
        XCTAssertEqual(try ana.surveyNamed("odd~2"), "odd~2")
    }

    /// A kept version a laptop could not keep (put there by hand) is named with the reason,
    /// and the others are read all the same.
    func testAnUnreadableVersionIsNamedAndTheRestRead() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:1")])
        _ = try ana.push([edit("uuid:1", from: 1) { $0.answers["age"] = .integer(36) }])
        try server.psql("UPDATE survey.survey_versions SET answers = '{\"age\": null}'", database: database)
        let versions = try ana.versions(of: "uuid:1")
        XCTAssertEqual(versions.map(\.revision), [1, 2])
        XCTAssertEqual(versions[0].answers, [:])
        XCTAssertEqual(versions[0].unreadable, "null cannot be kept in a survey file (inside “age”)")
        XCTAssertNil(versions[1].unreadable)
        XCTAssertEqual(versions[1].answers["age"], .integer(36))
    }
}
