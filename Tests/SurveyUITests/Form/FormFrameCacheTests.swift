import XCTest
import SurveyValues
@testable import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Keys on a designer's form cost what changed (issue 20): the rows, what is wrong with the
/// stored answers and their layout are made once per record (`FormRuleCache`), not at every
/// key and frame, and a commit hands the cache the answers it settled. What is drawn from
/// the cache is what laying the form out afresh draws.
final class FormFrameCacheTests: XCTestCase {
    private func household(_ i: Int) -> Record {
        Record(["village": .string("Kibera \(i)"),
                "member": .array([.dictionary(["name": .string("Ana"), "age": .integer(34)]),
                                  .dictionary(["name": .string("Bo"), "age": .integer(12), "school": .string("yes")])])])
    }

    /// The frame as drawn, and the form pane drawn again with its rows laid out anew.
    private func assertFrameIsLaidOutAfresh(_ s: AppState, _ note: String, file: StaticString = #filePath, line: UInt = #line) {
        let drawn = Screen.render(s)
        var fresh = drawn
        var pane = FormPane.make(from: s)
        pane.laidOut = nil
        fresh.fill(s.layout.form, style: .plain)
        pane.draw(into: &fresh, in: s.layout.form)
        XCTAssertEqual(drawn.lines, fresh.lines, note, file: file, line: line)
    }

    func testMovingTheHighlightLaysTheRowsOutOnce() throws {
        var s = try rosterState([household(0), household(1)])
        s.press(.enter)                               // the first survey on the form
        _ = Screen.render(s)
        let (rows, layouts) = (s.caches.ruleCache.rowsMade, s.caches.ruleCache.layoutsMade)
        XCTAssertGreaterThan(layouts, 0)
        for _ in 0..<4 {
            s.press(.down)
            _ = Screen.render(s)
        }
        XCTAssertEqual(s.caches.ruleCache.rowsMade, rows, "↓ moves the highlight: the rows are the same")
        XCTAssertEqual(s.caches.ruleCache.layoutsMade, layouts)
        s.press(.right)                               // another survey: its rows
        _ = Screen.render(s)
        XCTAssertEqual(s.caches.ruleCache.layoutsMade, layouts + 1)
    }

    func testFramesDrawnFromTheCacheAreTheFormLaidOutAfresh() throws {
        var s = try rosterState([household(0)])
        s.press(.enter)
        assertFrameIsLaidOutAfresh(s, "the survey")
        s.press(.down)
        assertFrameIsLaidOutAfresh(s, "member 1")
        s.press(.pageDown)
        assertFrameIsLaidOutAfresh(s, "member 2, asked about school")
        // Bo's age keyed to 30: school is no longer asked, its row goes.
        s.press(.down, .down, .enter, .backspace, .backspace)
        s.type("30")
        s.press(.enter)
        XCTAssertEqual(s.formRecord.value(at: AnswerPath([AnswerPath.Step(name: "member", index: 1)], "age")), .integer(30))
        XCTAssertNil(s.formRecord.value(at: AnswerPath([AnswerPath.Step(name: "member", index: 1)], "school")))
        assertFrameIsLaidOutAfresh(s, "after the commit that hid school")
        s.press(.escape)
        _ = update(&s, .system(.resized(Size(width: 70, height: 20))))
        assertFrameIsLaidOutAfresh(s, "narrower")
    }

    func testACommitHandsTheCacheTheAnswersItSettled() throws {
        var s = try rosterState([household(0)])
        s.press(.enter, .down, .enter, .backspace)
        s.type("n")
        s.press(.enter)
        XCTAssertEqual(s.formRecord.value(at: AnswerPath([AnswerPath.Step(name: "member", index: 0)], "name")), .string("Ann"))
        XCTAssertEqual(s.caches.ruleCache.values(s.questionnaire, s.formRecord, s.ruleClock), s.formRecord.values)
    }
}

extension FormFrameCacheTests {
    /// The problems shown are what judging the survey and its members shown whole gives,
    /// though the top level is judged once and each roster once per member shown.
    func testProblemsJudgedPartByPartAreTheSurveysProblems() throws {
        let questionnaire = try rosterQuestionnaire()
        let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_032_800), timeZone: .utc)
        let record = Record(["member": .array([.dictionary(["name": .string("Ana"), "age": .integer(340)]),
                                               .dictionary(["age": .integer(12), "school": .string("maybe")]),
                                               .dictionary(["name": .string("Cy"), "age": .integer(-1)])])])
        let cache = FormRuleCache()
        let member = { (i: Int) in [AnswerPath.Step(name: "member", index: i)] }
        for shown in [[member(0)], [member(1)], [member(2)], [member(1)], [], [member(0), member(2)]] as [[[AnswerPath.Step]]] {
            let judged = cache.problems(questionnaire, record, clock, members: Set(shown))
            let whole = questionnaire.problems(inValues: record.values, clock: clock, members: Set(shown))
            XCTAssertEqual(judged.map { "\($0.index) \($0.path) \($0.message)" }, whole.map { "\($0.index) \($0.path) \($0.message)" },
                           "\(shown)")
            XCTAssertFalse(whole.isEmpty)
        }
    }
}
