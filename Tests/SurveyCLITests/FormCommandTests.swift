import Foundation
import XCTest
import SurveyModel

/// `survey form check` and `survey form show`: exit 0 when the form can be used (warnings
/// on stderr), 1 with every error listed where the spreadsheet shows it, 2 for usage.
final class FormCommandTests: CLITestCase {
    func testCheckListsEveryErrorWithSheetRowAndColumn() throws {
        let bad = try scratchFile("bad.csv", """
            survey,,,,
            ,type,name,label,constraint
            ,integer,age,Age,. >= 0
            ,text,note,Note,${agee} > 1
            ,select_one missing,pick,Pick,
            ,audio,voice,Voice,
            """)
        let outcome = try survey("form", "check", bad.path)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertEqual(outcome.stderr, """
            survey: warning: survey row 6, type: “audio” is not collected in a terminal: the row is shown but not asked
            survey: survey row 4, constraint: unknown field ${agee}
            survey: survey row 5, type: no choice list named missing
            survey: \(bad.path): 2 errors: the form cannot be used

            """)
    }

    func testAUsableFormSaysSoAndShowListsItsQuestions() throws {
        let good = try scratchFile("good.md", """
            | survey |         |       |            |          |
            |        | type    | name  | label      | required |
            |        | text    | fname | First name | yes      |
            |        | integer | age   | Age        |          |
            | settings |       |       |            |          |
            |        | form_title | form_id | version |       |
            |        | Tiny    | tiny  | 3          |          |
            """)
        XCTAssertEqual(try survey("form", "check", good.path),
                       Outcome(status: 0, stdout: "\(good.path): 2 rows, usable\n", stderr: ""))
        XCTAssertEqual(try survey("form", "show", good.path).stdout, """
            Tiny  id tiny  version 3
            row 3  text  fname  “First name”  required
            row 4  integer  age  “Age”

            """)
    }

    func testUsageAndFilesItCannotRead() throws {
        XCTAssertEqual(try survey("form", "check").status, 2)
        XCTAssertEqual(try survey("form", "frob", "x.csv").status, 2)
        let old = try scratchFile("old.xls", "binary")
        let refused = try survey("form", "check", old.path)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "survey: \(old.path) is an old .xls workbook: save it as .xlsx, or as CSV in pyxform's layout\n")
    }
}
