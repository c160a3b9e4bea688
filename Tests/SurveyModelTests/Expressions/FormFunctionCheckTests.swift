import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// What the one declaration per function decides when a form is read: the argument count
/// (named with the function), and the constant arguments that cannot work (an invalid regex,
/// a date format letter ODK does not know), reported by `form check` with sheet, row, column.
final class FormFunctionCheckTests: XCTestCase {
    private func error(_ text: String) -> String? { FormFunctionTestSupport.error(text) }

    func testArityErrorsNameTheFunction() {
        XCTAssertEqual(error("substr('a')"), "substr() takes 2 or 3 arguments, not 1")
        XCTAssertEqual(error("once()"), "once() takes 1 argument, not 0")
        XCTAssertEqual(error("today(1)"), "today() takes 0 arguments, not 1")
        XCTAssertEqual(error("join()"), "join() takes at least 1 argument, not 0")
        XCTAssertEqual(error("max()"), "max() takes at least 1 argument, not 0")
        XCTAssertEqual(error("indexed-repeat(${a}, ${r}, 1, ${s})"),
                       "indexed-repeat() takes a question then pairs of repeat and index (3, 5 or 7 arguments), not 4")
        XCTAssertEqual(error("indexed-repeat(${a}, ${r}, 1, ${s}, 1, ${t}, 1, ${u}, 1)"), "indexed-repeat() takes 3 to 7 arguments, not 9")
        XCTAssertEqual(error("weighted-checklist(1, 2, ${a})"),
                       "weighted-checklist() takes an even number of arguments (min, max, then answer and weight pairs), not 3")
        XCTAssertEqual(error("jr:choice-name(${a})"), "jr:choice-name() takes 2 arguments, not 1")
        XCTAssertEqual(error("jr:itext('x')"), "unknown function jr:itext()")
    }

    func testConstantArgumentsThatCannotWorkAreRefused() {
        XCTAssertEqual(error("regex(., '[a-z')"), "regex(): “[a-z” is not a valid regular expression: a “[” is not closed")
        XCTAssertNil(error("regex(., concat('[a-z', ']'))"), "a computed pattern is judged when evaluated")
        XCTAssertEqual(error("format-date(today(), '%Y-%q')"),
                       "format-date(): “%q” is not a date format ODK knows (%Y %y %m %n %b %d %e %a %H %h %M %S %3)")
        XCTAssertEqual(error("format-date-time(now(), '%H%')"), "format-date-time(): the date format ends with a lone “%”")
        XCTAssertEqual(error("digest(., 'SHA-3')"), "digest(): “SHA-3” is not a digest algorithm (MD5, SHA-1, SHA-256, SHA-384, SHA-512)")
        XCTAssertEqual(error("digest(., 'MD5', 'base32')"), "digest(): “base32” is not an encoding (base64 or hex)")
        XCTAssertEqual(error("count(3)"), "count(): argument 1 must be a question, written ${name}")
        XCTAssertEqual(error("indexed-repeat(${a}, 'r', 1)"), "indexed-repeat(): argument 2 must be a question, written ${name}")
        XCTAssertEqual(error("position(${a})"), "position(): the argument must be a path up to a repeat, such as ..")
        XCTAssertEqual(error("jr:choice-name(${a}, 'a b')"), "jr:choice-name(): “a b” does not name a question (write '${name}')")
    }

    /// Every function the table declares parses with its fewest arguments, and every name of
    /// ODK's function list (xforms-spec, "XPath Functions"; pulldata, instance, current,
    /// randomize, jr:itext and version are not here yet) is declared.
    func testTheTableHoldsODKsFunctionList() {
        let odk = ["string", "concat", "join", "substr", "substring-before", "substring-after", "translate", "string-length",
                   "normalize-space", "contains", "starts-with", "ends-with", "uuid", "digest", "if", "coalesce", "once", "true",
                   "false", "boolean", "boolean-from-string", "not", "regex", "checklist", "weighted-checklist", "number", "random",
                   "int", "sum", "max", "min", "round", "pow", "log", "log10", "abs", "sin", "cos", "tan", "asin", "acos", "atan",
                   "atan2", "sqrt", "exp", "exp10", "pi", "count", "count-non-empty", "position", "today", "now", "format-date",
                   "format-date-time", "date", "decimal-date-time", "decimal-time", "selected", "selected-at", "count-selected",
                   "jr:choice-name", "indexed-repeat", "area", "distance", "base64-decode",
                   // Beyond the spec's table: JavaRosa's and XPath 1.0's.
                   "date-time", "decimal-date", "floor", "ceiling", "is-selected", "enclosed-area"]
        XCTAssertEqual(odk.filter { FormFunction.library[$0] == nil }, [])
        // `instance` is the call the parser makes of a path (`instance('x')/root/item[…]/col`).
        XCTAssertNil(error("instance('x')/root/item[name = ${a}]/label"))
        for (name, function) in FormFunction.library where name != "instance" {
            let arguments = Array(repeating: "${a}", count: function.arity.lowerBound + (function.countRule?.0(function.arity.lowerBound) == false ? 1 : 0))
            XCTAssertNil(error("\(name)(\(arguments.joined(separator: ", ")))"), name)
        }
    }

    /// `form check` and `survey form check` report it as they report any expression error.
    func testAnInvalidRegexIsAFormErrorWithItsPlace() throws {
        let csv = """
        survey,,,,
        ,type,name,label,constraint
        ,text,code,Code,"regex(., '^[A-Z{2}$')"
        ,text,other,Other,"regex(., '^[A-Z]{2}$')"
        """
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertNil(result.form)
        XCTAssertEqual(result.errors.map(\.description),
                       ["survey row 3, constraint: regex(): “^[A-Z{2}$” is not a valid regular expression: a “[” is not closed"])
    }

    func testAChoiceNameOfAnUnknownQuestionIsAFormError() throws {
        let csv = """
        survey,,,,
        ,type,name,label,calculation
        ,select_one c,colour,Colour,
        ,calculate,label,,"jr:choice-name(${colour}, '${colur}')"
        choices,,,,
        ,list_name,name,label,
        ,c,red,Red,
        """
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertEqual(result.errors.map(\.description), ["survey row 4, calculation: unknown field ${colur}"])
    }
}
