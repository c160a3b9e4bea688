import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A commit settles only what the changed answer reaches in the form's dependency graph
/// (issue 20), and that gives the very survey a settling of every rule gives: edits at random
/// on a generated form with a roster, settled both ways, and by the keying path that starts
/// from the answers already read (`settled(_:values:setting:at:hidden:clock:)`).
final class IncrementalSettlingTests: XCTestCase {
    private let clock = FormTestSupport.clock

    /// The key of node `g` of the form's outline, and the instance it was evaluated in.
    private func described(_ q: Questionnaire, _ evaluated: [(node: Int, steps: [AnswerPath.Step])]) -> [String] {
        guard let outline = q.outline?.value else { return [] }
        return evaluated.map { g, steps in
            let scope = outline.scopes[outline.scopeOf[g]]
            return AnswerPath(steps, scope.fields[g - scope.offset].key).description
        }
    }

    func testAnAnswerNothingReadsEvaluatesItsOwnRowOnly() throws {
        let q = try FormTestSupport.questionnaire(RosterRulesTests.form)
        var hidden: [String: PropertyValue] = [:]
        var record = Record(["household_size": .integer(3)])
        for name in ["Ana", "Ben", "Caro"] { record.insertInstance(of: "member", answers: ["name": .string(name), "age": .integer(30)]) }
        let before = q.settled(record, hidden: &hidden, clock: clock)
        var after = before
        let path = AnswerPath(RosterRulesTests.member(1), "relation")
        XCTAssertTrue(after.setValue(.string("son"), at: path))
        XCTAssertEqual(described(q, q.settledEvaluations(after, changedAt: path, before: before, clock: clock)), ["member[2]/relation"])
        // At the top level too: nothing reads `interviewed`.
        var top = before
        top["interviewed"] = .integer(2)
        XCTAssertEqual(described(q, q.settledEvaluations(top, changedAt: AnswerPath("interviewed"), before: before, clock: clock)),
                       ["interviewed"])
    }

    func testAnAgeInOneMemberEvaluatesThatMemberAndTheTotals() throws {
        let q = try FormTestSupport.questionnaire(RosterRulesTests.form)
        var hidden: [String: PropertyValue] = [:]
        var record = Record(["household_size": .integer(3)])
        for age in [40, 12, 70] { record.insertInstance(of: "member", answers: ["age": .integer(age)]) }
        let before = q.settled(record, hidden: &hidden, clock: clock)
        var after = before
        let path = AnswerPath(RosterRulesTests.member(2), "age")
        XCTAssertTrue(after.setValue(.integer(71), at: path))
        let evaluated = Set(described(q, q.settledEvaluations(after, changedAt: path, before: before, clock: clock)))
        // Member 3's own rules, the totals outside that read every age, and `share` in every
        // member (it reads `total_age`, which changed); never member 1's `school`.
        XCTAssertTrue(evaluated.isSuperset(of: ["member[3]/age", "member[3]/school", "member[3]/is_adult", "total_age", "oldest",
                                                "adults", "member[1]/share", "member[2]/share", "member[3]/share"]), "\(evaluated.sorted())")
        XCTAssertFalse(evaluated.contains { $0.hasPrefix("member[1]/school") || $0.hasPrefix("member[2]/is_adult") || $0 == "names" },
                       "\(evaluated.sorted())")
    }

    /// A form of `size` rows at the top level and in a roster, its rules picked by a seeded
    /// generator: relevances and calculations reading answers before them, in the member and
    /// outside, totals over the roster, `indexed-repeat`, a group hiding part of the member.
    ///
    /// `topGroups`: the top level's second half in a group shown by an answer before it, its
    /// last rows in a group inside that one shown by an answer of the first.
    static func generatedForm(seed: UInt64, size: Int = 8, topGroups: Bool = false) -> String {
        var random = SplitMix(seed: seed)
        var rows = ["survey,,,,,,", ",type,name,label,calculation,relevant,constraint"]
        var top: [String] = [], member: [String] = []
        func pick(_ names: [String]) -> String? { names.isEmpty ? nil : names[random.next(below: names.count)] }
        for i in 0..<size {
            if topGroups, i == size / 2 { rows.append(",begin group,tg,Top group,,${t\(random.next(below: i))} != \(random.next(below: 4)),") }
            if topGroups, i == size - 2 { rows.append(",begin group,tg2,Inner group,,${t\(size / 2)} != \(random.next(below: 4)),") }
            let name = "t\(i)"
            let relevant = random.next(below: 3) == 0 ? pick(top).map { "${\($0)} != \(random.next(below: 4))" } ?? "" : ""
            // Constraints reading answers before, and the roster (judged, never settled).
            let constraint = [". <= ${\(pick(top) ?? "t0")} + 1", ". != sum(${a\(random.next(below: size))})", ""][random.next(below: 3)]
            rows.append(",integer,\(name),T \(i),,\(relevant),\(constraint)")
            top.append(name)
            if random.next(below: 2) == 0, let a = pick(top) {
                rows.append(",calculate,tc\(i),,\"coalesce(${\(a)}, 0) + \(random.next(below: 5))\",,")
                top.append("tc\(i)")
            }
        }
        if topGroups { rows += [",end group,,,,,", ",end group,,,,,"] }
        rows.append(",begin repeat,m,Member,,\(random.next(below: 3) == 0 ? "${t0} != 9" : ""),")
        for i in 0..<size {
            if i == size / 2 { rows.append(",begin group,g,Group,,${a0} != 1,") }
            let name = "a\(i)"
            let reads = member + (random.next(below: 3) == 0 ? top : [])
            let relevant = random.next(below: 3) == 0 ? pick(reads).map { "${\($0)} != \(random.next(below: 4))" } ?? "" : ""
            rows.append(",integer,\(name),A \(i),,\(relevant),")
            member.append(name)
            if random.next(below: 2) == 0, let a = pick(member), let b = pick(top) {
                rows.append(",calculate,ac\(i),,\"coalesce(${\(a)}, 0) * 2 + coalesce(${\(b)}, 0)\",,")
                member.append("ac\(i)")
            }
        }
        rows.append(",end group,,,,,")
        rows.append(",end repeat,,,,,")
        rows += [",calculate,total,,sum(${a1}),,", ",calculate,count,,count(${m}),,",
                 ",calculate,second,,\"indexed-repeat(${a0}, ${m}, 2)\",,", ",integer,after,After,,${total} > 3,. < ${count}"]
        return rows.joined(separator: "\n")
    }

    func testSettlingAnEditGivesWhatSettlingEveryRuleGives() throws {
        var checked = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            let q = try FormTestSupport.questionnaire(Self.generatedForm(seed: seed))
            var random = SplitMix(seed: seed * 7919)
            var values: [String: PropertyValue] = [:]
            for i in 0..<8 { values["t\(i)"] = .integer(random.next(below: 4)) }
            values["m"] = .array((0..<4).map { _ in
                .dictionary(Dictionary(uniqueKeysWithValues: (0..<8).map { ("a\($0)", PropertyValue.integer(random.next(below: 4))) }))
            })
            var hidden: [String: PropertyValue] = [:]
            var survey = q.settled(Record(values), hidden: &hidden, clock: clock)
            for edit in 0..<40 {
                let path = random.next(below: 3) == 0 ? AnswerPath(random.next(below: 2) == 0 ? "after" : "t\(random.next(below: 8))")
                    : AnswerPath([AnswerPath.Step(name: "m", index: random.next(below: 4))], "a\(random.next(below: 8))")
                let value: PropertyValue? = random.next(below: 5) == 0 ? nil : .integer(random.next(below: 4))
                var changed = survey
                XCTAssertTrue(changed.setValue(value, at: path))
                var incrementalHidden = hidden, fullHidden = hidden, keyedHidden = hidden
                let incremental = q.settled(changed, changedAt: path, before: survey, hidden: &incrementalHidden, clock: clock)
                let full = q.settled(changed, hidden: &fullHidden, clock: clock)
                // Keyed only where the question shows, as on the form: an answer typed into a
                // hidden one would be the respondent's word to the one and put aside by the other.
                if value != nil, full.value(at: path) == nil { continue }
                let context = "seed \(seed), edit \(edit): \(path) = \(String(describing: value))"
                XCTAssertEqual(incremental.values, full.values, context)
                XCTAssertEqual(incrementalHidden, fullHidden, context)
                let keyed = try XCTUnwrap(q.settled(survey, values: survey.values, setting: value, at: path, hidden: &keyedHidden, clock: clock))
                XCTAssertEqual(keyed.record, incremental, context)
                XCTAssertEqual(keyed.values, keyed.record.values, context)
                XCTAssertEqual(keyedHidden, incrementalHidden, context)
                checked += 1
                survey = incremental
                hidden = incrementalHidden
            }
        }
        XCTAssertGreaterThan(checked, 150, "most edits land on questions shown")
    }

    /// The top level judged again only where an edit reached is the top level judged whole,
    /// and its relevance evaluated again only where the edit reached is the relevance
    /// evaluated whole (`topLevelRelevance`, what the form's cache keeps after a commit).
    func testRejudgingWhereAnEditReachedIsJudgingTheWholeTopLevel() throws {
        var rejudged = 0, shownOrHidden = 0
        for (seed, groups) in (1...6).flatMap({ s in [(UInt64(s), false), (UInt64(s), true)] }) {
            let q = try FormTestSupport.questionnaire(Self.generatedForm(seed: seed, topGroups: groups))
            var random = SplitMix(seed: seed * 104_729)
            var values: [String: PropertyValue] = [:]
            for i in 0..<8 { values["t\(i)"] = .integer(random.next(below: 4)) }
            values["m"] = .array((0..<3).map { _ in
                .dictionary(Dictionary(uniqueKeysWithValues: (0..<8).map { ("a\($0)", PropertyValue.integer(random.next(below: 4))) }))
            })
            var hidden: [String: PropertyValue] = [:]
            var survey = q.settled(Record(values), hidden: &hidden, clock: clock).values
            var relevance = q.relevance(inValues: survey, clock: clock)
            var problems = q.problems(inValues: survey, clock: clock, members: [])
            for edit in 0..<40 {
                let path = random.next(below: 2) == 0 ? AnswerPath(random.next(below: 2) == 0 ? "after" : "t\(random.next(below: 8))")
                    : AnswerPath([AnswerPath.Step(name: "m", index: random.next(below: 3))], "a\(random.next(below: 8))")
                let value: PropertyValue? = random.next(below: 5) == 0 ? nil : .integer(random.next(below: 6))
                guard let settled = q.settled(Record(survey), values: survey, setting: value, at: path, hidden: &hidden, clock: clock) else {
                    return XCTFail("no member at \(path)")
                }
                let nowRelevance = q.relevance(inValues: settled.values, clock: clock)
                XCTAssertEqual(q.topLevelRelevance(inValues: settled.values, clock: clock, before: (survey, relevance)), nowRelevance,
                               "seed \(seed)\(groups ? " with groups" : ""), edit \(edit): \(path) = \(String(describing: value))")
                if nowRelevance != relevance { shownOrHidden += 1 }
                let judged = q.topLevelProblems(inValues: settled.values, relevance: nowRelevance, clock: clock,
                                                before: (survey, relevance, problems))
                let whole = q.problems(inValues: settled.values, clock: clock, members: [])
                XCTAssertEqual(judged.map { "\($0.index) \($0.path) \($0.message)" }, whole.map { "\($0.index) \($0.path) \($0.message)" },
                               "seed \(seed)\(groups ? " with groups" : ""), edit \(edit): \(path) = \(String(describing: value))")
                rejudged += whole.count
                (survey, relevance, problems) = (settled.values, nowRelevance, whole)
            }
        }
        XCTAssertGreaterThan(rejudged, 50, "edits that leave problems behind")
        XCTAssertGreaterThan(shownOrHidden, 15, "edits that show or hide rows")
    }

    func testTheKeyingPathRefusesAMissingMemberAndChangesNothing() throws {
        let q = try FormTestSupport.questionnaire(RosterRulesTests.form)
        var hidden: [String: PropertyValue] = ["x": .integer(1)]
        let survey = Record(["household_size": .integer(0)])
        XCTAssertNil(q.settled(survey, values: survey.values, setting: .integer(3), at: AnswerPath(RosterRulesTests.member(4), "age"),
                               hidden: &hidden, clock: clock))
        XCTAssertEqual(hidden, ["x": .integer(1)])
    }
}
