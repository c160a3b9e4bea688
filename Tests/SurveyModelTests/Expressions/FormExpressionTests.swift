import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The XPath subset XLSForm uses, parsed at load and evaluated against answers.
final class FormExpressionTests: XCTestCase {
    private let answers: [String: String] = [
        "age": "42", "name": "Ana Lima", "empty": "", "colours": "red blue", "height": "1.75", "neg": "-3",
    ]

    private func eval(_ text: String, current: FormValue = .string(""), file: StaticString = #filePath, line: UInt = #line) -> FormValue {
        do {
            let answers = self.answers
            let context = FormContext(current: current, now: Date(timeIntervalSince1970: 1_795_000_000),
                                      timeZone: .utc) { .string(answers[$0] ?? "") }
            return try FormExpression(parsing: text).evaluate(in: context)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return .string("<error>")
        }
    }

    private func error(_ text: String) -> String? {
        do { _ = try FormExpression(parsing: text); return nil } catch { return "\(error)" }
    }

    func testArithmeticAndPrecedence() {
        XCTAssertEqual(eval("1 + 2 * 3").number, 7)
        XCTAssertEqual(eval("(1 + 2) * 3").number, 9)
        XCTAssertEqual(eval("7 div 2").number, 3.5)
        XCTAssertEqual(eval("7 mod 3").number, 1)
        XCTAssertEqual(eval("-${neg} + 1").number, 4)
        XCTAssertEqual(eval("${age} * 2").string, "84", "whole numbers print without .0")
        XCTAssertEqual(eval("${height} + 0.25").number, 2.0)
    }

    func testComparisonsFollowXPath() {
        XCTAssertTrue(eval("${age} >= 18 and ${age} < 65").boolean)
        XCTAssertTrue(eval("${age} = 42").boolean, "a stored answer compares as a number with a number")
        XCTAssertTrue(eval("${name} = 'Ana Lima'").boolean)
        XCTAssertTrue(eval("${name} != 'Bob'").boolean)
        XCTAssertFalse(eval("${empty} > 18").boolean, "an empty answer is not a number")
        XCTAssertFalse(eval("${empty} < 18").boolean)
        XCTAssertTrue(eval("${empty} = ''").boolean)
        XCTAssertTrue(eval("not(${empty})").boolean)
        XCTAssertTrue(eval("${age} > 100 or ${name} = \"Ana Lima\"").boolean)
        XCTAssertTrue(eval(". >= 0 and . <= 150", current: .string("20")).boolean)
        XCTAssertFalse(eval(". >= 0 and . <= 150", current: .string("151")).boolean)
    }

    func testTypographicQuotesAsRealFormsHaveThem() {
        XCTAssertTrue(eval("${name} = ‘Ana Lima’").boolean)
        XCTAssertTrue(eval("${name} = “Ana Lima”").boolean)
    }

    func testEveryFunction() {
        XCTAssertTrue(eval("selected(${colours}, 'blue')").boolean)
        XCTAssertFalse(eval("selected(${colours}, 'bl')").boolean)
        XCTAssertEqual(eval("count-selected(${colours})").number, 2)
        XCTAssertEqual(eval("string-length(${name})").number, 8)
        XCTAssertTrue(eval("regex(${name}, '^[A-Z][a-z]+ ')").boolean)
        XCTAssertFalse(eval("regex(${age}, '^[a-z]+$')").boolean)
        XCTAssertEqual(eval("if(${age} > 40, 'older', 'younger')").string, "older")
        XCTAssertEqual(eval("coalesce(${empty}, ${name})").string, "Ana Lima")
        XCTAssertEqual(eval("concat(${name}, ', ', ${age})").string, "Ana Lima, 42")
        XCTAssertEqual(eval("int(${height})").number, 1)
        XCTAssertEqual(eval("int(-2.7)").number, -2)
        XCTAssertEqual(eval("number('12')").number, 12)
        XCTAssertTrue(eval("number('x')").number.isNaN)
        XCTAssertEqual(eval("round(2.5)").number, 3)
        XCTAssertEqual(eval("round(3.14159, 2)").number, 3.14)
        XCTAssertEqual(eval("today()").string, "2026-11-18")
        // Dates compare and subtract as days since 1970, as ODK converts them.
        XCTAssertEqual(eval(". <= today()", current: .string("2024-03-05")).boolean, true)
        XCTAssertEqual(eval(". <= today()", current: .string("2026-11-19")).boolean, false)
        XCTAssertEqual(eval("today() - .", current: .string("2026-11-08")).number, 10)
        XCTAssertEqual(eval(". < now()", current: .string("2026-11-18T10:00:00+01:00")).boolean, true)
        XCTAssertEqual(eval("number(.)", current: .string("1970-01-02")).number, 1)
        XCTAssertTrue(eval("number(.)", current: .string("2024-02-30")).number.isNaN, "not a date: no number")
        XCTAssertEqual(eval("now()").string, "2026-11-18T11:06:40Z")
        XCTAssertEqual(eval("pow(2, 10)").number, 1024)
        XCTAssertEqual(eval("sqrt(16)").number, 4)
        XCTAssertEqual(eval("exp(0)").number, 1)
        XCTAssertEqual(eval("log(1)").number, 0)
        XCTAssertEqual(eval("log10(1000)").number, 3)
        XCTAssertEqual(eval("sin(0)").number, 0)
        XCTAssertEqual(eval("cos(0)").number, 1)
        XCTAssertEqual(eval("tan(0)").number, 0)
        XCTAssertEqual(eval("asin(1)").number, Double.pi / 2, accuracy: 1e-12)
        XCTAssertEqual(eval("acos(1)").number, 0)
        XCTAssertEqual(eval("atan(0)").number, 0)
        XCTAssertEqual(eval("atan2(1, 1)").number, Double.pi / 4, accuracy: 1e-12)
        XCTAssertEqual(eval("pi()").number, Double.pi)
        XCTAssertEqual(eval("abs(${neg})").number, 3)
        XCTAssertTrue(eval("true()").boolean)
        XCTAssertFalse(eval("false()").boolean)
        XCTAssertEqual(eval("string(${age} + 1)").string, "43")
    }

    func testWhatCannotBeEvaluatedIsSaidWhenTheFormIsRead() {
        XCTAssertEqual(error("frobnicate(1)"), "unknown function frobnicate()")
        XCTAssertEqual(error("if(1, 2)"), "if() takes 3 arguments, not 2")
        XCTAssertEqual(error("${age"), "${age is not closed with “}”")
        XCTAssertEqual(error("(1 + 2"), "a “(” is not closed")
        XCTAssertEqual(error("'abc"), "a quoted string is not closed")
        XCTAssertEqual(error("${rep}[age = 3]/x"), "“age” is not a function call (write ${age} for a question)")
        XCTAssertEqual(error("1 +"), "the expression ends too early")
        XCTAssertEqual(error(""), "the expression is empty")
        XCTAssertEqual(error("1 2"), "unexpected “2”")
    }

    /// A bare word is XPath's path from the rule's node (`./age`), for the reader to resolve;
    /// a hyphen or a period is part of the name, as in XPath.
    func testABareWordIsARelativePath() throws {
        XCTAssertEqual(try FormExpression(parsing: "age > 3"), .binary(.greater, .field("./age"), .number(3)))
        XCTAssertEqual(try FormExpression(parsing: "XLDateAmbiguous-v1"), .field("./XLDateAmbiguous-v1"))
        XCTAssertEqual(try FormExpression(parsing: "group/x"), .field("./group/x"))
        XCTAssertEqual(try FormExpression(parsing: "string (1)"), .call("string", [.number(1)]), "a word before a bracket is a call")
    }

    /// Text that is not XPath at all is marked so (pyxform passes it through, and the reader
    /// opens the form with the rule unread); XPath survey does not read is not.
    func testMalformedTextIsToldFromWhatSurveyDoesNotRead() {
        func malformed(_ text: String) -> Bool? {
            do { _ = try FormExpression(parsing: text); return nil } catch { return (error as? FormExpressionError)?.malformed }
        }
        for text in ["{r}", "$(myField)='1'", "£¥§", "(1 + 2", "'abc", "1 +", "${age", "concat(1"] {
            XCTAssertEqual(malformed(text), true, text)
        }
        for text in ["frobnicate(1)", "if(1, 2)", "instance('x')", "${rep}[age = 3]/x", String(repeating: "(", count: 70) + "1" + String(repeating: ")", count: 70)] {
            XCTAssertEqual(malformed(text), false, text)
        }
    }

    /// A hostile form: a million brackets, or a megabyte of `1 + 1 + …`, is refused with a
    /// message instead of overflowing the stack (parsing, evaluating or freeing the tree).
    func testExpressionsTooDeepOrTooLongAreRefusedNotCrashed() {
        XCTAssertEqual(error(String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)),
                       "the expression nests more than 64 levels deep")
        XCTAssertEqual(error(String(repeating: "not(", count: 20_000) + "1" + String(repeating: ")", count: 20_000)),
                       "the expression nests more than 64 levels deep")
        XCTAssertEqual(error(String(repeating: "-", count: 100_000) + "1"), "the expression nests more than 64 levels deep")
        XCTAssertEqual(error(Array(repeating: "1", count: 50_000).joined(separator: " + ")),
                       "the expression has more than 2000 terms")
        // Real forms stay far inside both limits: 64 levels and 2,000 terms still work.
        let deep = String(repeating: "(", count: 63) + "1" + String(repeating: ")", count: 63)
        XCTAssertEqual(eval(deep).number, 1)
        XCTAssertEqual(eval(Array(repeating: "1", count: 2_000).joined(separator: " + ")).number, 2_000)
    }

    func testFieldReferencesAreListedForTheLoadCheck() throws {
        XCTAssertEqual(try FormExpression(parsing: "if(${a} > 1, concat(${b}, .), ${android})").fieldReferences,
                       ["a", "b", "android"])
        XCTAssertEqual(try FormExpression(parsing: "${order}=1 and ${android}=2").fieldReferences, ["order", "android"],
                       "names that begin with an operator word are names")
    }
}
