import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// ODK's string, boolean and select functions (xforms-spec, "XPath Functions": String,
/// Boolean and Select Functions), each with its ordinary and edge cases.
final class FormStringAndLogicFunctionTests: XCTestCase {
    private let answers = ["name": "Ana Lima", "empty": "", "colours": "red blue green", "n": "42", "word": "banana",
                           "spaced": "  a \t b\n  c ", "yes": "true", "one": "1", "t": "TRUE"]

    private func eval(_ text: String, current: FormValue = .string(""), file: StaticString = #filePath, line: UInt = #line) -> FormValue {
        FormFunctionTestSupport.eval(text, answers, current: current, file: file, line: line)
    }

    // Spec: substr(string value, number start, number end?) — 0-based start, end exclusive.
    func testSubstrIsZeroBasedWithAnExclusiveEnd() {
        XCTAssertEqual(eval("substr(${name}, 0, 3)").string, "Ana")
        XCTAssertEqual(eval("substr(${name}, 4)").string, "Lima")
        XCTAssertEqual(eval("substr(${name}, -4)").string, "Lima", "a negative start counts from the end (JavaRosa)")
        XCTAssertEqual(eval("substr(${name}, 5, 2)").string, "", "an end before the start is empty")
        XCTAssertEqual(eval("substr(${name}, 0, 100)").string, "Ana Lima", "past the end stops at the end")
        XCTAssertEqual(eval("substr(${empty}, 0, 1)").string, "")
        XCTAssertEqual(eval("substr('São Tomé', 4, 8)").string, "Tomé", "characters, not bytes")
        XCTAssertEqual(eval("substr(${name}, 'x')").string, "Ana Lima", "a start that is not a number is 0")
    }

    // Spec: substring-before / substring-after as in XPath 1.0.
    func testSubstringBeforeAndAfter() {
        XCTAssertEqual(eval("substring-before(${name}, ' ')").string, "Ana")
        XCTAssertEqual(eval("substring-after(${name}, ' ')").string, "Lima")
        XCTAssertEqual(eval("substring-before(${name}, 'x')").string, "", "not found: empty")
        XCTAssertEqual(eval("substring-after(${name}, 'x')").string, "")
        XCTAssertEqual(eval("substring-after(${word}, 'an')").string, "ana", "after the first occurrence")
        XCTAssertEqual(eval("substring-before(${word}, '')").string, "")
    }

    // Spec: translate as in XPath 1.0: mapped, or dropped when the third string is shorter.
    func testTranslateMapsAndDropsCharacters() {
        XCTAssertEqual(eval("translate(${word}, 'abn', 'ABN')").string, "BANANA")
        XCTAssertEqual(eval("translate(${word}, 'an', 'A')").string, "bAAA", "n has no counterpart: dropped")
        XCTAssertEqual(eval("translate('--aaa--', 'abc-', 'ABC')").string, "AAA")
        XCTAssertEqual(eval("translate(${empty}, 'a', 'b')").string, "")
    }

    func testContainsStartsWithEndsWith() {
        XCTAssertTrue(eval("contains(${name}, 'a L')").boolean)
        XCTAssertFalse(eval("contains(${name}, 'x')").boolean)
        XCTAssertTrue(eval("contains(${name}, '')").boolean, "XPath: every string contains the empty one")
        XCTAssertTrue(eval("starts-with(${name}, 'Ana')").boolean)
        XCTAssertFalse(eval("starts-with(${name}, 'Lima')").boolean)
        XCTAssertTrue(eval("ends-with(${name}, 'Lima')").boolean)
        XCTAssertFalse(eval("ends-with(${empty}, 'a')").boolean)
        XCTAssertTrue(eval("starts-with(${n}, 4)").boolean, "a number argument is its text")
    }

    func testStringLengthAndNormalizeSpaceDefaultToTheQuestionsOwnAnswer() {
        XCTAssertEqual(eval("string-length(${name})").number, 8)
        XCTAssertEqual(eval("string-length(${empty})").number, 0)
        XCTAssertEqual(eval("string-length()", current: .string("abcd")).number, 4)
        XCTAssertEqual(eval("string-length(12.5)").number, 4, "a number's text")
        XCTAssertEqual(eval("normalize-space(${spaced})").string, "a b c")
        XCTAssertEqual(eval("normalize-space()", current: .string(" x  y ")).string, "x y")
    }

    // Spec: concat accepts node-sets and one argument; join(separator, nodes*).
    func testConcatAndJoin() {
        XCTAssertEqual(eval("concat(${name})").string, "Ana Lima")
        XCTAssertEqual(eval("concat()").string, "")
        XCTAssertEqual(eval("concat('a', 1, true())").string, "a1true")
        XCTAssertEqual(eval("join(', ', ${name}, ${n}, 'x')").string, "Ana Lima, 42, x")
        XCTAssertEqual(eval("join('-')").string, "")
        var many = FormFunctionTestSupport.context(answers)
        many.nodeSet = { name in name == "kid" ? [.string("Ana"), .string("Rui"), .string("Eva")] : [] }
        XCTAssertEqual(try FormExpression(parsing: "join(' and ', ${kid})").evaluate(in: many).string, "Ana and Rui and Eva",
                       "a repeat's values, joined")
    }

    // Spec: uuid() is an RFC 4122 version 4 UUID; uuid(n) n random characters.
    func testUUIDIsVersionFourAndComesFromTheContextsRandomSource() {
        let id = eval("uuid()").string
        XCTAssertNotNil(id.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression), id)
        XCTAssertEqual(eval("uuid()").string, id, "the same random source gives the same id")
        XCTAssertEqual(eval("string-length(uuid(10))").number, 10)
        XCTAssertEqual(eval("uuid(0)").string, "")
    }

    // Spec: coalesce returns the first non-empty; once keeps the node's value.
    func testCoalesceAndOnce() {
        XCTAssertEqual(eval("coalesce(${empty}, ${name})").string, "Ana Lima")
        XCTAssertEqual(eval("coalesce(${n}, ${name})").string, "42")
        XCTAssertEqual(eval("coalesce(${empty}, ${empty})").string, "")
        XCTAssertEqual(eval("coalesce(number('x'), 7)").number, 7, "NaN counts as empty (JavaRosa's isNull)")
        XCTAssertEqual(eval("once(${n} + 1)").number, 43, "empty: the argument")
        XCTAssertEqual(eval("once(${n} + 1)", current: .string("7")).string, "7", "already has a value: kept")
        XCTAssertEqual(eval("once(random())").number, 0.37, "the context's random source")
    }

    // Spec: boolean-from-string is true only for "true" and "1"; boolean/not as XPath 1.0.
    func testBooleansAsODKConvertsThem() {
        XCTAssertTrue(eval("boolean-from-string(${yes})").boolean)
        XCTAssertTrue(eval("boolean-from-string(${one})").boolean)
        XCTAssertTrue(eval("boolean-from-string(${t})").boolean, "any case (JavaRosa)")
        XCTAssertFalse(eval("boolean-from-string('yes')").boolean)
        XCTAssertFalse(eval("boolean-from-string(${empty})").boolean)
        XCTAssertTrue(eval("boolean('false')").boolean, "a non-empty string is true, as the spec warns")
        XCTAssertFalse(eval("boolean(0)").boolean)
        XCTAssertFalse(eval("boolean(number('x'))").boolean, "NaN is false")
        XCTAssertTrue(eval("not(false())").boolean)
        XCTAssertTrue(eval("true() and not(${empty})").boolean)
    }

    // Spec: checklist(min, max, v*) and weighted-checklist(min, max, [v, w]*).
    func testChecklists() {
        XCTAssertTrue(eval("checklist(2, 3, ${yes}, ${empty}, ${n})").boolean, "two true of three")
        XCTAssertFalse(eval("checklist(3, -1, ${yes}, ${empty}, ${n})").boolean)
        XCTAssertTrue(eval("checklist(-1, 2, ${yes}, ${empty}, ${n})").boolean, "-1: no minimum")
        XCTAssertTrue(eval("weighted-checklist(5, 10, ${yes}, 4, ${empty}, 100, ${n}, 3)").boolean, "4 + 3 = 7")
        XCTAssertFalse(eval("weighted-checklist(8, 10, ${yes}, 4, ${empty}, 100, ${n}, 3)").boolean)
    }

    // Spec: regex(value, expression). Matched anywhere, as today's forms rely on (anchor with ^ $).
    func testRegex() {
        XCTAssertTrue(eval("regex(${n}, '^[0-9]+$')").boolean)
        XCTAssertFalse(eval("regex(${name}, '^[0-9]+$')").boolean)
        XCTAssertTrue(eval("regex(${empty}, '^$')").boolean)
        XCTAssertTrue(eval("regex(${name}, concat(${empty}, '['))").boolean,
                      "a pattern computed at run time that cannot run takes the answer (FormRegexTests)")
    }

    // Spec: selected, selected-at (0-based), count-selected.
    func testSelections() {
        XCTAssertTrue(eval("selected(${colours}, 'blue')").boolean)
        XCTAssertTrue(eval("is-selected(${colours}, ' green ')").boolean, "the alias, and the value trimmed")
        XCTAssertFalse(eval("selected(${colours}, 'blu')").boolean)
        XCTAssertEqual(eval("selected-at(${colours}, 0)").string, "red")
        XCTAssertEqual(eval("selected-at(${colours}, 2)").string, "green")
        XCTAssertEqual(eval("selected-at(${colours}, 3)").string, "", "past the end")
        XCTAssertEqual(eval("selected-at(${colours}, -1)").string, "")
        XCTAssertEqual(eval("selected-at(${colours}, 'x')").string, "")
        XCTAssertEqual(eval("count-selected(${colours})").number, 3)
        XCTAssertEqual(eval("count-selected(${empty})").number, 0)
    }

    // Spec: jr:choice-name(node, value) — the choice's label in the active language.
    func testChoiceNameAsksTheContextForTheLabel() throws {
        let expression = try FormExpression(parsing: "jr:choice-name(${colour}, '${colour}')")
        XCTAssertEqual(expression.fieldReferences, ["colour", "colour"], "the quoted reference is a reference too")
        var c = FormFunctionTestSupport.context(["colour": "red"])
        c.choiceLabel = { question, choice in question == "colour" && choice == "red" ? "Rouge" : nil }
        XCTAssertEqual(expression.evaluate(in: c).string, "Rouge")
        XCTAssertEqual(try FormExpression(parsing: "jr:choice-name('blue', '/data/colour')").evaluate(in: c).string, "",
                       "a choice the list does not have: empty")
        XCTAssertEqual(eval("jr:choice-name(${colours}, '${colours}')").string, "", "no labels in the context: empty")
    }
}
