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

    /// One answer keyed through the form's path.
    private func key(_ q: Questionnaire, _ record: Record, _ value: PropertyValue?, at path: AnswerPath,
                     hidden: inout [String: PropertyValue], clock: Questionnaire.Clock) throws -> Record {
        try XCTUnwrap(q.settled(record, values: record.values, setting: value, at: path, hidden: &hidden, clock: clock)).record
    }

    /// JavaRosa's xformsValueChanged_triggeredAfterRecomputation: the trigger reads what the
    /// change recomputed, wherever its row stands (here before the calculation it reads).
    func testATriggerFiresAfterTheRecomputationItsChangeCauses() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,,
        ,type,name,label,calculation,trigger
        ,integer,a,A,,
        ,integer,d,D,${dbl},${a}
        ,calculate,dbl,,${a}*2,
        """)
        var hidden: [String: PropertyValue] = [:]
        let start = q.settled(Record([:]), hidden: &hidden, clock: clock)
        let one = try key(q, start, .integer(12), at: AnswerPath([], "a"), hidden: &hidden, clock: clock)
        XCTAssertEqual(one["d"], .integer(24))
        let two = try key(q, one, .integer(13), at: AnswerPath([], "a"), hidden: &hidden, clock: clock)
        XCTAssertEqual(two["d"], .integer(26))
        XCTAssertEqual(two["dbl"], .string("26"))
    }

    /// A triggered value is cast to its question's type as JavaRosa casts a setvalue's: a
    /// number truncated toward zero for an integer; what the type cannot hold leaves the
    /// answer as it was, never a string in an integer question.
    func testATriggeredValueIsCastToItsQuestionsType() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,,
        ,type,name,label,calculation,trigger
        ,integer,a,A,,
        ,integer,b,B,${a} div 3,${a}
        ,decimal,c,C,${a} div 4,${a}
        ,integer,e,E,"concat('x', ${a})",${a}
        """)
        var hidden: [String: PropertyValue] = [:]
        var record = q.settled(Record(["e": .integer(7)]), hidden: &hidden, clock: clock)
        record = try key(q, record, .integer(13), at: AnswerPath([], "a"), hidden: &hidden, clock: clock)
        XCTAssertEqual(record["b"], .integer(4))
        XCTAssertEqual(record["c"], .real(3.25))
        XCTAssertEqual(record["e"], .integer(7), "“x13” is no integer: the answer is left as it was")
        record = try key(q, record, .integer(-13), at: AnswerPath([], "a"), hidden: &hidden, clock: clock)
        XCTAssertEqual(record["b"], .integer(-4), "toward zero, as Java's (int)")
    }

    /// ODK's way to count an answer's changes: a calculation reading its own row, set when
    /// its trigger changes. pyxform takes it; it is no cycle, as nothing recomputes it.
    func testATriggerThatReadsItsOwnRowCountsTheChanges() throws {
        for (plain, counting) in [(". + 1", "if(. = '', 1, . + 1)"), ("${n} + 1", "if(${n} = '', 1, ${n} + 1)")] {
            let q = try FormTestSupport.questionnaire("""
            survey,,,,,
            ,type,name,label,calculation,trigger
            ,integer,a,A,,
            ,calculate,n,,"\(counting)",${a}
            ,calculate,plain,,\(plain.replacingOccurrences(of: "${n}", with: "${plain}")),${a}
            """)
            var hidden: [String: PropertyValue] = [:]
            var record = q.settled(Record([:]), hidden: &hidden, clock: clock)
            for k in 1...3 {
                record = try key(q, record, .integer(k), at: AnswerPath([], "a"), hidden: &hidden, clock: clock)
            }
            XCTAssertEqual(record["n"], .string("3"), counting)
        }
    }

    /// A name used in two groups is both questions, as pyxform attaches the trigger to each.
    func testATriggerNamingAQuestionInTwoGroupsFiresOnEither() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,,
        ,type,name,label,calculation,trigger
        ,begin group,g1,G1,,
        ,integer,age,Age,,
        ,end group,,,,
        ,begin group,g2,G2,,
        ,integer,age,Age,,
        ,end group,,,,
        ,calculate,t,,now(),${age}
        """)
        var hidden: [String: PropertyValue] = [:]
        var record = q.settled(Record([:]), hidden: &hidden, clock: clock)
        record = try key(q, record, .integer(3), at: AnswerPath([], "g1/age"), hidden: &hidden, clock: clock)
        XCTAssertEqual(record["t"], .string("2026-12-01T00:30:00+01:00"))
        record = try key(q, record, .integer(4), at: AnswerPath([], "g2/age"), hidden: &hidden, clock: later)
        XCTAssertEqual(record["t"], .string("2026-12-01T01:30:00+01:00"))
    }

    /// A triggered calculate hidden by its `relevant` is put aside, and back as it was when
    /// its row shows again: nothing computes it again.
    func testATriggeredCalculationHiddenAndShownAgainComesBack() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,,,
        ,type,name,label,calculation,trigger,relevant
        ,select_one yn,consent,Consent,,,
        ,integer,age,Age,,,
        ,calculate,stamp,,now(),${age},${consent}='yes'
        choices,,,
        ,list_name,name,label
        ,yn,yes,Yes
        ,yn,no,No
        """)
        var hidden: [String: PropertyValue] = [:]
        var record = q.settled(Record([:]), hidden: &hidden, clock: clock)
        record = try key(q, record, .string("yes"), at: AnswerPath([], "consent"), hidden: &hidden, clock: clock)
        record = try key(q, record, .integer(30), at: AnswerPath([], "age"), hidden: &hidden, clock: clock)
        XCTAssertEqual(record["stamp"], .string("2026-12-01T00:30:00+01:00"))
        record = try key(q, record, .string("no"), at: AnswerPath([], "consent"), hidden: &hidden, clock: later)
        XCTAssertNil(record["stamp"])
        record = try key(q, record, .string("yes"), at: AnswerPath([], "consent"), hidden: &hidden, clock: later)
        XCTAssertEqual(record["stamp"], .string("2026-12-01T00:30:00+01:00"))
    }

    /// A trigger outside a roster setting a row in it: JavaRosa sets the one member and
    /// refuses to choose among several ("has more than one node"), so nothing is set then.
    func testATopLevelTriggerSetsARosterRowOnlyWhileTheRosterHasOneMember() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,,
        ,type,name,label,calculation,trigger
        ,integer,a,A,,
        ,begin repeat,member,Member,,
        ,integer,age,Age,,
        ,calculate,a_seen,,${a},${a}
        ,end repeat,,,,
        """)
        var hidden: [String: PropertyValue] = [:]
        let two: PropertyValue = .array([.dictionary(["age": .integer(30)]), .dictionary(["age": .integer(40)])])
        var record = q.settled(Record(["member": two]), hidden: &hidden, clock: clock)
        record = try key(q, record, .integer(5), at: AnswerPath([], "a"), hidden: &hidden, clock: clock)
        XCTAssertEqual(record["member"]?.members?.map { $0["a_seen"] }, [nil, nil])
        var one = q.settled(Record(["member": .array([.dictionary(["age": .integer(30)])])]), hidden: &hidden, clock: clock)
        one = try key(q, one, .integer(5), at: AnswerPath([], "a"), hidden: &hidden, clock: clock)
        XCTAssertEqual(one["member"]?.members?.map { $0["a_seen"] }, [.string("5")])
    }
}
