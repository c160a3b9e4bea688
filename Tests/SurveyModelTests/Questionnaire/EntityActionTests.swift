import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms

/// What a finished survey does to the form's entity lists (`FormInstance.entityActions`),
/// its `create_if`, `update_if`, label and properties evaluated by the form's own rules.
final class EntityActionTests: XCTestCase {
    private func instance(_ md: String, _ values: [String: PropertyValue]) throws -> FormInstance {
        let result = XLSForm.read(try XLSFormSheets.markdown(md))
        XCTAssertEqual(result.errors, [])
        return FormInstance(Questionnaire(form: try XCTUnwrap(result.form)), values: values, clock: FormTestSupport.clock)
    }

    private static let registration = """
        | survey |
        | | type    | name    | label | save_to | relevant |
        | | text    | hh_name | Head  |         |          |
        | | text    | phone   | Phone | phone   |          |
        | | integer | size    | Size  | size    |          |
        | | select_one yn | keep | Register? | |          |
        | choices |
        | | list_name | name | label |
        | | yn | yes | Yes |
        | | yn | no  | No  |
        | entities |
        | | list_name  | label                               | create_if           |
        | | households | concat('Household of ', ${hh_name}) | ${keep} = 'yes'     |
        """

    func testARegistrationCreatesTheEntityWithItsLabelAndProperties() throws {
        let values: [String: PropertyValue] = ["hh_name": .string("Ana"), "phone": .string("555 0101"), "size": .integer(4),
                                               "keep": .string("yes"), Record.instanceIDKey: .string("uuid:6f1c0c9e-1d2b-4c55-9a0e-3c2b1a000001")]
        let actions = try instance(Self.registration, values).entityActions()
        XCTAssertEqual(actions.count, 1)
        let action = try XCTUnwrap(actions.first)
        XCTAssertEqual(action.kind, .create)
        XCTAssertEqual(action.list, "households")
        XCTAssertEqual(action.label, "Household of Ana")
        XCTAssertEqual(action.properties, [.init(name: "phone", value: "555 0101"), .init(name: "size", value: "4")])
        XCTAssertEqual(action.member, [])
        // A UUID (version 5 layout), the same at every evaluation, another for another survey.
        XCTAssertNotNil(action.id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/), action.id)
        XCTAssertEqual(try instance(Self.registration, values).entityActions().first?.id, action.id)
        var other = values
        other[Record.instanceIDKey] = .string("uuid:6f1c0c9e-1d2b-4c55-9a0e-3c2b1a000002")
        XCTAssertNotEqual(try instance(Self.registration, other).entityActions().first?.id, action.id)
    }

    func testCreateIfFalseCreatesNothing() throws {
        let values: [String: PropertyValue] = ["hh_name": .string("Ana"), "keep": .string("no"), Record.instanceIDKey: .string("uuid:1")]
        XCTAssertEqual(try instance(Self.registration, values).entityActions(), [])
    }

    /// Spec 2025.1.0: one entity per member, each with its own id; a member's own id
    /// (`memberID`) keeps its entity's id when members are reordered.
    func testARepeatCreatesOneEntityPerMember() throws {
        let md = """
            | survey |
            | | type | name | label | save_to |
            | | begin repeat | plot | Plot | |
            | | text | plot_name | Name | |
            | | decimal | area | Area | area |
            | | end repeat | | | |
            | entities |
            | | list_name | label |
            | | plots | ${plot_name} |
            """
        let a: PropertyValue = .dictionary(["plot_name": .string("North"), "area": .real(1.5), "memberID": .string("m-a")])
        let b: PropertyValue = .dictionary(["plot_name": .string("South"), "area": .real(2), "memberID": .string("m-b")])
        let id: PropertyValue = .string("uuid:9")
        let actions = try instance(md, ["plot": .array([a, b]), Record.instanceIDKey: id]).entityActions()
        XCTAssertEqual(actions.map(\.label), ["North", "South"])
        guard actions.count == 2 else { return }
        XCTAssertEqual(actions.map(\.properties), [[.init(name: "area", value: "1.5")], [.init(name: "area", value: "2")]])
        XCTAssertEqual(actions.map(\.member), [[AnswerPath.Step(name: "plot", index: 0)], [AnswerPath.Step(name: "plot", index: 1)]])
        XCTAssertNotEqual(actions[0].id, actions[1].id)
        let swapped = try instance(md, ["plot": .array([b, a]), Record.instanceIDKey: id]).entityActions()
        XCTAssertEqual(swapped.map(\.label), ["South", "North"])
        XCTAssertEqual(swapped.map(\.id), [actions[1].id, actions[0].id])
    }

    func testAnUpdateNamesTheEntityChosenAndAnUpsertSaysEither() throws {
        let update = """
            | survey |
            | | type | name | label | save_to |
            | | text | hh | Household id | |
            | | text | phone | New phone | phone |
            | entities |
            | | list_name | entity_id | update_if |
            | | households | ${hh} | ${phone} != '' |
            """
        let actions = try instance(update, ["hh": .string("h-17"), "phone": .string("555 0199")]).entityActions()
        XCTAssertEqual(actions, [EntityAction(kind: .update, list: "households", id: "h-17", label: nil,
                                              properties: [.init(name: "phone", value: "555 0199")], member: [])])
        XCTAssertEqual(try instance(update, ["hh": .string("h-17")]).entityActions(), [], "update_if false")
        XCTAssertEqual(try instance(update, ["phone": .string("5")]).entityActions(), [], "no entity chosen")
        let upsert = """
            | survey |
            | | type | name | label | save_to |
            | | text | id | Id | |
            | | text | q | Q | p |
            | entities |
            | | list_name | label | entity_id | create_if | update_if |
            | | e1 | ${q} | ${id} | true() | true() |
            """
        XCTAssertEqual(try instance(upsert, ["id": .string("x1"), "q": .string("Q!")]).entityActions().map(\.kind), [.createOrUpdate])
    }

    /// An entity pyxform puts in a group (two lists in one survey) is left out of the
    /// submission when the group is hidden, as Collect leaves a non-relevant node out.
    func testAnEntityInAHiddenGroupIsNotWritten() throws {
        let md = """
            | survey |
            | | type | name | label | save_to | relevant |
            | | text | show | Show? | | |
            | | begin group | g1 | G1 | | ${show} = 'yes' |
            | | text | a | A | e1#pa | |
            | | end group | | | | |
            | | text | b | B | e2#pb | |
            | entities |
            | | list_name | label |
            | | e1 | ${a} |
            | | e2 | ${b} |
            """
        let form = try XCTUnwrap(XLSForm.read(try XLSFormSheets.markdown(md)).form)
        XCTAssertEqual(form.entity("e1")?.container, ["g1"])
        let id: PropertyValue = .string("uuid:5")
        XCTAssertEqual(try instance(md, ["show": .string("yes"), "a": .string("A"), "b": .string("B"), Record.instanceIDKey: id])
            .entityActions().map(\.list), ["e1", "e2"])
        XCTAssertEqual(try instance(md, ["show": .string("no"), "a": .string("A"), "b": .string("B"), Record.instanceIDKey: id])
            .entityActions().map(\.list), ["e2"])
    }
}
