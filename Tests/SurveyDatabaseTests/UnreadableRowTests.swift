import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 28: a row survey cannot read (answers that are `null`, an array, a number beyond a
/// double, nesting deeper than a laptop keeps; an empty or control-character id) never stops
/// the team. The schema refuses such rows; one already there (from before the constraint, or
/// a superuser's hand) is set aside by the pulling laptop, named and counted, and the pull
/// and push go on; the ledger that sync wrote is read by the next sync.
final class UnreadableRowTests: DatabaseTestCase {
    @discardableResult
    private func sync(_ store: DocumentStore, as role: String) throws -> DocumentSync.Result {
        try DocumentSync.run(store: store, document: "Field", target: target(as: role), device: "A", at: { Date() })
    }

    private func survey(_ id: String, _ name: String) -> Record {
        Record([Record.instanceIDKey: .string(id), "name": .string(name)])
    }

    /// Answers nested `levels` deep, the answers object counted: `{"deep": [[…]]}`.
    private func nested(_ levels: Int, leaf: String = "") -> String {
        "'{\"deep\": " + String(repeating: "[", count: levels - 1) + leaf + String(repeating: "]", count: levels - 1) + "}'::jsonb"
    }

    /// Rows put in as a database from before the row checks would hold them: the checks
    /// dropped, the rows inserted by the superuser with `owner` set to `role`, then the
    /// migrations after the first applied again, as `survey db init` on such a database.
    private func insertUnchecked(_ rows: [(id: String, answers: String)], owner role: String) throws {
        try server.psql("""
            DO $$ DECLARE c record; BEGIN
                FOR c IN SELECT conname FROM pg_constraint
                         WHERE conrelid = 'survey.surveys'::regclass AND contype = 'c' AND conname <> 'surveys_review_state_check' LOOP
                    EXECUTE format('ALTER TABLE survey.surveys DROP CONSTRAINT %I', c.conname);
                END LOOP;
            END $$;
            DELETE FROM survey.schema_migrations WHERE version > 1;
            """, database: database)
        for row in rows {
            try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers, owner) VALUES (\(row.id), 'Field', \(row.answers), '\(role)')",
                            database: database)
        }
        try initialize()
    }

    private static let unreadable: [(id: String, answers: String, why: String)] = [
        ("'uuid:null'", "'{\"name\": \"Ana\", \"age\": null}'", "null"),
        ("'uuid:array'", "'[1, 2]'", "not a JSON object"),
        ("'uuid:whole-null'", "'null'", "not a JSON object"),
        ("'uuid:huge'", "'{\"weight\": 1e400}'", "too large"),
        ("''", "'{\"name\": \"Nobody\"}'", "empty"),
        ("E'uuid:bell\\x07'", "'{\"name\": \"Bell\"}'", "control character"),
    ]

    func testRowsSurveyCannotReadAreSetAsideNamedAndCountedAndTheSyncGoesOn() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let mallory = try loginRole("mallory", in: "survey_enumerator")
        let bo = try laptop()
        try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers, owner) VALUES ('uuid:before', 'Field', '{\"name\": \"Before\"}', '\(ana)')",
                        database: database)
        var rows = Self.unreadable.map { ($0.id, $0.answers) }
        rows.append(("'uuid:deep'", nested(SetAsideRow.maximumAnswerDepth + 1)))
        try insertUnchecked(rows, owner: mallory)
        try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers, owner) VALUES ('uuid:after', 'Field', '{\"name\": \"After\"}', '\(ana)')",
                        database: database)

        // Bo's own new survey goes out too: the push is not stopped by what the pull set aside.
        var document = try bo.load("Field").get()
        document.records.append(survey("uuid:bo1", "Bo's"))
        _ = try bo.save(document, as: "Field")
        let first = try sync(bo, as: ana)
        XCTAssertEqual(first.pulled, 2)
        XCTAssertEqual(first.pushed, 1)
        XCTAssertEqual(Set(try bo.load("Field").get().records.compactMap(\.instanceID)), ["uuid:before", "uuid:after", "uuid:bo1"])
        XCTAssertEqual(first.setAside.count, 7)
        let ids = first.setAside.map(\.id)
        for expected in ["uuid:null", "uuid:array", "uuid:whole-null", "uuid:huge", "", "uuid:bell\\u{7}", "uuid:deep"] {
            XCTAssertTrue(ids.contains(expected), "\(expected) not named among \(ids)")
        }
        for row in first.setAside {
            XCTAssertEqual(row.owner, mallory, "\(row)")
            XCTAssertFalse(row.reason.isEmpty)
            XCTAssertFalse(row.line.unicodeScalars.contains { $0.isControlCharacter }, row.line)
        }
        for (id, why) in [("uuid:null", "null"), ("uuid:array", "not a JSON object"), ("uuid:huge", "too large"),
                          ("", "empty"), ("uuid:deep", "deeper than")] {
            let reason = try XCTUnwrap(first.setAside.first { $0.id == id }?.reason)
            XCTAssertTrue(reason.contains(why), "\(id): \(reason)")
        }
        XCTAssertTrue(first.message.contains("7 set aside"), first.message)

        // The ledger keeps them (F4 counts them), and the next sync reads it and goes on.
        let snapshot = try bo.syncSnapshot(of: "Field", readOnly: true)
        XCTAssertEqual(snapshot.state.ledger.setAside.count, 7)
        XCTAssertEqual(SyncSummary(snapshot.state).setAside, 7)
        try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers, owner) VALUES ('uuid:later', 'Field', '{\"name\": \"Later\"}', '\(ana)')",
                        database: database)
        let second = try sync(bo, as: ana)
        XCTAssertEqual(second.pulled, 1)
        XCTAssertEqual(second.setAside, [])
        XCTAssertEqual(try bo.syncSnapshot(of: "Field", readOnly: true).state.ledger.setAside.count, 7)

        // A row set aside, fixed by the data manager, comes in and leaves the list.
        try server.psql("UPDATE survey.surveys SET answers = '{\"name\": \"Ana\", \"age\": 30}' WHERE instance_id = 'uuid:null'", database: database)
        let third = try sync(bo, as: ana)
        XCTAssertEqual(third.pulled, 1)
        XCTAssertEqual(try bo.syncSnapshot(of: "Field", readOnly: true).state.ledger.setAside.map(\.id).sorted(),
                       ids.filter { $0 != "uuid:null" }.sorted())
    }

    /// The deepest answers the schema lets in are kept by the laptop, in the document and
    /// in the ledger, and the next sync reads that ledger.
    func testTheDeepestAnswersTheSchemaTakesAreKeptAndTheLedgerReadsBack() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers) VALUES ('uuid:deep', 'Field', \(nested(SetAsideRow.maximumAnswerDepth)))",
                        database: database, user: ana)
        let bo = try laptop()
        let first = try sync(bo, as: ana)
        XCTAssertEqual(first.pulled, 1)
        XCTAssertEqual(first.setAside, [])
        // Mine and theirs both deep: a conflict's `theirs` is the deepest place the ledger keeps answers.
        var document = try bo.load("Field").get()
        document.records[0]["deep"] = .string("mine")
        _ = try bo.save(document, as: "Field")
        try server.psql("UPDATE survey.surveys SET answers = \(nested(SetAsideRow.maximumAnswerDepth, leaf: "1")) WHERE instance_id = 'uuid:deep'",
                        database: database, user: ana)
        let second = try sync(bo, as: ana)
        XCTAssertEqual(second.conflicts, ["uuid:deep"])
        XCTAssertNoThrow(try sync(bo, as: ana))
        XCTAssertNoThrow(try bo.syncSnapshot(of: "Field", readOnly: true))
    }

    /// Every kind of unreadable row is refused by the schema: an enumerator's insert, and the
    /// data manager's ordinary `jsonb_set(…, 'null')` as the superuser.
    func testTheSchemaRefusesRowsSurveyCannotRead() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        var rows = Self.unreadable.map { ($0.id, $0.answers) }
        rows.append(("'uuid:deep'", nested(SetAsideRow.maximumAnswerDepth + 1)))
        rows.append(("'" + String(repeating: "x", count: 1_001) + "'", "'{}'"))
        // 1,001 code points in 1 character: the laptop counts as the schema does, so never sends it.
        let combined = "e" + String(repeating: "\u{301}", count: SetAsideRow.maximumIDLength)
        XCTAssertNotNil(SetAsideRow.problem(withID: combined))
        rows.append(("'" + combined + "'", "'{}'"))
        XCTAssertNil(SetAsideRow.problem(withID: String(repeating: "x", count: SetAsideRow.maximumIDLength)))
        try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers) VALUES ('\(String(repeating: "x", count: SetAsideRow.maximumIDLength))', 'Field', '{}')",
                        database: database, user: ana)
        for (id, answers) in rows {
            XCTAssertThrowsError(try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers) VALUES (\(id), 'Field', \(answers))",
                                                 database: database, user: ana), "\(id) \(answers)")
        }
        try server.psql("INSERT INTO survey.surveys (instance_id, dataset, answers) VALUES ('uuid:ok', 'Field', '{\"age\": 3, \"w\": 1e300}')",
                        database: database, user: ana)
        XCTAssertThrowsError(try server.psql("UPDATE survey.surveys SET answers = jsonb_set(answers, '{age}', 'null') WHERE instance_id = 'uuid:ok'", database: database))
        XCTAssertThrowsError(try server.psql("UPDATE survey.surveys SET answers = jsonb_set(answers, '{w}', '-1e309') WHERE instance_id = 'uuid:ok'", database: database))
        XCTAssertEqual(try server.psql("SELECT answers->>'age' FROM survey.surveys WHERE instance_id = 'uuid:ok'", database: database), "3")
    }

    /// A survey here the schema would refuse (nested deeper than a laptop keeps, as a JSON
    /// import can make it) is kept here and named, not sent: the rest of the push goes out.
    func testASurveyTheSchemaWouldRefuseIsNotSentAndTheRestGoesOut() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        var deep = PropertyValue.string("leaf")
        for _ in 0..<SetAsideRow.maximumAnswerDepth { deep = .array([deep]) }
        var tooDeep = survey("uuid:too-deep", "Deep")
        tooDeep["deep"] = deep
        let bo = try laptop([survey("uuid:fine", "Fine"), tooDeep])
        let result = try sync(bo, as: ana)
        XCTAssertEqual(result.pushed, 1)
        XCTAssertEqual(result.notSent.map(\.id), ["uuid:too-deep"])
        XCTAssertTrue(result.notSent.first?.reason.contains("deeper than 50 levels") == true, "\(result.notSent)")
        XCTAssertEqual(try server.psql("SELECT string_agg(instance_id, ',') FROM survey.surveys", database: database), "uuid:fine")
        XCTAssertEqual(try bo.load("Field").get().records.count, 2)
    }

    /// `survey db init` on a database that already holds such rows succeeds: the checks are
    /// added NOT VALID, binding every insert and update from then on but not the rows there.
    func testTheChecksAreAddedOverRowsAlreadyThere() throws {
        try initialize()
        let mallory = try loginRole("mallory", in: "survey_enumerator")
        try insertUnchecked([("''", "'null'")], owner: mallory)
        XCTAssertEqual(try server.psql("SELECT max(version) FROM survey.schema_migrations", database: database), String(Schema.latest))
        let checks = try server.psql("""
            SELECT count(*) FILTER (WHERE NOT convalidated) || ' of ' || count(*) FROM pg_constraint
            WHERE conrelid = 'survey.surveys'::regclass AND contype = 'c' AND conname <> 'surveys_review_state_check'
            """, database: database)
        XCTAssertEqual(checks, "3 of 3")
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys WHERE instance_id = ''", database: database), "1")
        // An update of it must fix it: a review alone is refused; its answers made an object are taken.
        XCTAssertThrowsError(try server.psql("UPDATE survey.surveys SET review_state = 'approved' WHERE instance_id = ''", database: database))
        try insertUnchecked([("'uuid:old'", "'{\"age\": null}'")], owner: mallory)
        XCTAssertThrowsError(try server.psql("UPDATE survey.surveys SET review_state = 'approved' WHERE instance_id = 'uuid:old'", database: database))
        try server.psql("UPDATE survey.surveys SET answers = answers - 'age', review_state = 'approved' WHERE instance_id = 'uuid:old'", database: database)
    }
}
