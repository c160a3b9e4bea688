import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// ODK's number and date functions (xforms-spec, "Number Functions" and "Date and Time
/// Functions"), with JavaRosa's rounding and the format letters ODK documents.
final class FormNumberAndDateFunctionTests: XCTestCase {
    private let answers = ["x": "2.7", "neg": "-2.7", "empty": "", "word": "abc", "born": "2000-02-29",
                           "when": "2026-03-05T07:08:09.123+02:00", "local": "2026-03-05T07:08:09"]

    private func eval(_ text: String, zone: TimeZoneRule = .utc, file: StaticString = #filePath, line: UInt = #line) -> FormValue {
        FormFunctionTestSupport.eval(text, answers, zone: zone, file: file, line: line)
    }

    // Spec: round(number, decimals?), JavaRosa: halves toward +infinity, on the printed number.
    func testRoundIsJavaRosas() {
        XCTAssertEqual(eval("round(2.5)").number, 3)
        XCTAssertEqual(eval("round(-2.5)").number, -2, "JavaRosa: -2.5 rounds up to -2")
        XCTAssertEqual(eval("round(-2.51)").number, -3)
        XCTAssertEqual(eval("round(-0.4)").number, 0)
        XCTAssertEqual(eval("round(1.005, 2)").number, 1.01, "the decimal as written, not its binary neighbour")
        XCTAssertEqual(eval("round(-2.55, 1)").number, -2.5)
        XCTAssertEqual(eval("round(-2.56, 1)").number, -2.6)
        XCTAssertEqual(eval("round(3.14159, 2)").number, 3.14)
        XCTAssertEqual(eval("round(1234.5, -2)").number, 1200)
        XCTAssertEqual(eval("round(1250, -2)").number, 1300)
        XCTAssertEqual(eval("round(2.5, 'x')").number, 3, "digits that are not a number are 0")
        XCTAssertTrue(eval("round(${empty})").number.isNaN, "an empty answer stays empty")
        XCTAssertTrue(eval("round(1, 31)").number.isNaN, "more than 30 digits: NaN, as JavaRosa")
        XCTAssertEqual(eval("round(1 div 0)").number, .infinity)
    }

    func testIntFloorCeilingAbs() {
        XCTAssertEqual(eval("int(${x})").number, 2)
        XCTAssertEqual(eval("int(${neg})").number, -2, "toward zero")
        XCTAssertEqual(eval("floor(${neg})").number, -3)
        XCTAssertEqual(eval("ceiling(${neg})").number, -2)
        XCTAssertEqual(eval("ceiling(${x})").number, 3)
        XCTAssertEqual(eval("abs(${neg})").number, 2.7)
        XCTAssertTrue(eval("int(${word})").number.isNaN)
        XCTAssertTrue(eval("floor(${empty})").number.isNaN)
        XCTAssertEqual(eval("number(true())").number, 1)
        XCTAssertEqual(eval("number(' 12 ')").number, 12)
        XCTAssertTrue(eval("number('1e3x')").number.isNaN)
    }

    func testPowLogSqrtAndFriends() {
        XCTAssertEqual(eval("pow(2, -1)").number, 0.5)
        XCTAssertEqual(eval("pow(${empty}, 0)").number, 1, "as Java's Math.pow: anything to the 0 is 1")
        XCTAssertTrue(eval("log(-1)").number.isNaN)
        XCTAssertEqual(eval("log(0)").number, -.infinity)
        XCTAssertTrue(eval("sqrt(-4)").number.isNaN)
        XCTAssertEqual(eval("exp10(2)").number, 100)
        XCTAssertEqual(eval("sqrt(${empty})").string, "NaN")
    }

    func testRandomComesFromTheContext() {
        XCTAssertEqual(eval("random()").number, 0.37)
        let value = FormExpression.call("random", []).evaluate(in: FormContext(now: Date()) { _ in .string("") }).number
        XCTAssertTrue((0..<1).contains(value), "the system's generator by default")
    }

    // Spec: format-date / format-date-time letters: %Y %y %m %n %b %d %e %a, %H %h %M %S %3.
    func testFormatDateWithEveryLetterODKDocuments() {
        XCTAssertEqual(eval("format-date('2026-03-05', '%Y/%m/%d %e %n %a %b %y')").string, "2026/03/05 5 3 Thu Mar 26")
        XCTAssertEqual(eval("format-date(${born}, '%e %b %Y, %a')").string, "29 Feb 2000, Tue")
        XCTAssertEqual(eval("format-date-time(${local}, '%H:%M:%S %h %3')").string, "07:08:09 7 000")
        XCTAssertEqual(eval("format-date-time(${when}, '%Y-%m-%d %H:%M:%S.%3')").string, "2026-03-05 05:08:09.123",
                       "an instant with an offset, shown in the device's zone (UTC here)")
        XCTAssertEqual(eval("format-date-time(${when}, '%H:%M', )".replacingOccurrences(of: ", )", with: ")"),
                            zone: TimeZoneRule(secondsFromGMT: 5 * 3600)).string, "10:08")
        XCTAssertEqual(eval("format-date(${born} + 1, '%d/%m')").string, "01/03", "a number of days is a date")
        XCTAssertEqual(eval("format-date(${empty}, '%Y')").string, "")
        XCTAssertEqual(eval("format-date(${word}, '%Y')").string, "", "not a date: empty")
        XCTAssertEqual(eval("format-date('2026-03-05', '100%% %Y')").string, "100% 2026")
    }

    // Spec: date(value) "converts to a string in the date format"; date-time; decimal-date-time.
    func testDateConversions() {
        XCTAssertEqual(eval("date(0)").string, "1970-01-01")
        XCTAssertEqual(eval("date(20517)").string, "2026-03-05")
        XCTAssertEqual(eval("date(20517.9)").string, "2026-03-05", "the fraction dropped")
        XCTAssertEqual(eval("date(${born} + 1)").string, "2000-03-01")
        XCTAssertEqual(eval("date(${when})").string, "2026-03-05")
        XCTAssertEqual(eval("date(${empty})").string, "")
        XCTAssertEqual(eval("date(${word})").string, "")
        XCTAssertEqual(eval("date-time(20517.5)").string, "2026-03-05T12:00:00Z")
        XCTAssertEqual(eval("date-time(${when})").string, "2026-03-05T05:08:09Z")
        XCTAssertEqual(eval("decimal-date-time('1970-01-02T12:00:00Z')").number, 1.5)
        XCTAssertEqual(eval("decimal-date-time('1970-01-02T12:00:00+12:00')").number, 1, "the offset honoured")
        XCTAssertEqual(eval("decimal-date-time('1970-01-02')", zone: TimeZoneRule(secondsFromGMT: 6 * 3600)).number, 0.75,
                       "a date is local midnight")
        XCTAssertTrue(eval("decimal-date-time(${empty})").number.isNaN)
        XCTAssertEqual(eval("decimal-date('1970-01-11')").number, 10)
        XCTAssertEqual(eval("decimal-time('12:00')").number, 0.5, "spec: noon is 0.5")
        XCTAssertEqual(eval("decimal-time('18:00:00.000')").number, 0.75)
        XCTAssertEqual(eval("decimal-time('12:00:00+02:00')").number, 10.0 / 24, accuracy: 1e-12, "in the device's zone")
        XCTAssertTrue(eval("decimal-time('25:00')").number.isNaN)
        XCTAssertEqual(eval("today()").string, "2026-11-18")
        XCTAssertEqual(eval("format-date(today(), '%a %e %b')").string, "Wed 18 Nov")
    }
}
