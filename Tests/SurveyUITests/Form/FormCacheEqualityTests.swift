import XCTest
import SurveyValues
@testable import SurveyForms
import SurveyStorage
import SurveyTestSupport
import SurveyUITestSupport
@testable import SurveyUI

/// What the form's cache keeps from one key to the next (`FormRuleCache`: the relevance
/// evaluated again only where a commit reached, the top level's problems judged again only
/// there, the rows and their layout) is what working everything out afresh gives: commits,
/// PgDn and → at random on generated forms with groups and a roster, each frame drawn as kept
/// and drawn again by a state with an empty cache.
final class FormCacheEqualityTests: XCTestCase {
    /// Eight top-level integers (the second half in a group, its last two in a group inside
    /// it), calculations, a roster of members whose rows read their own and the top level's
    /// answers, and totals after it; relevants and constraints picked at random.
    private func form(seed: UInt64) -> String {
        var random = SplitMix(seed: seed)
        var rows = ["survey,,,,,,", ",type,name,label,calculation,relevant,constraint"]
        var top: [String] = []
        func pick(_ names: [String]) -> String { names[random.next(below: names.count)] }
        for i in 0..<8 {
            if i == 4 { rows.append(",begin group,tg,Top group,,${t\(random.next(below: 4))} != \(random.next(below: 4)),") }
            if i == 6 { rows.append(",begin group,tg2,Inner group,,${t4} != \(random.next(below: 4)),") }
            let relevant = i > 0 && random.next(below: 2) == 0 ? "${\(pick(top))} != \(random.next(below: 4))" : ""
            let constraint = i > 0 && random.next(below: 2) == 0 ? ". <= ${\(pick(top))} + 2" : ""
            rows.append(",integer,t\(i),T \(i),,\(relevant),\(constraint)")
            top.append("t\(i)")
            if random.next(below: 3) == 0 {
                rows.append(",calculate,tc\(i),,\"coalesce(${t\(i)}, 0) + 1\",,")
                top.append("tc\(i)")
            }
        }
        rows += [",end group,,,,,", ",end group,,,,,", ",begin repeat,m,Member,,,"]
        var member: [String] = []
        for i in 0..<5 {
            let reads = member + (random.next(below: 2) == 0 ? ["t\(random.next(below: 8))"] : [])
            let relevant = !reads.isEmpty && random.next(below: 2) == 0 ? "${\(pick(reads))} != \(random.next(below: 4))" : ""
            let constraint = random.next(below: 2) == 0 ? ". <= ${t\(random.next(below: 8))} + 2" : ""
            rows.append(",integer,a\(i),A \(i),,\(relevant),\(constraint)")
            member.append("a\(i)")
        }
        rows += [",end repeat,,,,,", ",calculate,total,,sum(${a1}),,", ",integer,after,After,,${total} > 3,. < count(${m})"]
        return rows.joined(separator: "\n")
    }

    private func survey(_ random: inout SplitMix) -> Record {
        var values: [String: PropertyValue] = [:]
        for i in 0..<8 { values["t\(i)"] = .integer(random.next(below: 4)) }
        values["m"] = .array((0..<3).map { _ in
            .dictionary(Dictionary(uniqueKeysWithValues: (0..<5).map { ("a\($0)", PropertyValue.integer(random.next(below: 4))) }))
        })
        values["after"] = .integer(random.next(below: 3))
        return Record(values)
    }

    func testWhatTheCacheKeepsIsWhatWorkingItOutAfreshGives() throws {
        var commits = 0, shownOrHidden = 0, withProblems = 0
        for seed in 1...8 as ClosedRange<UInt64> {
            let result = XLSForm.read(try XLSFormSheets.csv(form(seed: seed)))
            let questionnaire = try XCTUnwrap(result.form.map { Questionnaire(form: $0) }, "\(result.errors)")
            var random = SplitMix(seed: seed &* 7919)
            let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_032_800), timeZone: .utc)
            var hidden: [String: PropertyValue] = [:]
            let records = (0..<3).map { _ in questionnaire.settled(survey(&random), hidden: &hidden, clock: clock) }
            var s = AppState(documentName: "Generated", loaded: .success(SurveyDocument(records: records)),
                             size: Size(width: 100, height: 80), questionnaire: questionnaire, environment: .forTests)
            s.environment.timeZone = .utc
            s.environment.clock = .pinned(clock.now)
            s.press(.enter)                                   // the first survey on the form
            for step in 0..<40 {
                let note = "seed \(seed), step \(step)"
                let before = s.caches.ruleCache.relevance(questionnaire, s.formRecord, s.ruleClock)
                switch random.next(below: 8) {
                case 0: s.press(.right)
                case 1:
                    if let heading = s.outline.indices.first(where: { s.outline.heading($0) != nil }) {
                        s.form.highlight(.field(heading))
                        s.press(.pageDown)
                    }
                default:
                    // A digit keyed into a question shown, as a clerk would.
                    let outline = s.outline
                    let questions = outline.indices.filter { outline.isShown($0) && outline.field($0).kind.isAnswered }
                    guard !questions.isEmpty else { continue }
                    s.form.highlight(.field(questions[random.next(below: questions.count)]))
                    s.press(.enter, .backspace, .backspace)
                    s.type(String(random.next(below: 5)))
                    s.press(.enter)
                    // After a member's last question: "Add another …? y/n", no.
                    if s.inputMode == .confirmingRoster { s.type("n") }
                    if s.editing != nil { s.press(.escape) }
                    commits += 1
                }
                let relevance = s.caches.ruleCache.relevance(questionnaire, s.formRecord, s.ruleClock)
                XCTAssertEqual(relevance, questionnaire.relevance(in: s.formRecord, clock: s.ruleClock), note)
                if relevance != before { shownOrHidden += 1 }
                var fresh = s
                fresh.caches = ViewCaches()
                XCTAssertEqual(s.shownForm.storedAnswerProblems, fresh.shownForm.storedAnswerProblems, note)
                if !s.shownForm.storedAnswerProblems.isEmpty { withProblems += 1 }
                XCTAssertEqual(Screen.render(s).lines, Screen.render(fresh).lines, note)
            }
        }
        XCTAssertGreaterThan(commits, 150)
        XCTAssertGreaterThan(shownOrHidden, 20, "steps that show or hide rows")
        XCTAssertGreaterThan(withProblems, 20, "steps with stored answers the form finds wrong")
    }
}
