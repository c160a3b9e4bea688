import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// OWASP's advice for CSV cells (`SpreadsheetFormula`): a cell a spreadsheet would run
/// begins with `'`, a plain number does not, and reading takes the `'` back off exactly.
final class SpreadsheetFormulaTests: XCTestCase {
    func testFormulasAreEscapedAndNumbersAreNot() {
        for text in ["=1+1", "+1+1", "-2-2", "@SUM(A1)", "\tx", "\rx", "-", "+", "=", "'=x", "''@x", "-1.28 x", "- 5", "-1;=2"] {
            XCTAssertEqual(SpreadsheetFormula.escaped(text), "'" + text, text.debugDescription)
        }
        // A geopoint south of the equator, a geotrace: numbers only, which ODK's tools split.
        for text in ["-3", "+3", "-3.5", "-.5", "-3.", "-1e3", "+2.5E-7", "plain", "", "'quoted", "a=b", " =x", "x-1",
                     "-6.8 39.28 0 0", "-6.8 39.28 0 0;-6.9 39.3 0 0", "+44 20 7946 0000"] {
            XCTAssertEqual(SpreadsheetFormula.escaped(text), text, text.debugDescription)
        }
    }

    /// Every text comes back from its escaped cell as it was, and a cell survey did not
    /// escape is read as it is unless it begins as an escaped one would.
    func testUnescapingUndoesEscapingExactly() {
        for text in ["=1+1", "'=1+1", "''=1+1", "-3", "-x", "'", "'x", "''", "plain", "", "@", "\t", "'-3", "-3-"] {
            XCTAssertEqual(SpreadsheetFormula.unescaped(SpreadsheetFormula.escaped(text)), text, text.debugDescription)
        }
        XCTAssertEqual(SpreadsheetFormula.unescaped("'x"), "'x")
        XCTAssertEqual(SpreadsheetFormula.unescaped("'-3"), "-3", "a foreign '-3 reads as what a spreadsheet shows")
    }

    /// A text answer keyed with a tab or CR first cannot come from the form (answers are
    /// trimmed), but a calculation or an import can hold one: the CSV escapes it and reads it back.
    func testATabOrCarriageReturnFirstRoundTripsThroughCSV() throws {
        let q = Questionnaire.standard
        let record = Record(["firstName": .string("\t=1"), "lastName": .string("\r@x"), "age": .integer(-3)])
        let text = SurveyDocument(records: [record]).csvText(questionnaire: q)
        XCTAssertTrue(text.contains("\r\n'\t=1,\"'\r@x\""), text.debugDescription)
        let back = try SurveyDocument.records(csv: text, questionnaire: q)
        XCTAssertEqual(back.first?["firstName"], .string("\t=1"))
        XCTAssertEqual(back.first?["lastName"], .string("\r@x"))
        XCTAssertEqual(back.first?["age"], .string("-3"), "read as the text keyed, for the form's rule to judge")
        XCTAssertEqual(SurveyDocument(records: [record]).csvText(questionnaire: q, raw: true).contains("\r\n\t=1,"), true)
    }

    func testAFileNameFromAFormIsOnePlainName() {
        XCTAssertEqual(FileNames.safe("../../../victim"), "___.._.._victim")
        XCTAssertEqual(FileNames.safe(".."), "__")
        XCTAssertEqual(FileNames.safe(".hidden"), "_hidden")
        XCTAssertEqual(FileNames.safe("a\0b/c\\d:e"), "a_b_c_d_e")
        XCTAssertEqual(FileNames.safe("name. . "), "name")
        XCTAssertEqual(FileNames.safe(""), "_")
        XCTAssertEqual(FileNames.safe(String(repeating: "é", count: 300)).utf8.count, 200)
        XCTAssertEqual(ODKSubmission.safeName(".."), "__", "Briefcase drops what it cannot hold; a dot left first is _")
        XCTAssertEqual(ODKSubmission.safeName("../x"), "__x")
    }
}
