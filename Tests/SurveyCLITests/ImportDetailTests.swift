import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// Spreadsheet and script habits `survey import` meets: whole numbers written as reals by
/// JSON tools, CSV saved with semicolons or tabs (Excel in much of Europe), and problems
/// named by the row number the spreadsheet shows, with the value at fault quoted.
final class ImportDetailTests: CLITestCase {
    private let ageRule = "Age must be a whole number from 0 to 150, or empty"

    func testJSONAgeWrittenAsARealIsTakenWhenItIsWhole() throws {
        try store.save(SurveyDocument(), as: "Field")
        let whole = try scratchFile("whole.json", #"[{"firstName": "Ana", "age": 42.0}, {"firstName": "Bo", "age": 0.0}]"#)
        XCTAssertEqual(try survey("import", whole.path),
                       Outcome(status: 0, stdout: "Imported 2 surveys into “Field”\n", stderr: ""))
        XCTAssertEqual(try store.load("Field").get().records.map { $0.values["age"] }, [.integer(42), .integer(0)])

        let half = try scratchFile("half.json", #"[{"firstName": "Cy", "age": 42.5}, {"firstName": "Di", "age": 151.0}]"#)
        XCTAssertEqual(try survey("import", half.path), Outcome(status: 1, stdout: "", stderr: """
            survey: nothing imported: \(half.path) has 2 problems
            survey: record 1: age 42.5: \(ageRule)
            survey: record 2: age 151.0: \(ageRule)

            """))
        XCTAssertEqual(try store.load("Field").get().records.count, 2)
    }

    func testSemicolonAndTabSeparatedCSVAreRead() throws {
        try store.save(SurveyDocument(), as: "Field")
        let semicolons = try scratchFile("semi.csv", "firstName;lastName;age;address\r\nAna;Lima;30;\"Rua 1; Porto\"\r\n")
        XCTAssertEqual(try survey("import", semicolons.path),
                       Outcome(status: 0, stdout: "Imported 1 survey into “Field”\n", stderr: ""))
        let tabs = try scratchFile("tabs.csv", "First name\tLast name\tAge\nBo\tNg, Jr\t7\n")
        XCTAssertEqual(try survey("import", tabs.path),
                       Outcome(status: 0, stdout: "Imported 1 survey into “Field”\n", stderr: ""))
        XCTAssertEqual(try recordsCheckingIDs("Field"), [
            Record(["firstName": .string("Ana"), "lastName": .string("Lima"), "age": .integer(30),
                    "address": .string("Rua 1; Porto"), "phone": .string("")]),
            Record(["firstName": .string("Bo"), "lastName": .string("Ng, Jr"), "age": .integer(7),
                    "address": .string(""), "phone": .string("")]),
        ])
    }

    func testAHeaderOfNoKnownColumnSaysWhichSeparatorWasUsed() throws {
        try store.save(SurveyDocument(), as: "Field")
        let file = try scratchFile("other.csv", "name;town\r\nAna;Rio\r\n")
        XCTAssertEqual(try survey("import", file.path), Outcome(status: 1, stdout: "", stderr:
            "survey: \(file.path): the header row names none of the survey's columns (firstName, lastName, address, phone, age); "
            + "it was split at semicolons, the separator it holds most (of commas, semicolons and tabs)\n"))
    }

    func testCSVProblemsNameTheSpreadsheetRowAndQuoteTheValue() throws {
        try store.save(SurveyDocument(), as: "Field")
        // Row 1 the header, row 2 Ana, row 3 empty (a spreadsheet shows it), row 4 Bo over two
        // lines (one row in a spreadsheet), row 5 Cy, row 6 blanks only.
        let file = try scratchFile("bad.csv", "firstName,address,age\nAna,,30\n\nBo,\"1 Main St\nFlat 2\",abc\nCy,,\" 151 \"\n  ,\t,\n")
        XCTAssertEqual(try survey("import", file.path), Outcome(status: 1, stdout: "", stderr: """
            survey: nothing imported: \(file.path) has 3 problems
            survey: row 4: age "abc": \(ageRule)
            survey: row 5: age " 151 ": \(ageRule)
            survey: row 6: every answer is empty

            """))
        let short = try scratchFile("short.csv", "firstName,age\nAna,3\n\nBo\n")
        XCTAssertEqual(try survey("import", short.path), Outcome(status: 1, stdout: "", stderr:
            "survey: \(short.path): row 4: 1 value, but the header names 2 columns\n"))
    }

    func testJSONAndPlistProblemsNameTheRecord() throws {
        try store.save(SurveyDocument(), as: "Field")
        let json = try scratchFile("bad.json", #"[{"firstName": "A"}, {"firstName": "B", "phone": 5551234}, 3]"#)
        XCTAssertEqual(try survey("import", json.path), Outcome(status: 1, stdout: "", stderr:
            "survey: \(json.path): record 3: a record must be a JSON object, not a number\n"))
        let typed = try scratchFile("typed.json", #"[{"firstName": "A"}, {"firstName": "B", "phone": 5551234}]"#)
        XCTAssertEqual(try survey("import", typed.path).stderr, """
            survey: nothing imported: \(typed.path) has 1 problem
            survey: record 2: phone 5551234: Phone must be text, not an integer

            """)
        let plist = root.appendingPathComponent("bad.plist")
        try SurveyDocument(records: [Record(["firstName": .string("A")]), Record(["age": .string("old")])])
            .propertyListData().write(to: plist)
        XCTAssertEqual(try survey("import", plist.path).stderr, """
            survey: nothing imported: \(plist.path) has 1 problem
            survey: record 2: age "old": \(ageRule)

            """)
    }
}
