import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// What pyxform converts though a rule in it reads nothing or cannot be read (issue 18): the
/// form opens, the designer is warned at the row and column, and the survey is keyed as
/// JavaRosa would read the rule (a bare word, a path to no question: nothing) or, where no
/// one can read it, as if it were not written, so nothing typed is lost.
final class XLSFormReadsNothingTests: XCTestCase {
    private func read(_ csv: String) throws -> (questionnaire: Questionnaire, warnings: [String]) {
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertEqual(result.errors.map(\.description), [])
        return (Questionnaire(form: try XCTUnwrap(result.form)), result.warnings.map(\.description))
    }

    private let clock = FormTestSupport.clock

    /// `name = ${crop}` in a calculation (pyxform's own test), `because`: a path below the
    /// question's leaf node, which holds nothing: the empty string, NaN as a number, false.
    func testABareWordIsAPathBelowTheQuestionThatReadsNothing() throws {
        let (q, warnings) = try read("""
            survey,,,,,
            ,type,name,label,relevant,calculation
            ,integer,a,A,,
            ,calculate,same,,,name = ${a}
            ,calculate,sum,,,because + 1
            ,calculate,word,,,"concat('[', because, ']')"
            ,text,t,T,yes,
            """)
        XCTAssertEqual(warnings, [
            "survey row 4, calculation: “name” reads nothing: a bare word is a path below this question; write ${name} for a question",
            "survey row 5, calculation: “because” reads nothing: a bare word is a path below this question; write ${because} for a question",
            "survey row 6, calculation: “because” reads nothing: a bare word is a path below this question; write ${because} for a question",
            "survey row 7, relevant: “yes” reads nothing: a bare word is a path below this question; write ${yes} for a question",
        ])
        let done = q.completed(Record(["a": .integer(3), "t": .string("typed")]), clock: clock)
        XCTAssertEqual(done["same"], .string("false"), "the empty string is not 3")
        XCTAssertNil(done["sum"], "NaN: the calculation is empty")
        XCTAssertEqual(done["word"], .string("[]"))
        XCTAssertFalse(q.shown(Record(["a": .integer(3)])).contains("t"), "an empty node-set is false: never asked")
    }

    /// The instance name's node is `meta/instanceName`: a bare word there reads nothing, and
    /// `XLDateAmbiguous-v1` (a hyphen is part of an XPath name) is one such word, not a sum.
    func testABareWordAsTheInstanceNameReadsNothingAndTheSurveyIsNamedByItsAnswers() throws {
        let (q, warnings) = try read("""
            survey,,,
            ,type,name,label
            ,text,who,Who
            settings,,,
            ,form_title,instance_name,
            ,Dates,XLDateAmbiguous-v1,
            """)
        XCTAssertEqual(warnings, [
            "settings row 6, instance_name: “XLDateAmbiguous-v1” reads nothing: a bare word is a path below "
                + "the instance name (meta/instanceName); write ${XLDateAmbiguous-v1} for a question",
        ])
        XCTAssertEqual(q.name(of: Record(["who": .string("Ana")])), "Ana")
        // Written with blanks it is a subtraction of two paths to nothing: NaN, no crash.
        let sum = try FormExpression(parsing: "XLDateAmbiguous - v1")
        XCTAssertEqual(sum, .binary(.minus, .field("./XLDateAmbiguous"), .field("./v1")))
    }

    /// A path into the instance that reaches no question reads nothing, as JavaRosa reads an
    /// empty node-set; a predicate on the root keeps the one root when it holds at position 1.
    func testAPathToNoQuestionReadsNothing() throws {
        let (q, warnings) = try read("""
            survey,,,,
            ,type,name,label,calculation
            ,integer,a,A,
            ,calculate,b_plus,,/data/b + 1
            ,calculate,up,,"concat('x', ../../../a)"
            ,calculate,first,,/test_name[position() = 1]/a * 2
            ,calculate,second,,/test_name[2]/a * 2
            ,calculate,other,,/test_name[position() = 1]/text
            ,begin repeat,rep,R,
            ,text,inside,I,
            ,end repeat,,,
            ,calculate,label,,${rep}[1]/label
            """)
        XCTAssertEqual(warnings, [
            "survey row 4, calculation: the path /data/b reaches no question of the form: it reads nothing",
            "survey row 5, calculation: the path ../../../a goes above the form's root: it reads nothing",
            "survey row 8, calculation: the path /test_name/text reaches no question of the form: it reads nothing",
            "survey row 12, calculation: the path ${rep}/label reaches no question of the form: it reads nothing",
        ])
        let rep = PropertyValue.array([.dictionary(["inside": .string("i")])])
        let done = q.completed(Record(["a": .integer(4), "rep": rep]), clock: clock)
        XCTAssertNil(done["b_plus"])
        XCTAssertEqual(done["up"], .string("x"))
        XCTAssertEqual(done["first"], .string("8"), "the root is at position 1")
        XCTAssertNil(done["second"], "there is no second root")
        XCTAssertNil(done["other"])
        XCTAssertNil(done["label"])
    }

    /// Text that is not XPath (`{r}`, `$(x)`, `£`) is a rule no one can read: the form opens,
    /// the question is asked, not held, not computed, and what is typed is kept.
    func testARuleThatCannotBeReadIsAsIfNotWrittenAndNothingTypedIsLost() throws {
        let (q, warnings) = try read("""
            survey,,,,,,,
            ,type,name,label,relevant,required,constraint,calculation
            ,text,shown,S,{r},,,
            ,integer,free,F,,$(x)='1',£ > 1,
            ,calculate,bad,,,,,£¥§©®₱₩
            ,text,typed,T,,,,concat(${free}
            """)
        XCTAssertEqual(warnings, [
            "survey row 3, relevant: “{r}” cannot be read (unexpected “{”): the question is always asked",
            "survey row 4, required: “$(x)='1'” cannot be read (“$” must start ${name}): the question is not required",
            "survey row 4, constraint: “£ > 1” cannot be read (unexpected “£”): any answer is taken",
            "survey row 5, calculation: “£¥§©®₱₩” cannot be read (unexpected “£”): nothing is computed, the value stays empty",
            "survey row 6, calculation: “concat(${free}” cannot be read (the call to concat() is not closed): "
                + "nothing is computed, the value stays empty",
        ])
        XCTAssertEqual(q.shown(Record()).filter { ["shown", "free", "typed"].contains($0) }, ["shown", "free", "typed"])
        XCTAssertNil(q.ruleProblem(q.index("free"), value: nil, in: Record(), clock: clock), "not required")
        XCTAssertNil(q.ruleProblem(q.index("free"), value: .integer(-5), in: Record(), clock: clock), "no constraint")
        let done = q.completed(Record(["free": .integer(-5), "typed": .string("kept")]), clock: clock)
        XCTAssertNil(done["bad"])
        XCTAssertEqual(done["typed"], .string("kept"))
        XCTAssertEqual(done["free"], .integer(-5))
        XCTAssertEqual(q.problems(in: Record(["typed": .string("kept")]), clock: clock).count, 0)
    }

    /// XPath survey does not read, a function it does not know and a hostile depth still keep
    /// the form from opening: those are not text pyxform passes unread.
    func testWhatSurveyDoesNotReadIsStillAnError() throws {
        func errors(_ relevant: String) throws -> [String] {
            XLSForm.read(try XLSFormSheets.csv("survey,,,,\n,type,name,label,relevant\n,text,a,A,\(relevant)\n")).errors.map(\.description)
        }
        XCTAssertEqual(try errors("frobnicate(1)"), ["survey row 3, relevant: unknown function frobnicate()"])
        XCTAssertEqual(try errors("\"if(1, 2)\""), ["survey row 3, relevant: if() takes 3 arguments, not 2"])
        XCTAssertEqual(try errors(String(repeating: "(", count: 70) + "1" + String(repeating: ")", count: 70)),
                       ["survey row 3, relevant: the expression nests more than 64 levels deep"])
        XCTAssertEqual(try errors("${nope} = 1"), ["survey row 3, relevant: unknown field ${nope}"])
    }

    /// A default its question refuses is dropped with a warning: the question starts empty,
    /// and Add is not held by a value nobody typed.
    func testADefaultTheQuestionRefusesIsDroppedAndTheQuestionStartsEmpty() throws {
        let (q, warnings) = try read("""
            survey,,,,
            ,type,name,label,default
            ,integer,n,N,foo
            ,date,d,D,1
            ,integer,good,G,7
            ,begin repeat,r,R,
            ,integer,m,M,many
            ,end repeat,,,
            """)
        XCTAssertEqual(warnings, [
            "survey row 3, default: the default “foo” is not an answer this question takes: N must be a whole number; the question starts empty",
            "survey row 4, default: the default “1” is not an answer this question takes: D must be a date, YYYY-MM-DD; the question starts empty",
            "survey row 7, default: the default “many” is not an answer this question takes: M must be a whole number; the question starts empty",
        ])
        XCTAssertNil(q.defaultText(q.index("n"), clock: .wall))
        XCTAssertNil(q.defaultText(q.index("d"), clock: .wall))
        XCTAssertEqual(q.defaultText(q.index("good"), clock: .wall), "7")
        let done = q.completed(Record(["r": .array([.dictionary([:])])]), clock: clock)
        XCTAssertNil(done["n"])
        XCTAssertEqual(done["good"], .integer(7))
        XCTAssertEqual(q.problems(in: Record(), clock: clock).count, 0, "nothing refused on a value nobody typed")
        let member = try XCTUnwrap(q.form?.questions.first { $0.name == "r" }?.children.first { $0.name == "m" })
        XCTAssertNil(member.defaultValue, "a repeat's question starts empty too")
    }
}
