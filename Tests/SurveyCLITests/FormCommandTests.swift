import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

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
            ,osm,voice,Voice,
            """)
        let outcome = try survey("form", "check", bad.path)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertEqual(outcome.stderr, """
            survey: warning: survey row 6, type: “osm” is not collected in a terminal: the row is shown but not asked
            survey: survey row 4, constraint: unknown field ${agee}
            survey: survey row 5, type: no choice list named missing
            survey: \(bad.path): 2 errors: the form cannot be used

            """)
    }

    /// A hostile form (100,000 nested brackets, 50,000 terms) is refused with the row and
    /// column, never a crash of the checker or of the app that opens it.
    func testAFormWithAnExpressionTooDeepIsRefusedNotCrashed() throws {
        let deep = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
        let wide = Array(repeating: "1", count: 50_000).joined(separator: " + ")
        let bad = try scratchFile("deep.csv", "survey,,,,\n,type,name,label,relevant\n,integer,a,A,\(deep)\n,integer,b,B,\(wide)\n")
        let outcome = try survey("form", "check", bad.path)
        XCTAssertEqual(outcome.status, 1, outcome.stderr)
        XCTAssertEqual(outcome.stderr, """
            survey: survey row 3, relevant: the expression nests more than 64 levels deep
            survey: survey row 4, relevant: the expression has more than 2000 terms
            survey: \(bad.path): 2 errors: the form cannot be used

            """)
    }

    /// A 3 GB (sparse) file or a device given as a form is refused at once, never read.
    func testAHugeFileOrADeviceIsRefusedBeforeReading() throws {
        let huge = try scratchFile("huge.csv", "")
        XCTAssertEqual(truncate(huge.path, 3 << 30), 0)
        let big = try survey("form", "check", huge.path)
        XCTAssertEqual(big.status, 1)
        XCTAssertEqual(big.stderr, "survey: \(huge.path) is 3072 MB: a questionnaire is at most 32 MB\n")
        let device = try survey("form", "check", "/dev/zero")
        XCTAssertEqual(device.status, 1)
        XCTAssertEqual(device.stderr, "survey: /dev/zero is not a regular file: a questionnaire is an .xlsx, .csv or .md file\n")
    }

    /// What pyxform converts though a rule reads nothing or cannot be read, or a default is
    /// refused (issue 18): usable, each oddity a warning at its row and column.
    func testAFormPyxformConvertsWithRulesThatReadNothingIsUsableWithWarnings() throws {
        let odd = try scratchFile("odd.csv", """
            survey,,,,,,
            ,type,name,label,relevant,calculation,default
            ,integer,a,A,,,foo
            ,calculate,c,,,because + 1,
            ,calculate,bad,,,£¥§,
            ,text,t,T,. != 'n/a',,
            """)
        let outcome = try survey("form", "check", odd.path)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.stdout, "\(odd.path): 4 rows, usable\n")
        XCTAssertEqual(outcome.stderr, """
            survey: warning: survey row 3, default: the default “foo” is not an answer this question takes: A must be a whole number; the question starts empty
            survey: warning: survey row 4, calculation: “because” reads nothing: a bare word is a path below this question; write ${because} for a question
            survey: warning: survey row 5, calculation: “£¥§” cannot be read (unexpected “£”): nothing is computed, the value stays empty
            survey: warning: survey row 6, relevant: ${t}’s relevant reads its own answer: it is judged on the answer as it stands, so an empty answer may hide the question for good

            """)
    }

    /// An entity form (issue 32): a `save_to` that reaches into a repeat its entity is not
    /// declared in is refused at its row, with the scopes pyxform names; the same form with
    /// the property in the repeat is usable.
    func testCheckRefusesAnEntityReachingIntoARepeatAsPyxformDoes() throws {
        func form(_ place: String) -> String {
            """
            | survey |
            | | type | name | label | save_to |
            | | text | hh | Household | \(place == "top" ? "hh_name" : "") |
            | | begin repeat | member | Member | |
            | | text | first | First name | p1 |
            | | end repeat | | | |
            | entities |
            | | list_name | label |
            | | people | ${first} |
            """
        }
        let bad = try scratchFile("bad-entity.md", form("top"))
        let refused = try survey("form", "check", bad.path)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, """
            survey: survey row 3, save_to: the entity list people has a reference in container scope '/survey/member' which is not \
            compatible with this save_to reference (“hh_name”) in scope '/survey' (an entity's fields cannot reach into a repeat it \
            is not declared in): check the spelling of the list name in the save_to, or copy either value into the desired \
            container scope with a calculate question, then use that calculate for the save_to
            survey: \(bad.path): 1 error: the form cannot be used

            """)
        let good = try scratchFile("good-entity.md", form("member"))
        XCTAssertEqual(try survey("form", "check", good.path), Outcome(status: 0, stdout: "\(good.path): 3 rows, usable\n", stderr: ""))
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

    func testShowOfTheExampleFormPrintsEachWarningOnceAndEndsEveryLine() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/household.csv")
        let shown = try survey("form", "show", example.path)
        XCTAssertEqual(shown.status, 0)
        XCTAssertEqual(shown.stderr, "", "its geopoint is typed: no warning")
        let lines = shown.stdout.components(separatedBy: "\n")
        XCTAssertEqual(lines.first, "Household survey  id household  version 2026113001")
        XCTAssertEqual(lines.suffix(3), ["row 31  acknowledge  confirm  “Answers read back”  required", "row 32  end group  -", ""],
                       "the last line ends with a line break like every other")
        XCTAssertEqual(lines.count, 33, "a title, 31 rows (or_other adds water_other), and nothing after the last break")
        XCTAssertFalse(shown.stdout.contains("warning"), "warnings only on stderr")
        XCTAssertTrue(lines.contains("row 24  geopoint  location  “Location of the house”"), shown.stdout)
        // The same through one stream, as a terminal shows it: no warning at all.
        let merged = try shell("\"$SURVEY\" form show \"$1\" 2>&1".replacingOccurrences(of: "$1", with: example.path))
        XCTAssertEqual(merged.stdout.components(separatedBy: "warning:").count, 1)
        XCTAssertTrue(merged.stdout.hasSuffix("row 32  end group  -\n"))
    }

    func testUsageAndFilesItCannotRead() throws {
        XCTAssertEqual(try survey("form", "check").status, 2)
        XCTAssertEqual(try survey("form", "frob", "x.csv").status, 2)
        let old = try scratchFile("old.xls", "binary")
        let refused = try survey("form", "check", old.path)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "survey: \(old.path) is an old .xls workbook: save it as .xlsx, or as CSV in pyxform's layout\n")
    }

    func testTheDefaultFormIsAnOrdinaryXLSFormThatPyxformAccepts() throws {
        let printed = try survey("form", "default")
        XCTAssertEqual(printed.status, 0)
        let file = try scratchFile("default.csv", printed.stdout)
        XCTAssertEqual(try survey("form", "check", file.path).stdout, "\(file.path): 5 rows, usable\n")
        let oracle = try ChildProcess.run(["python3", "-c", """
            import sys; from pyxform.xls2json import parse_file_to_json
            d = parse_file_to_json(sys.argv[1])
            print(" ".join(c["name"] for c in d["children"] if c["name"] != "meta"), d["title"])
            """, file.path])
        XCTAssertEqual(String(decoding: oracle.stdout, as: UTF8.self), "firstName lastName address phone age Survey\n", String(decoding: oracle.stderr, as: UTF8.self))
    }

    /// `${last-saved#village}`: `survey add` without a village takes the last survey's, as
    /// the app's New form offers it.
    func testAddGivesALastSavedDefaultTheDocumentsLastSurvey() throws {
        let form = try scratchFile("villages.csv", """
            survey,,,,
            ,type,name,label,default
            ,text,village,Village,${last-saved#village}
            ,text,head,Head,
            """)
        XCTAssertEqual(try survey("docs", "new", "Villages", "--form", form.path).status, 0)
        XCTAssertEqual(try survey("add", "--doc", "Villages", "--set", "village=Kibera", "--set", "head=Ana").status, 0)
        XCTAssertEqual(try survey("add", "--doc", "Villages", "--set", "head=Bo").status, 0)
        let records = try store.load("Villages").get().records
        XCTAssertEqual(records.map { $0["village"] }, [.string("Kibera"), .string("Kibera")])
    }

    func testAttachCopiesACheckedFormThatFollowsItsDocument() throws {
        try store.save(SurveyDocument(), as: "Site")
        let form = try scratchFile("form.csv", try survey("form", "default").stdout)
        XCTAssertEqual(try survey("form", "attach", form.path, "--doc", "Site"),
                       Outcome(status: 0, stdout: "“Site” now uses the questionnaire Site.form.csv\n", stderr: ""))
        XCTAssertEqual(try Data(contentsOf: documents.appendingPathComponent("Site.form.csv")), try Data(contentsOf: form))
        XCTAssertEqual(try survey("docs", "rename", "Site", "North").status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: documents.appendingPathComponent("North.form.csv").path), "it follows a rename")
        XCTAssertEqual(try survey("docs").stdout.contains("form"), false, "never listed as a document")
        // A form with errors is refused, and the attached one stays.
        let bad = try scratchFile("bad.csv", "survey,,\n,type,name\n,integer,age\n,select_one none,x\n")
        let refused = try survey("form", "attach", bad.path, "--doc", "North")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("survey row 4, type: no choice list named none"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: documents.appendingPathComponent("North.form.csv")), try Data(contentsOf: form))
    }

    func testDocsNewWithAFormChecksItFirst() throws {
        let form = try scratchFile("form.csv", try survey("form", "default").stdout)
        XCTAssertEqual(try survey("docs", "new", "Census", "--form", form.path),
                       Outcome(status: 0, stdout: "Created “Census” with the questionnaire Census.form.csv\n", stderr: ""))
        XCTAssertTrue(FileManager.default.fileExists(atPath: documents.appendingPathComponent("Census.form.csv").path))
        let bad = try scratchFile("bad.csv", "survey,,\n,type,name\n,select_one none,x\n")
        let refused = try survey("docs", "new", "Other", "--form", bad.path)
        XCTAssertEqual(refused.status, 1)
        XCTAssertFalse(store.exists("Other"), "nothing was created")
        XCTAssertEqual(try survey("docs", "rm", "Census", "--form", form.path).status, 2, "--form only with docs new")
    }

    /// A question named like a key survey writes itself is refused, naming its row, by every
    /// command that takes a form; `attach` prints each error on its own line (they were
    /// joined with line breaks, which the shell output showed as U+FFFD).
    func testAFormNamingAKeyTheAppWritesIsRefusedByEveryCommandOneErrorALine() throws {
        try store.save(SurveyDocument(), as: "Site")
        let bad = try scratchFile("ids.csv", "survey,,,\n,type,name,label\n,text,instanceID,Id\n,text,formID,Form\n")
        let rows = [3, 4].map { row in
            "survey: survey row \(row), name: “\(row == 3 ? "instanceID" : "formID")” cannot be a question’s name: "
                + "survey writes a key of that name itself, so the answer would be lost or mistaken for it; rename the question\n"
        }.joined()
        XCTAssertEqual(try survey("form", "check", bad.path),
                       Outcome(status: 1, stdout: "", stderr: rows + "survey: \(bad.path): 2 errors: the form cannot be used\n"))
        XCTAssertEqual(try survey("form", "attach", bad.path, "--doc", "Site"),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(bad.path) cannot be used as a questionnaire (2 errors):\n" + rows))
        XCTAssertNil(store.formURL(for: "Site"), "nothing was attached")
        XCTAssertEqual(try survey("docs", "new", "Other", "--form", bad.path),
                       Outcome(status: 1, stdout: "", stderr: rows + "survey: \(bad.path): 2 errors: nothing was created\n"))
        XCTAssertFalse(store.exists("Other"))
    }
}
