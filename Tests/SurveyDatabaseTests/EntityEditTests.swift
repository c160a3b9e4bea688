import Foundation
import XCTest
import SurveyTestSupport
import SurveyDatabase
import SurveyValues
import SurveyForms
@testable import SurveyStorage

/// Issue 32, "Team": a supervisor's edits and retirements of entities (`survey.entity_edits`,
/// migration 7) are the supervisor's alone, whatever program connects: an enumerator's insert
/// is refused (in words through survey), nobody changes or deletes a row or writes who made it;
/// every laptop's sync takes them after the surveys, each once, one of an entity not there yet
/// when its registration comes.
final class EntityEditTests: DatabaseTestCase {
    func testOnlyASupervisorWritesAnEditAndNobodyChangesOne() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        let supervisor = try SurveyServer(target(as: sofia))
        let number = try supervisor.editEntity(EntityEdit(list: "households", entityID: "h1", properties: ["phone": "555 0300"]))
        let edits = try supervisor.entityEdits(list: "households", since: 0)
        XCTAssertEqual(edits.map(\.change), [number])
        XCTAssertEqual(edits.first?.by, sofia, "the server names who made it")
        XCTAssertEqual(edits.first?.properties, ["phone": "555 0300"])

        let enumerator = try SurveyServer(target(as: ana))
        XCTAssertThrowsError(try enumerator.editEntity(EntityEdit(list: "households", entityID: "h1", retired: true))) { error in
            XCTAssertEqual((error as? DatabaseError)?.isPermissionDenied, true)
            XCTAssertEqual((error as? DatabaseError)?.message,
                           "\(ana) is an enumerator: a supervisor (survey_supervisor) edits and retires entities; an enumerator changes them by the surveys that visit them")
        }
        XCTAssertEqual(try enumerator.entityEdits(list: "households", since: 0).count, 1, "an enumerator reads them")
        // Straight SQL, as psql: no insert by an enumerator, no forged author, no change, no delete.
        for (user, sql) in [(ana, "INSERT INTO survey.entity_edits (list, entity_id) VALUES ('households', 'h1')"),
                            (sofia, "INSERT INTO survey.entity_edits (list, entity_id, edited_by) VALUES ('households', 'h1', '\(ana)')"),
                            (sofia, "UPDATE survey.entity_edits SET retired = true"),
                            (sofia, "DELETE FROM survey.entity_edits")] {
            XCTAssertThrowsError(try server.psql(sql, database: database, user: user), "\(user): \(sql)")
        }
        XCTAssertEqual(try server.psql("SELECT count(*) || ' ' || bool_or(retired) FROM survey.entity_edits", database: database), "1 false")
    }

    func testAnEditOfAnEntityNotThereYetIsTakenWhenItsRegistrationComes() throws {
        var list = EntityList()
        let edit = EntityEdit(list: "households", entityID: "h1", properties: ["phone": "555 0300"], change: 7)
        XCTAssertEqual(list.takeFromTeam([edit]).map(\.change), [.missing])
        XCTAssertEqual(list.editCursor, 7)
        list.apply(EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                properties: [.init(name: "phone", value: "555 0101")], member: []))
        XCTAssertEqual(list.entity("h1")?.properties["phone"], "555 0300")
        XCTAssertEqual(list.takeFromTeam([edit]).count, 0, "taken once")
        // Kept beside the list, read back the same.
        var read = try EntityList(csv: list.csv)
        try read.readCompanion(Array(list.companionJSON.utf8))
        XCTAssertEqual(read, list)
    }
    /// The server refuses a property a list's CSV cannot carry as a column of its own (a
    /// name pyxform would refuse for a property: `name`, `label`, `__…`, empty, not an XML
    /// name) and properties too big, whatever program inserts; a laptop given such a row
    /// anyway (a server before these checks) sets it aside, says so, and takes the others.
    func testAnEditsPropertiesAreNamesACSVColumnCanCarry() throws {
        try initialize()
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        for properties in [#"{"name": "x"}"#, #"{"label": "x"}"#, #"{"__version": "9"}"#, #"{"": "x"}"#, #"{"a b": "x"}"#,
                           #"{"1st": "x"}"#] {
            XCTAssertThrowsError(try server.psql("INSERT INTO survey.entity_edits (list, entity_id, properties) VALUES ('households', 'h1', '\(properties)')",
                                                 database: database, user: sofia), String(properties.prefix(40)))
        }
        XCTAssertThrowsError(try server.psql("""
            INSERT INTO survey.entity_edits (list, entity_id, properties)
            SELECT 'households', 'h1', jsonb_object_agg('p' || i, 'v') FROM generate_series(1, 1000) i
            """, database: database, user: sofia), "a thousand properties")
        XCTAssertThrowsError(try server.psql("""
            INSERT INTO survey.entity_edits (list, entity_id, properties) VALUES ('households', 'h1', jsonb_build_object('phone', repeat('9', 300000)))
            """, database: database, user: sofia), "300 kB")
        _ = try server.psql("INSERT INTO survey.entity_edits (list, entity_id, properties) VALUES ('households', 'h1', '{\"phone_2\": \"1\", \"village.x\": \"2\"}')",
                            database: database, user: sofia)
        // Rows a server without these checks could hold.
        var list = EntityList()
        list.apply(EntityAction(kind: .create, list: "households", id: "h1", label: "Ana", properties: [.init(name: "phone", value: "1")], member: []))
        let bad = EntityEdit(list: "households", entityID: "h1", properties: ["__version": "9", "phone": "2"], change: 4)
        let good = EntityEdit(list: "households", entityID: "h1", properties: ["phone": "3"], change: 5)
        let taken = list.takeFromTeam([bad, good])
        XCTAssertEqual(taken.map(\.change), [.refused("its property “__version” cannot be a column of the list"), .updated])
        XCTAssertEqual(list.columns, ["phone"])
        XCTAssertEqual(list.entity("h1")?.properties["phone"], "3")
        XCTAssertEqual(list.editCursor, 5)
    }
}
