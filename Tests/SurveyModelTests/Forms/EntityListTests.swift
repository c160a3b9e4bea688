import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms

/// The entity list file a follow-up form reads (`households.csv`): a registration survey
/// creates its row, the follow-up form offers it through `select_one_from_file`, reads its
/// properties through `instance()`, and an update survey changes it, one version more.
final class EntityListTests: XCTestCase {
    private static let registration = """
        | survey |
        | | type | name | label | save_to |
        | | text | head | Head of household | |
        | | text | phone | Phone | phone |
        | entities |
        | | list_name | label |
        | | households | concat('Household of ', ${head}) |
        """

    private static let followUp = """
        | survey |
        | | type | name | label | save_to | calculation |
        | | select_one_from_file households.csv | hh | Household | | |
        | | calculate | old_phone | | | instance('households')/root/item[name=${hh}]/phone |
        | | text | phone | New phone | phone | |
        | entities |
        | | list_name | entity_id |
        | | households | ${hh} |
        """

    private func form(_ md: String) throws -> XLSForm {
        let result = XLSForm.read(try XLSFormSheets.markdown(md))
        XCTAssertEqual(result.errors, [])
        return try XCTUnwrap(result.form)
    }

    func testARegisteredHouseholdIsOfferedAndUpdatedByTheFollowUp() throws {
        // Registration: a finished survey creates the entity.
        let registration = Questionnaire(form: try form(Self.registration))
        let survey: [String: PropertyValue] = ["head": .string("Ana Lima"), "phone": .string("555 0101"),
                                               Record.instanceIDKey: .string("uuid:00000000-0000-4000-8000-000000000001")]
        var list = EntityList()
        let actions = FormInstance(registration, values: survey, clock: FormTestSupport.clock).entityActions()
        XCTAssertEqual(actions.map { list.apply($0) }, [.created])
        let id = try XCTUnwrap(actions.first?.id)
        XCTAssertEqual(list.csv, "name,label,__version,phone\r\n\(id),Household of Ana Lima,1,555 0101\r\n")
        // Finished again (edited, nothing changed): the same entity, not a second one.
        XCTAssertEqual(FormInstance(registration, values: survey, clock: FormTestSupport.clock).entityActions().map { list.apply($0) },
                       [.unchanged])

        // The follow-up form reads the file as a choice list, and the entity's properties.
        let csv = Array(list.csv.utf8)
        let (loaded, warnings) = try form(Self.followUp).loadingMedia { name in name == "households.csv" ? .success(csv) : nil }
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(loaded.choices["households.csv"]?.map(\.name), [id])
        XCTAssertEqual(loaded.choices["households.csv"]?.first?.labels.values.first, "Household of Ana Lima")
        let followUp = Questionnaire(form: loaded)
        let visit: [String: PropertyValue] = ["hh": .string(id), "phone": .string("555 0199")]
        let context = followUp.context(visit, current: "", clock: FormTestSupport.clock)
        XCTAssertEqual(followUp.form?.questions[1].calculation?.evaluate(in: context).string, "555 0101")

        // The visit updates the entity: one version more, the new phone, the label kept.
        let update = FormInstance(followUp, values: visit, clock: FormTestSupport.clock).entityActions()
        XCTAssertEqual(update.map(\.kind), [.update])
        XCTAssertEqual(update.map { list.apply($0) }, [.updated])
        XCTAssertEqual(list.entity(id), EntityList.Entity(id: id, label: "Household of Ana Lima", version: 2, properties: ["phone": "555 0199"]))
        // Written and read back, the same list.
        XCTAssertEqual(try EntityList(csv: list.csv), list)
        // An update of an entity the list does not have changes nothing.
        var missing = update[0]
        missing.id = "nobody"
        XCTAssertEqual(list.apply(missing), .missing)
    }

    /// ODK Central's entity list CSV (its `__id`-less download, extra system columns) reads.
    func testCentralsListReads() throws {
        let list = try EntityList(csv: "name,label,__version,__createdAt,village\r\nh1,Lima,3,2026-01-01,Vila\r\n,no id,1,,x\r\n")
        XCTAssertEqual(list.columns, ["village"])
        XCTAssertEqual(list.entities, [EntityList.Entity(id: "h1", label: "Lima", version: 3, properties: ["village": "Vila"])])
    }
}
