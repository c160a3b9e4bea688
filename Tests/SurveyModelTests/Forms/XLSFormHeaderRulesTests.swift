import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The rules pyxform 4.5 applies that survey took up for issue 32's last disagreements
/// (headers, the settings' name, a calculate's default, references in a rule that cannot be
/// read, big-image, select_one_external, search(), a loop's names): each form is judged by
/// survey and by pyxform, refused by both at the same row, and its near twin accepted by both,
/// so no rule refuses a form pyxform converts.
final class XLSFormHeaderRulesTests: XCTestCase {
    /// Each case: a Markdown form, survey's expected error (row and words) or nil to accept.
    static let cases: [(name: String, form: String, error: (row: Int?, words: String)?)] = [
        ("alias and its column", """
         | survey |
         | | type | name | value | label |
         | | text | q_name | q_value | Question 1 |
         """, (2, "“name” and “value” are names of the same column")),
        ("a column and its other spelling", """
         | survey |
         | | type | name | calculation | calculate | label |
         | | text | q | 1 | 2 | Q |
         """, (2, "“calculation” and “calculate” are names of the same column")),
        ("two spellings of a column the sheet knows as written first", """
         | survey |
         | | type | name | Label | label |
         | | text | q | Q | Q |
         """, nil),
        ("form_id and id_string in the settings", """
         | settings |
         | | id_string | form_id |
         | | a | b |
         | survey |
         | | type | name | label |
         | | text | q | Q |
         """, nil),
        ("no type column", """
         | survey |
         | | name | label |
         | | q | Q |
         """, (2, "the survey sheet has no “type” column")),
        ("a choices sheet without name", """
         | survey |
         | | type | name | label |
         | | select_one l | q | Q |
         | choices |
         | | list_name | label |
         | | l | A |
         """, (5, "the choices sheet has no “name” column")),
        ("a settings name XML cannot have", """
         | settings |
         | | name |
         | | bad@filename |
         | survey |
         | | type | name | label |
         | | text | q | Q |
         """, (3, "“bad@filename” is not a valid form name")),
        ("a settings name that is one", """
         | settings |
         | | name |
         | | good_name |
         | survey |
         | | type | name | label |
         | | text | q | Q |
         """, nil),
        ("a calculate with a plain default", """
         | survey |
         | | type | name | label | calculation | default |
         | | calculate | a | | | foo |
         """, (3, "a calculate row needs a calculation: its default “foo” computes nothing")),
        ("a calculate with a computed default", """
         | survey |
         | | type | name | label | calculation | default |
         | | calculate | a | | | today() |
         """, nil),
        ("an unreadable rule naming no question", """
         | survey |
         | | type | name | label | calculation |
         | | calculate | last-foo | | concat("Foo: ", ${last-saved#foo} |
         """, (3, "unknown field ${foo}")),
        ("an unreadable rule naming a question", """
         | survey |
         | | type | name | label | calculation |
         | | text | foo | Foo | |
         | | calculate | last-foo | | concat("Foo: ", ${last-saved#foo} |
         """, nil),
        ("big-image without image", """
         | survey |
         | | type | name | media::big-image |
         | | text | c | m.png |
         """, (3, "has a big-image but no image")),
        ("big-image with an image in a language", """
         | survey |
         | | type | name | big-image | image::English |
         | | text | c | m.png | s.png |
         """, nil),
        ("select_one_external without an external_choices sheet", """
         | survey |
         | | type | name | label | choice_filter |
         | | select_one state | state | State | |
         | | select_one_external city | city | City | state=${state} |
         | choices |
         | | list_name | name | label |
         | | state | nsw | NSW |
         | external_choice |
         | | list_name | name | state |
         | | city | syd | nsw |
         """, (4, "sheets with a name like it: “external_choice”")),
        ("select_one_external of a list the sheet lacks", """
         | survey |
         | | type | name | label | choice_filter |
         | | select_one state | state | State | |
         | | select_one_external town | city | City | state=${state} |
         | choices |
         | | list_name | name | label |
         | | state | nsw | NSW |
         | external_choices |
         | | list_name | name | state |
         | | city | syd | nsw |
         """, (4, "no list named town in the external_choices sheet")),
        ("select_one_external of a list the sheet has", """
         | survey |
         | | type | name | label | choice_filter |
         | | select_one state | state | State | |
         | | select_one_external city | city | City | state=${state} |
         | choices |
         | | list_name | name | label |
         | | state | nsw | NSW |
         | external_choices |
         | | list_name | name | state |
         | | city | syd | nsw |
         """, nil),
        ("a list with and without search()", """
         | survey |
         | | type | name | label | appearance |
         | | select_one c1 | q1 | Q1 | search('my_file') |
         | | select_one c1 | q2 | Q2 | |
         | choices |
         | | list_name | name | label |
         | | c1 | id | label |
         """, (3, "${q1} uses search(), and its list c1 is used without search() by ${q2} (row 4)")),
        ("a list with search() only", """
         | survey |
         | | type | name | label | appearance |
         | | select_one c1 | q1 | Q1 | search('my_file') |
         | | select_one c1 | q2 | Q2 | search('my_file') |
         | choices |
         | | list_name | name | label |
         | | c1 | id | label |
         """, nil),
        ("a loop's question named in a label", """
         | survey |
         | | type | name | label |
         | | begin loop over c1 | l1 | |
         | | integer | q1 | Count %(label)s |
         | | note | q2 | Counted ${q1} |
         | | end loop | | |
         | choices |
         | | list_name | name | label |
         | | c1 | thing1 | Thing 1 |
         | | c1 | thing2 | Thing 2 |
         """, (5, "${q1} is ambiguous")),
        ("a loop over one choice names its question once", """
         | survey |
         | | type | name | label |
         | | begin loop over c1 | l1 | |
         | | integer | q1 | Count %(label)s |
         | | note | q2 | Counted ${q1} |
         | | end loop | | |
         | choices |
         | | list_name | name | label |
         | | c1 | thing1 | Thing 1 |
         """, nil),
    ]

    func testEachRuleGivesPyxformsVerdictAtItsRow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("header-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (i, c) in Self.cases.enumerated() {
            let url = folder.appendingPathComponent("case\(i).md")
            try Data(c.form.utf8).write(to: url)
            paths.append(url.path)
        }
        let pyxform = try XLSFormEntityTests.pyxformErrors(paths)
        for (c, oracle) in zip(Self.cases, pyxform) {
            let result = XLSForm.read(try XLSFormSheets.markdown(c.form))
            if let expected = c.error {
                XCTAssertNotNil(oracle, "\(c.name): pyxform converts it")
                XCTAssertNil(result.form, c.name)
                XCTAssertTrue(result.errors.contains { $0.row == expected.row && $0.message.contains(expected.words) },
                              "\(c.name): \(result.errors)")
            } else {
                XCTAssertNil(oracle, "\(c.name): pyxform refuses it")
                XCTAssertEqual(result.errors, [], c.name)
            }
        }
    }

    /// A workbook heading two columns alike is refused, as pyxform's workbook reader refuses
    /// it; in the text layouts pyxform takes the last such column, and nothing is refused.
    func testADuplicateHeaderIsRefusedInAWorkbookOnly() throws {
        let rows = [XLSFormSheets.Row(number: 1, cells: ["type", "name", "label", "label"]),
                    XLSFormSheets.Row(number: 2, cells: ["text", "q", "Q", "Q again"])]
        var sheets = XLSFormSheets(sheets: [("survey", rows)])
        XCTAssertEqual(XLSForm.read(sheets).errors, [])
        sheets.isWorkbook = true
        XCTAssertEqual(XLSForm.read(sheets).errors.map(\.description),
                       ["survey row 1, label: two columns are headed “label”: pyxform refuses a duplicate column header "
                           + "(which one is meant?); rename or remove one"])
        // A header with blanks around it is pyxform's too: it compares the cell as written.
        sheets.sheets[0].rows[0] = XLSFormSheets.Row(number: 1, cells: ["type", "name", "label", " label"])
        XCTAssertEqual(XLSForm.read(sheets).errors, [])
        // The workbook reader marks its sheets.
        let fixture = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: PyxformSuiteTests.folder.appendingPathComponent("refused").path)
            .first { $0.hasPrefix("bug_example_xls--duplicate_columns") })
        let read = try XLSFormSheets.read(fileAt: PyxformSuiteTests.folder.appendingPathComponent("refused/" + fixture).path)
        XCTAssertTrue(read.isWorkbook)
        XCTAssertTrue(XLSForm.read(read).errors.contains { $0.row == 1 && $0.column == "label" })
    }

    /// An empty survey sheet says so.
    func testAnEmptySurveySheetIsRefused() throws {
        let result = XLSForm.read(XLSFormSheets(sheets: [("survey", [])]))
        XCTAssertTrue(result.errors.contains { $0.message.hasPrefix("the survey sheet is empty") }, "\(result.errors)")
    }

    func testEditDistanceIsLevenshteinsWithinItsLimit() {
        XCTAssertEqual(XLSFormReader.editDistance("external_choice", "external_choices", atMost: 2), 1)
        XCTAssertEqual(XLSFormReader.editDistance("extrenal_choices", "external_choices", atMost: 2), 2)
        XCTAssertEqual(XLSFormReader.editDistance("external", "external_choices", atMost: 2), 3)
        XCTAssertEqual(XLSFormReader.editDistance("", "ab", atMost: 2), 2)
    }
}
