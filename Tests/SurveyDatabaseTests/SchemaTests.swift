import XCTest
import SurveyDatabase
import SurveyTestSupport

/// `survey db init`'s work: the schema as versioned migrations, re-runnable.
final class SchemaTests: DatabaseTestCase {
    func testInitTwiceAppliesTheMigrationsOnceAndChangesNothingTheSecondTime() throws {
        let first = try initialize()
        XCTAssertEqual(first.applied, [1, 2, 3, 4, 5, 6, 7, 8, 9])
        let tables = try server.psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'survey'",
                                     database: database)
        XCTAssertEqual(tables, "audit_events,entity_edits,form_media,forms,schema_migrations,survey_history,survey_versions,surveys")
        let second = try initialize()
        XCTAssertEqual(second.applied, [])
        XCTAssertEqual(second.version, first.version)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.schema_migrations", database: database), "9")
        XCTAssertEqual(try server.psql("SELECT relrowsecurity FROM pg_class WHERE oid = 'survey.surveys'::regclass", database: database), "t")
    }

    func testAStatementOfAMigrationRunsAgainOnAHalfBuiltSchema() throws {
        // A database someone set up by hand in part: the schema and the sequence already there.
        try server.psql("CREATE SCHEMA survey; CREATE SEQUENCE survey.change_seq", database: database)
        XCTAssertEqual(try initialize().applied, [1, 2, 3, 4, 5, 6, 7, 8, 9])
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "0")
    }

    func testADatabaseWithoutTheSchemaSaysToRunDbInit() throws {
        XCTAssertThrowsError(try SurveyServer(target())) { error in
            let failure = error as? DatabaseError
            XCTAssertEqual(failure?.kind, .schema)
            XCTAssertTrue(failure?.message.contains("survey db init") == true, "\(error)")
        }
    }
}
