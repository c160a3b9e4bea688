import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The `trigger` column run as ODK runs it (pyxform's `setvalue` on `xforms-value-changed`):
/// the question is set to its calculation when a question its trigger names changes, and
/// then only, not as what the calculation reads changes; the interviewer's own edit of a
/// question with a label is kept until the trigger fires again.
final class TriggerTests: XCTestCase {
    private let clock = FormTestSupport.clock
    private var later: Questionnaire.Clock { Questionnaire.Clock(now: clock.now.addingTimeInterval(3600), timeZone: clock.timeZone) }

    private let form = """
    survey,,,,,
    ,type,name,label,calculation,trigger
    ,integer,a,A,,
    ,text,b,B,,
    ,dateTime,a_changed,A changed at,now(),${a}
    ,calculate,b_when_a,,${b},${a}
    ,text,cleared,Cleared when b changes,,${b}
    """

    /// A timestamp taken when an answer changes: set by a's change, kept through b's, taken
    /// again (a later time) at a's next change; a calculate with a trigger copies b then.
    func testATimestampIsTakenWhenItsTriggerChangesAndOnlyThen() throws {
        let q = try FormTestSupport.questionnaire(form)
        var hidden: [String: PropertyValue] = [:]
        let start = q.settled(Record(["b": .string("first")]), hidden: &hidden, clock: clock)
        XCTAssertNil(start["a_changed"], "completing a survey changes no answer: no trigger fires")
        XCTAssertNil(start["b_when_a"])

        var edited = start
        edited["a"] = .integer(1)
        let one = q.settled(edited, changedAt: AnswerPath([], "a"), before: start, hidden: &hidden, clock: clock)
        XCTAssertEqual(one["a_changed"], .string("2026-12-01T00:30:00+01:00"))
        XCTAssertEqual(one["b_when_a"], .string("first"))

        edited = one
        edited["b"] = .string("second")
        edited["cleared"] = .string("typed")
        let two = q.settled(edited, changedAt: AnswerPath([], "b"), before: one, hidden: &hidden, clock: later)
        XCTAssertEqual(two["a_changed"], .string("2026-12-01T00:30:00+01:00"), "b is no trigger of it: kept")
        XCTAssertEqual(two["b_when_a"], .string("first"), "what the calculation reads changed, not its trigger: kept")
        XCTAssertNil(two["cleared"], "a trigger with no calculation sets the question empty")

        edited = two
        edited["cleared"] = .string("typed again")
        let typed = q.settled(edited, changedAt: AnswerPath([], "cleared"), before: two, hidden: &hidden, clock: later)
        XCTAssertEqual(typed["cleared"], .string("typed again"), "the interviewer's own answer is kept")

        edited = typed
        edited["a"] = .integer(2)
        let three = q.settled(edited, changedAt: AnswerPath([], "a"), before: typed, hidden: &hidden, clock: later)
        XCTAssertEqual(three["a_changed"], .string("2026-12-01T01:30:00+01:00"))
        XCTAssertEqual(three["b_when_a"], .string("second"))
        XCTAssertEqual(three["cleared"], .string("typed again"))
    }

    /// The same through the one-answer path the form's keying uses.
    func testKeyingAnAnswerFiresItsTriggers() throws {
        let q = try FormTestSupport.questionnaire(form)
        var hidden: [String: PropertyValue] = [:]
        let start = q.settled(Record(["b": .string("x")]), hidden: &hidden, clock: clock)
        let keyed = try XCTUnwrap(q.settled(start, values: start.values, setting: .integer(5), at: AnswerPath([], "a"),
                                            hidden: &hidden, clock: later))
        XCTAssertEqual(keyed.record["a_changed"], .string("2026-12-01T01:30:00+01:00"))
        XCTAssertEqual(keyed.values["b_when_a"], .string("x"))
        let same = try XCTUnwrap(q.settled(keyed.record, values: keyed.values, setting: .integer(5), at: AnswerPath([], "a"),
                                           hidden: &hidden, clock: clock))
        XCTAssertEqual(same.record["a_changed"], .string("2026-12-01T01:30:00+01:00"), "the same answer again is no change")
    }

    /// In a roster, a member's change sets that member's question, not the others'.
    func testATriggerInARosterFiresInTheMemberThatChanged() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,,
        ,type,name,label,calculation,trigger
        ,begin repeat,member,Member,,
        ,integer,age,Age,,
        ,calculate,age_at,,now(),${age}
        ,end repeat,,,,
        """)
        var hidden: [String: PropertyValue] = [:]
        let members: PropertyValue = .array([.dictionary(["age": .integer(30)]), .dictionary(["age": .integer(40)])])
        let start = q.settled(Record(["member": members]), hidden: &hidden, clock: clock)
        let keyed = try XCTUnwrap(q.settled(start, values: start.values, setting: .integer(41),
                                            at: AnswerPath([AnswerPath.Step(name: "member", index: 1)], "age"),
                                            hidden: &hidden, clock: later))
        let after = try XCTUnwrap(keyed.values["member"]?.members)
        XCTAssertNil(after[0]["age_at"])
        XCTAssertEqual(after[1]["age_at"], .string("2026-12-01T01:30:00+01:00"))
    }
}
