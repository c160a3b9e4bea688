import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30: Ctrl-G shows the interview as a tree (every roster and member with its answers,
/// problems marked), narrows as one types, and Enter goes to the row's question with its
/// member shown; at 120x40, 60x20 and collapsed 40x12.
final class InterviewTreeTests: XCTestCase {
    private let biomass = """
    survey,,,,,
    ,type,name,label,repeat_count,constraint
    ,text,plot,Plot,,
    ,begin group,site,Site details,,
    ,text,slope,Slope,,
    ,end group,,,,
    ,begin repeat,tree,Tree,,
    ,integer,tag,Tag,,
    ,integer,stem_count,Stems,,
    ,begin repeat,stem,Stems of tree ${tag},${stem_count},
    ,integer,cbh,Circumference,,. < 500
    ,end repeat,,,,
    ,end repeat,,,,
    ,text,done,Done,,
    """

    private func state(width: Int = 120, height: Int = 40) throws -> AppState {
        try formState(csv: biomass, width: width, height: height)
    }

    /// Plot P1 on a steep slope; tree 101 with one stem, tree 102 with two, the second's
    /// circumference stored broken (as an older form's survey could hold it).
    private func keyed(width: Int = 120, height: Int = 40) throws -> AppState {
        var s = try state(width: width, height: height)
        s.press(.enter); s.type("P1"); s.press(.enter); s.type("steep"); s.press(.enter)
        s.press(.character("y"))
        s.type("101"); s.press(.enter); s.type("1"); s.press(.enter); s.type("30"); s.press(.enter)
        s.press(.character("y"))
        s.type("102"); s.press(.enter); s.type("2"); s.press(.enter); s.type("40"); s.press(.enter)
        s.type("41"); s.press(.enter)
        s.press(.character("n"))
        var record = s.formRecord
        record.setValue(.integer(900), at: AnswerPath([AnswerPath.Step(name: "tree", index: 1), AnswerPath.Step(name: "stem", index: 1)], "cbh"))
        s.form.setDraft(record)
        s.press(.escape)
        return s
    }

    private func highlighted(_ s: AppState) -> String? {
        guard case .field(let i) = s.formItem else { return nil }
        return s.outline.path(i).description
    }

    func testTheTreeListsEveryMemberWithItsAnswersAndProblems() throws {
        var s = try keyed()
        s.press(.control("g"))
        XCTAssertEqual(s.inputMode, .goingTo)
        guard case .tree(let tree) = s.popover else { return XCTFail("no tree") }
        let lines = tree.rows.map { row in
            String(repeating: "  ", count: row.depth) + (row.problem == nil ? "" : "⚠ ") + row.label + (row.answer.isEmpty ? "" : " = " + row.answer)
        }
        XCTAssertEqual(lines, [
            "Plot = P1",
            "Site details",
            "  Slope = steep",
            "⚠ Tree = 2",
            "  1 of 2 = 101",
            "    Tag = 101",
            "    Stems = 1",
            "    Stems of tree 101 = 1",
            "      1 of 1 = 30",
            "        Circumference = 30",
            "  ⚠ 2 of 2 = 102",
            "    Tag = 102",
            "    Stems = 2",
            "    ⚠ Stems of tree 102 = 2",
            "      1 of 2 = 40",
            "        Circumference = 40",
            "      ⚠ 2 of 2 = 900",
            "        ⚠ Circumference = 900",
            "Done = —",
        ])
        let screen = s.screenText
        XCTAssertTrue(screen.contains("Go to · 1 problem"), screen)
        XCTAssertTrue(screen.contains("⚠"), screen)
    }

    /// Typing narrows to what matches with the members around it; Enter goes there, the
    /// member shown; Tab shows the problems alone.
    func testNarrowAndGoThereInANestedMember() throws {
        var s = try keyed()
        s.press(.home)
        s.press(.control("g"))
        s.type("circ")
        guard case .tree(let narrowed) = s.popover else { return XCTFail("no tree") }
        XCTAssertEqual(narrowed.visible.map { narrowed[$0].label }.filter { $0 == "Circumference" }.count, 3)
        XCTAssertTrue(narrowed.visible.map { narrowed[$0].label }.contains("2 of 2"), "the member around a match shows")
        XCTAssertFalse(narrowed.visible.map { narrowed[$0].label }.contains("Plot"))
        XCTAssertEqual(narrowed.highlightedRow?.answer, "30", "the first match highlighted")
        s.press(.end)                                     // the last: the broken one
        s.press(.enter)
        XCTAssertNil(s.popover)
        XCTAssertEqual(highlighted(s), "tree[2]/stem[2]/cbh")
        XCTAssertTrue(s.screenText.contains("Tree › 2 of 2 (“102”) › Stems of tree 102 › 2 of 2"), s.screenText)

        s.press(.control("g"), .tab)
        guard case .tree(let problems) = s.popover else { return XCTFail("no tree") }
        XCTAssertEqual(problems.highlightedRow?.label, "Circumference")
        XCTAssertEqual(problems.highlightedRow?.steps.count, 2)
        s.press(.escape)
        XCTAssertNil(s.popover)
        XCTAssertEqual(highlighted(s), "tree[2]/stem[2]/cbh", "Esc leaves the form where it was")
    }

    /// The tree opens at every size, collapsed too, its highlighted row in view.
    func testItOpensAtEverySizeWithTheHighlightInView() throws {
        for (width, height) in [(120, 40), (60, 20), (40, 12)] {
            var s = try keyed(width: width, height: height)
            s.press(.end)                                 // Done, the last question
            s.press(.control("g"))
            let screen = s.screenText
            XCTAssertEqual(s.inputMode, .goingTo, "\(width)x\(height)")
            XCTAssertTrue(screen.contains("Done"), "\(width)x\(height)\n" + screen)
            s.press(.home, .enter)
            XCTAssertEqual(highlighted(s), "plot", "\(width)x\(height)")
        }
    }
}

/// Issue 30: reopening returns to the survey, member, question and form language left.
final class ReopenPlaceTests: XCTestCase {
    func testTheMemberQuestionAndLanguageComeBack() throws {
        let member = { (name: String, age: Int) -> PropertyValue in .dictionary(["name": .string(name), "age": .integer(age)]) }
        let survey = Record(["instanceID": .string("uuid:aaaaaaaa-0000-4000-8000-000000000001"), "village": .string("Kibera"),
                             "member": .array([member("Ana", 34), member("Bo", 40), member("Cy", 12)])])
        var s = try rosterState([survey])
        s.showRecord(0)
        XCTAssertTrue(s.form.highlight(problemAt: AnswerPath([AnswerPath.Step(name: "member", index: 1)], "age"), in: s.formContext))
        let place = s.place
        XCTAssertEqual(place.question, "member[2]/age")

        var again = try rosterState([survey])
        again.restorePlace(place)
        XCTAssertEqual(again.shown, .record(0))
        guard case .field(let i) = again.formItem else { return XCTFail("no question highlighted") }
        XCTAssertEqual(again.outline.path(i).description, "member[2]/age", "the same member's same question")
        XCTAssertTrue(again.screenText.contains("2 of 3"), again.screenText)

        // A language the form has comes back; one it has not (an older form's) is left.
        let household = try householdState([Record(["instanceID": .string("uuid:bbbbbbbb-0000-4000-8000-000000000002"),
                                                    "fname": .string("Ana")])])
        let french = try XCTUnwrap(household.questionnaire.form?.languages.first { $0.contains("fr") })
        var restored = household
        restored.restorePlace(SessionPlace(record: 0, recordID: "uuid:bbbbbbbb-0000-4000-8000-000000000002", language: french))
        XCTAssertEqual(restored.questionnaire.language, french)
        XCTAssertTrue(restored.screenText.contains("Prénom"), restored.screenText)
        var unknown = household
        unknown.restorePlace(SessionPlace(record: 0, language: "Klingon (tlh)"))
        XCTAssertNotEqual(unknown.questionnaire.language, "Klingon (tlh)")
    }
}
