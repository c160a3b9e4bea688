import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms

/// A table of small entity forms (pyxform's Markdown layout), each judged by survey and by
/// pyxform: the same verdict, and a refusal at pyxform's row for pyxform's reason. It holds
/// the cases pyxform's suite writes as templates (`{case}`), which its corpus cannot keep.
final class XLSFormEntityVerdictTests: XCTestCase {
    private struct Case {
        let title: String
        let md: String
        /// The spec version of an accepted form; nil for a refused one.
        var version: String? = nil
    }

    private static func form(_ survey: String, entities: String, choices: String = "") -> String {
        "| survey |\n" + survey + (choices.isEmpty ? "" : "| choices |\n" + choices) + "| entities |\n" + entities
    }

    private static let plain = "| | type | name | label | save_to |\n"

    private static let cases: [Case] = [
        Case(title: "a household registered with two properties",
             md: form(plain + "| | text | hh_name | Head | |\n| | text | phone | Phone | phone |\n| | integer | size | Size | size |\n",
                      entities: "| | list_name | label |\n| | households | concat('Household of ', ${hh_name}) |\n"),
             version: "2024.1.0"),
        Case(title: "the older column name dataset",
             md: form(plain + "| | text | q1 | Q1 | p1 |\n", entities: "| | dataset | label |\n| | e1 | ${q1} |\n"), version: "2024.1.0"),
        Case(title: "one entity per member of a repeat",
             md: form(plain + "| | begin repeat | plot | Plot | |\n| | text | plot_name | Name | |\n| | decimal | area | Area | area |\n| | end repeat | | | |\n",
                      entities: "| | list_name | label |\n| | plots | ${plot_name} |\n"),
             version: "2025.1.0"),
        Case(title: "two lists, each property prefixed, one in a group",
             md: form(plain + "| | begin group | g | G | |\n| | text | a | A | e1#pa |\n| | end group | | | |\n| | text | b | B | e2#pb |\n",
                      entities: "| | list_name | label |\n| | e1 | ${a} |\n| | e2 | ${b} |\n"),
             version: "2025.1.0"),
        Case(title: "an update, chosen from the list file",
             md: form(plain + "| | select_one_from_file households.csv | hh | Household | |\n| | text | phone | New phone | phone |\n",
                      entities: "| | list_name | entity_id |\n| | households | ${hh} |\n"),
             version: "2024.1.0"),
        Case(title: "an upsert",
             md: form(plain + "| | text | id | Id | |\n| | text | q | Q | p |\n",
                      entities: "| | list_name | label | entity_id | create_if | update_if |\n| | e1 | ${q} | ${id} | ${id} = '' | ${id} != '' |\n"),
             version: "2024.1.0"),
        // Refused (pyxform's templates, each case written out)
        Case(title: "two delimiters", md: form(plain + "| | text | q1 | Q1 | e1##e1p1 |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "two delimiters apart", md: form(plain + "| | text | q1 | Q1 | e1#e1#p1 |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "two leading delimiters", md: form(plain + "| | text | q1 | Q1 | ##e1p1 |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "a property named name", md: form(plain + "| | text | q1 | Q1 | name |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "a property named LABEL", md: form(plain + "| | text | q1 | Q1 | LABEL |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "a property that is no XML name", md: form(plain + "| | text | q1 | Q1 | 1st |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "a prefix and no property", md: form(plain + "| | text | q1 | Q1 | e1# |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "a property of a list not declared", md: form(plain + "| | text | q1 | Q1 | e9#p |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "save_to on a repeat", md: form(plain + "| | begin repeat | r | R | p |\n| | text | q1 | Q1 | |\n| | end repeat | | | |\n",
                                                   entities: "| | list_name | label |\n| | e1 | E1 |\n")),
        Case(title: "a repeat's answer saved to an entity of the survey",
             md: form(plain + "| | text | top | Top | p1 |\n| | begin repeat | r | R | |\n| | text | q1 | Q1 | p2 |\n| | end repeat | | | |\n",
                      entities: "| | list_name | label |\n| | e1 | ${top} |\n")),
        Case(title: "a label reading a repeat the entity is not in",
             md: form(plain + "| | begin repeat | r1 | R1 | |\n| | text | q1 | Q1 | p1 |\n| | end repeat | | | |\n| | begin repeat | r2 | R2 | |\n| | text | q2 | Q2 | |\n| | end repeat | | | |\n",
                      entities: "| | list_name | label |\n| | e1 | ${q2} |\n")),
        Case(title: "a create without a label", md: form(plain + "| | text | q1 | Q1 | p1 |\n", entities: "| | list_name | create_if |\n| | e1 | true() |\n")),
        Case(title: "a label naming no question", md: form(plain + "| | text | q1 | Q1 | p1 |\n", entities: "| | list_name | label |\n| | e1 | ${nobody} |\n")),
        Case(title: "a list name with a period", md: form(plain + "| | text | q1 | Q1 | |\n", entities: "| | list_name | label |\n| | a.b | ${q1} |\n")),
        // pyxform writes one meta/entity block per container: two lists at the top level
        // have one container between them.
        Case(title: "two lists in one container",
             md: form(plain + "| | text | a | A | e1#pa |\n| | text | b | B | e2#pb |\n",
                      entities: "| | list_name | label |\n| | e1 | ${a} |\n| | e2 | ${b} |\n")),
        Case(title: "save_to with no entities sheet", md: "| survey |\n" + plain + "| | text | q1 | Q1 | p1 |\n"),
    ]

    func testSurveyAndPyxformGiveTheSameVerdictOnEntityForms() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entity-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (i, test) in Self.cases.enumerated() {
            let url = folder.appendingPathComponent("form\(i).md")
            try Data(test.md.utf8).write(to: url)
            paths.append(url.path)
        }
        let verdicts = try XLSFormEntityTests.pyxformErrors(paths)
        for (test, pyxform) in zip(Self.cases, verdicts) {
            let sheets = try XLSFormSheets.markdown(test.md)
            let result = XLSForm.read(sheets)
            if let version = test.version {
                XCTAssertNil(pyxform, "\(test.title): pyxform refuses")
                XCTAssertEqual(result.errors, [], test.title)
                XCTAssertEqual(result.form?.entitiesVersion?.rawValue, version, test.title)
            } else {
                let error = try XCTUnwrap(pyxform, "\(test.title): pyxform accepts")
                XCTAssertNil(result.form, test.title)
                XLSFormEntityTests.assertAgrees(result.errors, pyxform: error, sheets: sheets, test.title)
            }
        }
    }

    /// The model a later step acts on: the list, its mode, its expressions, its properties
    /// by question, and where it is.
    func testTheDeclaredEntityIsModelled() throws {
        let result = XLSForm.read(try XLSFormSheets.markdown(Self.cases[2].md))
        let plots = try XCTUnwrap(result.form?.entity("plots"))
        XCTAssertEqual(plots.mode, .create)
        XCTAssertEqual(plots.row, 9)
        XCTAssertEqual(plots.label, .field("plot_name"))
        XCTAssertEqual(plots.properties, [EntityProperty(name: "area", question: "area", row: 5)])
        XCTAssertEqual(plots.container, ["plot"])
        XCTAssertEqual(plots.repeats, ["plot"])
        let update = try XCTUnwrap(XLSForm.read(try XLSFormSheets.markdown(Self.cases[4].md)).form?.entity("households"))
        XCTAssertEqual(update.mode, .update)
        XCTAssertEqual(update.entityID, .field("hh"))
        let upsert = try XCTUnwrap(XLSForm.read(try XLSFormSheets.markdown(Self.cases[5].md)).form?.entities.first)
        XCTAssertEqual(upsert.mode, .upsert)
    }

    /// pyxform converts a form whose entity it finds no container for (its `save_to`s
    /// outside the repeat its label reads; found by `XLSFormEntityFuzzTests`) and writes no
    /// entity: accepted here too, with a warning that it registers nothing.
    func testAnEntityPyxformPlacesNowhereIsAWarning() throws {
        let md = Self.form(Self.plain + "| | text | q1 | Q1 | p1 |\n| | begin repeat | r | R | |\n| | text | q2 | Q2 | |\n| | end repeat | | | |\n",
                           entities: "| | list_name | label |\n| | e1 | ${q2} |\n")
        XCTAssertNil(try XLSFormEntityTests.pyxformErrors([try scratch(md)]).first ?? "refused")
        let result = XLSForm.read(try XLSFormSheets.markdown(md))
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.form?.entities, [])
        XCTAssertEqual(result.form?.entitiesVersion, .v2024_1_0)
        XCTAssertEqual(result.warnings.map(\.description).filter { $0.contains("registers nothing in e1") }.count, 1, "\(result.warnings)")
    }

    private func scratch(_ md: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entity-\(UUID().uuidString).md")
        try Data(md.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// A bare word in the entities sheet (pyxform's tests label entities `E1`) reads nothing
    /// from the entity's node, as in Collect: the form opens, with a warning saying so.
    func testABareWordLabelReadsNothingWithAWarning() throws {
        let md = Self.form(Self.plain + "| | text | q1 | Q1 | p1 |\n", entities: "| | list_name | label |\n| | e1 | E1 |\n")
        let result = XLSForm.read(try XLSFormSheets.markdown(md))
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.warnings.map(\.description),
                       ["entities row 6, label: “E1” reads nothing: a bare word is a path below the entity (meta/entity); write ${E1} for a question"])
        XCTAssertEqual(result.form?.entities.first?.label, .string(""))
    }
}
