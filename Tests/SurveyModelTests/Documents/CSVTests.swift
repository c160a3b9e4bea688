import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The RFC 4180 writer and reader on their own, edge case by edge case.
final class CSVTests: XCTestCase {
    func testPlainFieldsAreWrittenAsTheyAre() {
        XCTAssertEqual(CSV.text([["a", "b c", " padded ", "", "José", "山田", "🏙️"]]),
                       "a,b c, padded ,,José,山田,🏙️\r\n")
    }

    func testFieldsWithCommaQuoteOrLineBreaksAreQuoted() {
        XCTAssertEqual(CSV.field("a,b"), "\"a,b\"")
        XCTAssertEqual(CSV.field("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(CSV.field("two\nlines"), "\"two\nlines\"")
        XCTAssertEqual(CSV.field("cr\ronly"), "\"cr\ronly\"")
        XCTAssertEqual(CSV.field("crlf\r\nend"), "\"crlf\r\nend\"")
        XCTAssertEqual(CSV.field("\""), "\"\"\"\"")
        XCTAssertEqual(CSV.field("5'10"), "5'10")
    }

    func testEveryRowEndsWithCRLFAndNoRowsIsNoText() {
        XCTAssertEqual(CSV.text([["h1", "h2"], ["1", "2"]]), "h1,h2\r\n1,2\r\n")
        XCTAssertEqual(CSV.text([]), "")
        XCTAssertEqual(CSV.text([[""]]), "\r\n")
    }

    func testReadsWithOrWithoutATrailingLineBreak() throws {
        XCTAssertEqual(try CSV.rows("a,b\r\nc,d\r\n"), [["a", "b"], ["c", "d"]])
        XCTAssertEqual(try CSV.rows("a,b\r\nc,d"), [["a", "b"], ["c", "d"]])
        XCTAssertEqual(try CSV.rows("a,b\nc,d\n"), [["a", "b"], ["c", "d"]])
        XCTAssertEqual(try CSV.rows("a,b\rc,d"), [["a", "b"], ["c", "d"]])
        XCTAssertEqual(try CSV.rows(""), [])
    }

    func testEmptyFieldsAndEmptyLines() throws {
        XCTAssertEqual(try CSV.rows(",,\r\n"), [["", "", ""]])
        XCTAssertEqual(try CSV.rows("a,\r\n,b"), [["a", ""], ["", "b"]])
        XCTAssertEqual(try CSV.rows("a\r\n\r\nb\r\n"), [["a"], [""], ["b"]])
        XCTAssertEqual(try CSV.rows("\"\",x"), [["", "x"]])
        XCTAssertEqual(try CSV.rows("x,"), [["x", ""]])
    }

    func testQuotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        XCTAssertEqual(try CSV.rows("\"a,b\",\"say \"\"hi\"\"\"\r\n"), [["a,b", "say \"hi\""]])
        XCTAssertEqual(try CSV.rows("\"line 1\r\nline 2\",\"lf\nonly\",end\r\nnext,row\r\n"),
                       [["line 1\r\nline 2", "lf\nonly", "end"], ["next", "row"]])
        XCTAssertEqual(try CSV.rows("\"\"\"\""), [["\""]])
    }

    func testAByteOrderMarkIsSkippedOnlyAtTheStart() throws {
        XCTAssertEqual(try CSV.rows("\u{FEFF}firstName,age\r\nAna,3\r\n"), [["firstName", "age"], ["Ana", "3"]])
        XCTAssertEqual(try CSV.rows("a,\u{FEFF}b"), [["a", "\u{FEFF}b"]])
    }

    func testUnicodeAndEmojiSurviveIncludingCombiningMarks() throws {
        let fields = ["Jose\u{301}", "山田 美咲", "🇵🇹", "👩‍👩‍👧", "e\u{301},\u{301}"]
        XCTAssertEqual(try CSV.rows(CSV.text([fields])), [fields])
    }

    func testAQuoteInsideAnUnquotedFieldIsKept() throws {
        XCTAssertEqual(try CSV.rows("5'10\",x"), [["5'10\"", "x"]])
        XCTAssertEqual(try CSV.rows(" \"a\" ,b"), [[" \"a\" ", "b"]])
    }

    func testRefusesTextAfterAClosingQuoteNamingTheLine() {
        XCTAssertThrowsError(try CSV.rows("ok\r\n\"a\"b,c")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError(
                "line 2: text after the closing quote of a field (write a quote inside a quoted field as \"\")"))
        }
    }

    func testRefusesAQuotedFieldThatIsNeverClosedNamingWhereItOpened() {
        XCTAssertThrowsError(try CSV.rows("h\r\nx\r\n\"open\r\nstill\r\n")) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("line 3: a quoted field is never closed"))
        }
    }

    func testLineNumbersCountBreaksInsideQuotedFields() {
        XCTAssertThrowsError(try CSV.rows("\"a\nb\r\nc\rd\",x\n\"y\"z")) { error in
            XCTAssertEqual((error as? DocumentError)?.message.hasPrefix("line 5:"), true, "\(error)")
        }
    }

    func testWhatIsWrittenIsReadBack() throws {
        let awkward = ["", " ", ",", "\"", "\"\"", "a\r\nb", "\r", "\n", "\n\n", "end\"", "tab\there", "😀,\"😀\""]
        let rows = [awkward, awkward.reversed()]
        XCTAssertEqual(try CSV.rows(CSV.text(rows)), rows)
    }
}
