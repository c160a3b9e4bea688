import XCTest
import SurveyValues
import SurveyForms
import SurveyUITestSupport
@testable import SurveyUI

/// The form's own reducer (issue 29: a child reducer, as the list's): where the highlight
/// goes and what Esc and F5 do, decided from the form and what it reads of the app (its
/// stops, its geometry), and what it asks of the app as a value, with no `AppState` in sight.
final class FormReducerTests: XCTestCase {
    typealias Item = AppState.FormItem

    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_032_800), timeZone: .utc)

    /// Twenty one-line questions, `shown` those `relevant` shows now (a keyer stops on them).
    private func context(shown: Set<Int> = Set(0..<20), height: Int = 8) throws -> FormState.Context {
        let q = try questionnaire(csv: "survey,,\n,type,name,label\n" + (0..<20).map { ",text,q\($0),Question \($0)" }.joined(separator: "\n"))
        let walk = FormWalk.make(q, record: Record(), selection: [:], topRelevance: (0..<20).map(shown.contains), clock: clock)
        XCTAssertEqual(walk.count, 20)
        return .init(walk: { _ in walk },
                     geometry: { form in FormGeometry(form: Rect(x: 0, y: 0, width: 60, height: height), rows: (0..<20).map { .field(label: "Question \($0)", extraLine: false) }, scroll: form.formScroll) },
                     scrolls: true)
    }

    /// The roster form with Ana and Bo (`TwoMemberRoster`).
    private func rosterContext() throws -> (FormState.Context, FormWalk) {
        let roster = try TwoMemberRoster(clock: clock)
        return (roster.context, roster.walk)
    }

    private func form(at item: Item) -> FormState {
        var form = FormState(draft: Record(), showingDraft: true)
        form.highlight(item)
        return form
    }

    func testArrowsStopAtTheEndsAndTabWraps() throws {
        var form = form(at: .field(0))
        XCTAssertEqual(form.reduce(.moveHighlight(-1), in: try context()), .none)
        XCTAssertEqual(form.formItem, .field(0), "↑ on the first question stays")
        XCTAssertEqual(form.reduce(.cycleHighlight(-1), in: try context()), .none)
        XCTAssertEqual(form.formItem, .add, "Shift-Tab wraps round to [ Add ]")
        _ = form.reduce(.moveHighlight(1), in: try context())
        XCTAssertEqual(form.formItem, .add, "↓ on [ Add ] stays")
        _ = form.reduce(.cycleHighlight(1), in: try context())
        XCTAssertEqual(form.formItem, .field(0))
    }

    func testAHighlightOnAQuestionJustHiddenMovesFromWhereItWas() throws {
        // Question 3 was hidden by an answer: the stops skip it.
        let shown = try context(shown: [0, 2, 5, 7])
        var form = form(at: .field(3))
        _ = form.reduce(.moveHighlight(1), in: shown)
        XCTAssertEqual(form.formItem, .field(5))
        form.highlight(.field(3))
        _ = form.reduce(.moveHighlight(-1), in: shown)
        XCTAssertEqual(form.formItem, .field(2))
        form.highlight(.field(3))
        form.settleHighlight(in: shown)
        XCTAssertEqual(form.formItem, .field(5), "settled on the next stop")
        form.highlight(.field(9))
        form.settleHighlight(in: shown)
        XCTAssertEqual(form.formItem, .clear, "after the last question: the buttons")
    }

    func testHomeAndEndGoToTheFirstAndLastQuestionNotTheButtons() throws {
        var form = form(at: .field(5))
        _ = form.reduce(.jumpToEdge(last: true), in: try context(shown: [1, 5, 8]))
        XCTAssertEqual(form.formItem, .field(8))
        _ = form.reduce(.jumpToEdge(last: false), in: try context(shown: [1, 5, 8]))
        XCTAssertEqual(form.formItem, .field(1))
    }

    func testPageKeysMoveAScreenfulOfTheFormAsDrawn() throws {
        // Eight rows: a heading row and seven for the questions, a page being six of them.
        var form = form(at: .field(0))
        _ = form.reduce(.movePage(1), in: try context())
        XCTAssertEqual(form.formItem, .field(6))
        _ = form.reduce(.movePage(1), in: try context(height: 12))
        XCTAssertEqual(form.formItem, .field(16), "ten rows a page on a taller form")
        _ = form.reduce(.movePage(-1), in: try context())
        XCTAssertEqual(form.formItem, .field(10))
        form.highlight(.add)
        _ = form.reduce(.movePage(1), in: try context())
        XCTAssertEqual(form.formItem, .add, "at the end it stays")
    }

    func testGoingOnAfterAKeptAnswerAsksToTypeOnlyOnAQuestion() throws {
        var form = form(at: .field(18))
        XCTAssertEqual(form.reduce(.commitAndMove(1, wrap: false), in: try context()), .edit)
        XCTAssertEqual(form.formItem, .field(19))
        XCTAssertEqual(form.reduce(.commitAndMove(1, wrap: false), in: try context()), .none, "↓ onto [ Clear ]: nothing to type into")
        XCTAssertEqual(form.formItem, .clear)
        XCTAssertEqual(form.reduce(.commitAndMove(1, wrap: true), in: try context()), .none)
        XCTAssertEqual(form.reduce(.commitAndMove(1, wrap: true), in: try context()), .edit, "Tab wraps to the first question")
        XCTAssertEqual(form.formItem, .field(0))
    }

    func testHeadsDownEnterAfterTheLastQuestionRestsOnAdd() throws {
        var form = form(at: .field(18))
        XCTAssertEqual(form.reduce(.commitAndAdvance, in: try context()), .edit)
        XCTAssertEqual(form.reduce(.commitAndAdvance, in: try context()), .none)
        XCTAssertEqual(form.formItem, .add, "not [ Clear ], which would throw the survey away")
    }

    func testEscDropsTheTypingAndF5SaysWhatAddWillDo() throws {
        var form = form(at: .field(2))
        form.beginEditing(EditBuffer(entry: 2, text: "41"))
        XCTAssertEqual(form.reduce(.cancelEditing, in: try context()), .none)
        XCTAssertNil(form.editing)
        XCTAssertEqual(form.reduce(.toggleNextFormAfterAdd, in: try context()),
                       .tell("After Add on the New form: straight on to the next empty New form (F5 changes it)"))
        XCTAssertTrue(form.addStartsNextForm)
        XCTAssertEqual(form.reduce(.toggleNextFormAfterAdd, in: try context()),
                       .tell("After Add: the survey just added is shown (F5 changes it)"))
        XCTAssertFalse(form.addStartsNextForm)
    }

    func testPageKeysInARosterShowTheSameQuestionOfTheNextMember() throws {
        let (context, walk) = try rosterContext()
        let age = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "age" })
        var form = form(at: .field(age))
        XCTAssertEqual(form.reduce(.stepInstance(-1), in: context), .tell("Already at the first Household member"))
        XCTAssertEqual(form.reduce(.stepInstance(1), in: context), .none)
        XCTAssertEqual(form.instances, [FormWalk.RepeatHeading.selectionKey(parent: [], name: "member"): 1])
        let shown = context.walk(form.instances)
        XCTAssertEqual(form.formItem, .field(age))
        XCTAssertEqual(shown.path(age), AnswerPath([AnswerPath.Step(name: "member", index: 1)], "age"), "Bo's age")
        XCTAssertEqual(form.reduce(.stepInstance(1), in: context), .tell("Already at the last Household member: ^O adds another"))
        _ = form.reduce(.stepInstance(-1), in: context)
        XCTAssertEqual(form.formItem, .field(age))
        XCTAssertEqual(context.walk(form.instances).path(age), AnswerPath([AnswerPath.Step(name: "member", index: 0)], "age"))
        // Outside the roster the keys ask nothing and change nothing.
        let village = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "village" })
        form.highlight(.field(village))
        let before = form
        XCTAssertEqual(form.reduce(.stepInstance(1), in: context), .none)
        XCTAssertEqual(form, before)
    }

    func testALongFormScrollsToTheHighlightOnlyWhenItScrolls() throws {
        var form = form(at: .field(15))
        form.keepHighlightInView(in: try context())
        XCTAssertEqual(form.formScroll, 9, "question 15 on the last of the seven rows shown")
        form.highlight(.field(2))
        form.keepHighlightInView(in: try context())
        XCTAssertEqual(form.formScroll, 2)
        var fixed = try context()
        fixed.scrolls = false
        form.keepHighlightInView(in: fixed)
        XCTAssertEqual(form.formScroll, 0, "the original five fields never scroll")
    }

    func testAPathShowsTheMemberItIsInOrChangesNothing() throws {
        let (context, walk) = try rosterContext()
        var form = form(at: .field(0))
        XCTAssertFalse(form.highlightsMember(in: walk), "Village is no member's")
        let bo = [AnswerPath.Step(name: "member", index: 1)]
        XCTAssertTrue(form.highlight(problemAt: AnswerPath(bo, "age"), in: context))
        XCTAssertTrue(form.highlightsMember(in: context.walk(form.instances)))
        guard case .field(let row) = form.formItem else { return XCTFail("on a question") }
        XCTAssertEqual(context.walk(form.instances).path(row), AnswerPath(bo, "age"))
        let before = form
        XCTAssertFalse(form.highlight(problemAt: AnswerPath(bo, "no_such_question"), in: context))
        XCTAssertFalse(form.highlight(memberAt: [AnswerPath.Step(name: "no_such_roster", index: 0)], in: context))
        XCTAssertEqual(form, before)
        XCTAssertTrue(form.highlight(memberAt: [AnswerPath.Step(name: "member", index: 0)], in: context))
        XCTAssertEqual(form.formItem, walk.headingEntry(FormWalk.RepeatHeading.selectionKey(parent: [], name: "member")).map(Item.field))
        XCTAssertEqual(form.instances, [FormWalk.RepeatHeading.selectionKey(parent: [], name: "member"): 0])
    }

    func testEnterOnTheHighlightSaysWhatItOpensOrPresses() throws {
        let (roster, walk) = try rosterContext()
        let heading = try XCTUnwrap(walk.headingEntry(FormWalk.RepeatHeading.selectionKey(parent: [], name: "member")))
        var form = form(at: .field(heading))
        XCTAssertEqual(form.reduce(.activate, in: roster), .edit, "into the member shown, typing on")
        form.highlight(.field(0))
        XCTAssertEqual(form.reduce(.activate, in: roster), .beginEditing, "Village: typing starts")
        form.highlight(.clear)
        XCTAssertEqual(form.reduce(.activate, in: roster), .clear)
        form.highlight(.add)
        XCTAssertEqual(form.reduce(.activate, in: roster), .add)
        XCTAssertEqual(form.formItem, .add, "Enter moves nothing")
    }

    func testTheAppsKeysChangeNothingHere() throws {
        var form = form(at: .field(2))
        form.beginEditing(EditBuffer(entry: 2, text: "41"))
        let before = form
        for action: FormAction in [.beginEditing(inserting: "x"), .commitField, .nextLanguage,
                                   .addInstance, .requestInstanceDelete, .answerRoster(true), .nextProblem, .clearAnswer,
                                   .previousRecord, .nextRecord] {
            XCTAssertEqual(form.reduce(action, in: try context()), .none, "\(action)")
        }
        XCTAssertEqual(form, before)
    }
}
