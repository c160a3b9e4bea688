import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The form's dependency graph (`FormDependencies`, as JavaRosa's triggerables): one pass in
/// its order settles a chain written in any row order, a change re-evaluates only what reads
/// it, and the functions that need the questionnaire (`once`, `jr:choice-name`) get it.
final class FormDependenciesTests: XCTestCase {
    private let clock = FormTestSupport.clock

    /// `c1 = ${c2} + 1`, …, `cN = ${start} + 1`: each row reads the one below it.
    static func reverseChain(_ n: Int) -> String {
        var rows = ["survey,,,,", ",type,name,label,calculation", ",integer,start,Start,"]
        for i in 1...n { rows.append(",calculate,c\(i),,${\(i == n ? "start" : "c\(i + 1)")} + 1") }
        return rows.joined(separator: "\n")
    }

    func testTheOrderPutsWhatAFieldReadsBeforeIt() throws {
        let q = try FormTestSupport.questionnaire(Self.reverseChain(5))
        let order = try XCTUnwrap(q.dependencies?.order)
        XCTAssertEqual(order.map { q.fields[$0].key }, ["start", "c5", "c4", "c3", "c2", "c1"])
        XCTAssertEqual(q.dependencies?.inputs[q.index("c1")], [q.index("c2")])
        XCTAssertEqual(q.dependencies?.readers[q.index("start")], [q.index("c5")])
    }

    func testAReverseChainSettlesInOnePass() throws {
        let q = try FormTestSupport.questionnaire(Self.reverseChain(60))
        var hidden: [String: PropertyValue] = [:]
        let settled = q.settled(Record(["start": .integer(1)]), hidden: &hidden, clock: clock)
        XCTAssertEqual(settled["c1"], .string("61"))
        XCTAssertEqual(settled["c60"], .string("2"))
        var changed = settled
        changed["start"] = .integer(100)
        XCTAssertEqual(q.settled(changed, before: settled, hidden: &hidden, clock: clock)["c1"], .string("160"))
    }

    /// Only what reads the changed answer is evaluated again, as ODK fires only the
    /// triggerables of the answer that changed: a clock calculation keeps its time while
    /// another answer is edited, and is computed afresh when the survey is completed.
    func testAChangeReevaluatesOnlyWhatReadsIt() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,
        ,type,name,label,calculation
        ,integer,a,A,
        ,text,b,B,
        ,calculate,double,,${a} * 2
        ,calculate,stamp,,now()
        """)
        var hidden: [String: PropertyValue] = [:]
        let first = q.settled(Record(["a": .integer(1)]), hidden: &hidden, clock: clock)
        XCTAssertEqual(first["stamp"], .string("2026-12-01T00:30:00+01:00"))
        var edited = first
        edited["b"] = .string("x")
        edited["a"] = .integer(4)
        let later = Questionnaire.Clock(now: clock.now.addingTimeInterval(3600), timeZone: clock.timeZone)
        let settled = q.settled(edited, before: first, hidden: &hidden, clock: later)
        XCTAssertEqual(settled["double"], .string("8"))
        XCTAssertEqual(settled["stamp"], .string("2026-12-01T00:30:00+01:00"), "reads nothing that changed: kept")
        XCTAssertEqual(q.settled(edited, hidden: &hidden, clock: later)["stamp"], .string("2026-12-01T01:30:00+01:00"),
                       "settled whole (as [ Add ] does): computed again")
    }

    /// xforms-spec `once()`: the calculation's own value is `.`, so a drawn id is kept.
    func testOnceKeepsWhatACalculationDrewThroughLaterChanges() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,
        ,type,name,label,calculation
        ,integer,a,A,
        ,calculate,code,,"once(concat('id-', uuid(6)))"
        ,calculate,first_a,,once(${a})
        """)
        var hidden: [String: PropertyValue] = [:]
        let first = q.settled(Record(["a": .integer(1)]), hidden: &hidden, clock: clock)
        let code = try XCTUnwrap(first["code"])
        XCTAssertEqual(first["first_a"], .string("1"))
        var edited = first
        edited["a"] = .integer(2)
        let again = q.settled(edited, hidden: &hidden, clock: clock)
        XCTAssertEqual(again["code"], code)
        XCTAssertEqual(again["first_a"], .string("1"), "once: the first value stays")
    }

    /// xforms-spec `jr:choice-name()`: the label in the language shown.
    func testChoiceNameGivesTheLabelInTheLanguageShown() throws {
        let csv = """
        survey,,,,,
        ,type,name,label::English (en),label::Français (fr),calculation
        ,select_one c,colour,Colour,Couleur,
        ,calculate,said,,,"jr:choice-name(${colour}, '${colour}')"
        choices,,,,,
        ,list_name,name,label::English (en),label::Français (fr),
        ,c,red,Red,Rouge,
        ,c,blue,Blue,Bleu,
        """
        var hidden: [String: PropertyValue] = [:]
        let english = try FormTestSupport.questionnaire(csv, language: "English (en)")
        XCTAssertEqual(english.settled(Record(["colour": .string("blue")]), hidden: &hidden, clock: clock)["said"], .string("Blue"))
        let french = try FormTestSupport.questionnaire(csv, language: "Français (fr)")
        XCTAssertEqual(french.settled(Record(["colour": .string("red")]), hidden: &hidden, clock: clock)["said"], .string("Rouge"))
        XCTAssertNil(french.settled(Record([:]), hidden: &hidden, clock: clock)["said"])
    }

    /// A `choice_filter` that reads a calculation reading the question itself goes round; the
    /// load check does not refuse it (ODK does not either), and settling falls back to passes.
    func testRulesThatGoRoundThroughAChoiceFilterStillSettle() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,,
        ,type,name,label,calculation,choice_filter
        ,select_one c,pick,Pick,,band = ${band} or ${band} = ''
        ,calculate,band,,"if(${pick} = 'b', 'high', '')",
        choices,,,,,
        ,list_name,name,label,band,
        ,c,a,A,low,
        ,c,b,B,high,
        """)
        XCTAssertNotNil(q.dependencies)
        XCTAssertNil(q.dependencies?.order)
        var hidden: [String: PropertyValue] = [:]
        XCTAssertEqual(q.settled(Record(["pick": .string("b")]), hidden: &hidden, clock: clock)["band"], .string("high"))
    }
}
