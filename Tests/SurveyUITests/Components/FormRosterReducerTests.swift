import XCTest
import SurveyValues
import SurveyForms
import SurveyUITestSupport
@testable import SurveyUI

/// Heads-down through rosters, the form's own (issue 29: `FormState+Roster`, beside the form's
/// reducer): where Enter goes at the end of a member and on arriving at a roster, `n`'s way on
/// past it, Enter on its heading, and what each asks of the app (type on, ask y/n, add a first
/// member, take out a member added by hand and left empty), with no `AppState` in sight.
final class FormRosterReducerTests: XCTestCase {
    typealias Item = AppState.FormItem

    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_032_800), timeZone: .utc)
    private let key = FormWalk.RepeatHeading.selectionKey(parent: [], name: "member")

    /// The roster form (`Examples/roster.csv`: village, `member` (name, age, school under 18),
    /// a count, a note, notes) for a survey with these members.
    private func context(_ members: [[String: PropertyValue]], holdsAnswers: Bool = true) throws -> FormState.Context {
        let q = try rosterQuestionnaire()
        let record = Record(["village": .string("Kibera"), "member": .array(members.map { .dictionary($0) })])
        let cache = FormRuleCache()
        return FormState.Context(walk: { cache.outline(q, record, self.clock, selection: $0) },
                                 geometry: { _ in FormGeometry(form: Rect(x: 0, y: 0, width: 60, height: 30), labels: []) },
                                 scrolls: true, shown: .draft, survey: "New", memberHoldsAnswers: { _ in holdsAnswers })
    }

    private let ana: [String: PropertyValue] = ["name": .string("Ana"), "age": .integer(34)]
    private let bo: [String: PropertyValue] = ["name": .string("Bo"), "age": .integer(42)]

    /// The entry of the question `name` in the walk as the form shows it now.
    private func entry(_ name: String, _ form: FormState, _ context: FormState.Context) throws -> EntryNumber {
        let walk = context.walk(form.instances)
        return try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == name }, name)
    }

    private func heading(_ context: FormState.Context) throws -> EntryNumber {
        try XCTUnwrap(context.walk([:]).headingEntry(key))
    }

    private func form(at item: Item, member: Int = 0) -> FormState {
        var form = FormState(draft: Record(), showingDraft: true)
        form.showInstance(member, of: key)
        form.highlight(item)
        return form
    }

    func testTheEndOfAMemberBeforeTheLastGoesOnToTheNextMembersFirstQuestion() throws {
        let context = try context([ana, bo])
        var form = form(at: .field(0), member: 0)
        form.highlight(.field(try entry("age", form, context)))   // Ana's age, 34: no school question
        XCTAssertEqual(form.reduce(.commitAndAdvance, in: context), .edit)
        XCTAssertEqual(form.instances[key], 1, "Bo shown")
        XCTAssertEqual(form.formItem, .field(try entry("name", form, context)))
    }

    func testTheEndOfTheLastMemberAsksForAnotherOnTheHeading() throws {
        let context = try context([ana, bo])
        var form = form(at: .field(0), member: 1)
        form.highlight(.field(try entry("age", form, context)))
        XCTAssertEqual(form.reduce(.commitAndAdvance, in: context), .ask("Add another Household member? y/n"))
        XCTAssertEqual(form.formItem, .field(try heading(context)))
        XCTAssertEqual(form.rosterQuestion, .addAnother(key, label: "Household member", survey: "New"))
    }

    func testArrivingAtARosterGoesIntoItsFirstMemberOrAsksForOne() throws {
        var form = form(at: .field(0))   // Village
        let two = try context([ana, bo])
        XCTAssertEqual(form.reduce(.commitAndAdvance, in: two), .edit)
        XCTAssertEqual(form.formItem, .field(try entry("name", form, two)), "Ana's name")
        XCTAssertEqual(form.instances[key], 0)

        let none = try context([])
        form = self.form(at: .field(0))
        XCTAssertEqual(form.reduce(.commitAndAdvance, in: none), .ask("Add a Household member? y/n"))
        XCTAssertEqual(form.formItem, .field(try heading(none)))
    }

    /// The New form with Ana and a second member added by hand (^O, `y`), still empty, and a
    /// context that says so.
    private func formWithEmptySecondMember() throws -> (FormState, UnsavedMember, FormState.Context) {
        let steps = [AnswerPath.Step(name: "member", index: 1)]
        let member = UnsavedMember(survey: .draft, steps: steps, before: Record(), added: Record(), label: "Household member")
        var form = form(at: .field(0), member: 1)
        form.keepUnsavedMember(member)
        return (form, member, try context([ana, [:]], holdsAnswers: false))
    }

    func testAMemberAddedByHandAndLeftEmptyIsTakenOutInsteadOfAskingForAnother() throws {
        let (start, member, empty) = try formWithEmptySecondMember()
        var form = start
        let steps = member.steps
        form.highlight(.field(try entry("age", form, empty)))
        XCTAssertEqual(form.reduce(.commitAndAdvance, in: empty), .leaveRoster(member))
        XCTAssertNil(form.rosterQuestion, "nothing asked")
        XCTAssertEqual(form.emptyMember(at: steps, in: try context([ana, [:]], holdsAnswers: true)), nil,
                       "once it holds an answer it is an ordinary member")
    }

    func testEnterOnNothingTypedInTheEmptyMemberLeavesIt() throws {
        let (start, member, empty) = try formWithEmptySecondMember()
        var form = start
        let name = try entry("name", form, empty)
        form.beginEditing(EditBuffer(entry: name, text: "  ", original: ""))
        XCTAssertEqual(form.leavingEmptyMember(in: empty), .leaveRoster(member))
        form.beginEditing(EditBuffer(entry: name, text: "Bo", original: ""))
        XCTAssertNil(form.leavingEmptyMember(in: empty), "something typed: it is kept as an answer")
        form.beginEditing(EditBuffer(entry: try entry("village", form, empty), text: "", original: ""))
        XCTAssertNil(form.leavingEmptyMember(in: empty), "typing outside the member")
    }

    func testATreeRowHighlightsItsQuestionOrMemberOnTheForm() throws {
        let q = try rosterQuestionnaire()
        let record = Record(["village": .string("Kibera"), "member": .array([.dictionary(ana), .dictionary(bo)])])
        let tree = InterviewTree(rows: InterviewTree.rows(of: record, in: q, clock: clock, problems: []))
        let context = try context([ana, bo])
        var form = form(at: .field(0), member: 0)
        let bosRow = try XCTUnwrap(tree.rows.first { $0.kind == .member && $0.steps == [AnswerPath.Step(name: "member", index: 1)] })
        XCTAssertTrue(form.highlight(bosRow, of: tree, in: context))
        XCTAssertEqual(form.instances[key], 1, "Bo's member shown")
        XCTAssertEqual(form.formItem, .field(try heading(context)))
        let village = try XCTUnwrap(tree.rows.first { $0.kind == .question && $0.name == "village" })
        XCTAssertTrue(form.highlight(village, of: tree, in: context))
        XCTAssertEqual(form.formItem, .field(try entry("village", form, context)))
    }

    func testTheTreeRowOfTheHighlightAndAStoredSurveysProblemsByEntry() throws {
        let q = try rosterQuestionnaire()
        let record = Record(["village": .string("Kibera"), "member": .array([.dictionary(ana), .dictionary(["name": .string("Old"), "age": .integer(200)])])])
        let cache = FormRuleCache()
        let walk = cache.outline(q, record, clock, selection: [key: 1])
        let rows = InterviewTree.rows(of: record, in: q, clock: clock, problems: [])
        let village = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "village" })
        let age = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "age" })
        let heading = try XCTUnwrap(walk.headingEntry(key))
        XCTAssertEqual(InterviewTree.row(of: .field(village), in: walk, among: rows), rows.firstIndex { $0.name == "village" })
        XCTAssertEqual(InterviewTree.row(of: .field(heading), in: walk, among: rows),
                       rows.firstIndex { $0.kind == .member && $0.steps == [AnswerPath.Step(name: "member", index: 1)] },
                       "a heading: the member it shows")
        XCTAssertEqual(InterviewTree.row(of: .add, in: walk, among: rows), rows.count, "the buttons come after every row")
        XCTAssertEqual(cache.storedAnswerProblems(q, record, clock, in: walk), [age: "Ages are 0 to 120"],
                       "the member shown's problem under its own question, without its path")
    }

    func testNoGoesOnPastTheRosterToTheNextQuestion() throws {
        let context = try context([ana, bo])
        var form = form(at: .field(try heading(context)))
        XCTAssertEqual(form.goOnPastRoster(try heading(context), in: context), .edit)
        XCTAssertEqual(form.formItem, .field(try entry("notes", form, context)), "the count and the note are not stops")
    }

    func testEnterOnAHeadingGoesIntoTheMemberShownOrAsksTheAppToAddAFirstOne() throws {
        let two = try context([ana, bo])
        var form = form(at: .field(try heading(two)), member: 1)
        XCTAssertEqual(form.reduce(.activate, in: two), .edit)
        XCTAssertEqual(form.formItem, .field(try entry("name", form, two)))
        XCTAssertEqual(two.walk(form.instances).path(try entry("name", form, two)),
                       AnswerPath([AnswerPath.Step(name: "member", index: 1)], "name"), "Bo's name")

        let none = try context([])
        form = self.form(at: .field(try heading(none)))
        XCTAssertEqual(form.reduce(.activate, in: none), .addMember(try heading(none)))
        XCTAssertEqual(form.formItem, .field(try heading(none)), "the app adds it, then goes into it")
    }
}
