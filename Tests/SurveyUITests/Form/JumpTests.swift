import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30, "jumps": Home/End, a screenful with PgUp/PgDn, F8 to the next problem across
/// members, and [ Add ]'s refusal landing on the question at fault on a form with rosters.
final class JumpTests: XCTestCase {
    private func state(_ csv: String, width: Int = 100, height: Int = 40) throws -> AppState {
        try formState(csv: csv, width: width, height: height)
    }

    private let plots = """
    survey,,,,,
    ,type,name,label,required,constraint
    ,text,site,Site,,
    ,begin repeat,plot,Plot,,
    ,text,plot_id,Plot id,,
    ,integer,trees,Trees,,. < 500
    ,end repeat,,,,
    ,text,done,Done,yes,
    """

    private func highlighted(_ s: AppState) -> String? {
        guard case .field(let i) = s.formItem else { return nil }
        return s.outline.path(i).description
    }

    /// Site, then two plots (the second's trees broken), then Esc on the way out.
    private func keyed() throws -> AppState {
        var s = try state(plots)
        s.press(.enter); s.type("North"); s.press(.enter)
        s.press(.character("y")); s.type("P1"); s.press(.enter); s.type("12"); s.press(.enter)
        s.press(.character("y")); s.type("P2"); s.press(.enter)
        s.type("900"); s.press(.enter)                    // refused by the constraint: stays
        s.press(.escape)
        return s
    }

    /// The refusal names "Done" and the highlight is on Done, not on the row with Done's
    /// top-level number (it landed on the first plot's id).
    func testAddsRefusalHighlightsTheQuestionAtFaultPastARoster() throws {
        var s = try state(plots)
        s.press(.enter); s.type("North"); s.press(.enter)
        s.press(.character("y")); s.type("P1"); s.press(.enter); s.type("12"); s.press(.enter)
        s.press(.character("n"))
        s.press(.escape)
        s.form.highlight(.add)
        s.press(.enter)
        XCTAssertEqual(s.statusText, "Not added: Done is required")
        XCTAssertEqual(highlighted(s), "done")
    }

    func testF8GoesFromProblemToProblemAcrossMembers() throws {
        var s = try keyed()
        s.press(.home)
        XCTAssertEqual(highlighted(s), "site")
        s.press(.function(8))
        XCTAssertEqual(highlighted(s), "done")
        XCTAssertEqual(s.statusText, "Problem 1 of 1: Done is required")
        // The second plot's trees were refused as typed, so nothing broken is stored there:
        // store one that breaks the rule, as an older form's survey could hold.
        var record = s.formRecord
        record.setValue(.integer(900), at: AnswerPath([AnswerPath.Step(name: "plot", index: 1)], "trees"))
        s.form.setDraft(record)
        s.press(.home)
        s.press(.pageUp)                                  // already first: stays
        XCTAssertEqual(highlighted(s), "site")
        s.form.showInstance(0, of: "plot")
        s.press(.function(8))
        XCTAssertEqual(highlighted(s), "plot[2]/trees", "the member it is in is shown")
        XCTAssertEqual(s.outline.heading(try XCTUnwrap(s.outline.headingEntry("plot")))?.shown, 1)
        XCTAssertTrue(s.statusText?.hasPrefix("Problem 1 of 2: plot[2]/trees") ?? false, s.statusText ?? "")
        XCTAssertTrue(s.screenText.contains("2 of 2"), s.screenText)
        s.press(.function(8))
        XCTAssertEqual(highlighted(s), "done")
        s.press(.function(8))
        XCTAssertEqual(highlighted(s), "plot[2]/trees", "round again")
    }

    /// From a member's question that is fine, F8 goes on to the next member's problem, not
    /// back to the first member's; a jump that finds no row leaves the members shown alone.
    func testF8InsideARosterGoesForwardAndAFailedJumpChangesNothing() throws {
        var s = try keyed()
        var record = s.formRecord
        record.setValue(.integer(900), at: AnswerPath([AnswerPath.Step(name: "plot", index: 0)], "trees"))
        record.setValue(.integer(800), at: AnswerPath([AnswerPath.Step(name: "plot", index: 1)], "trees"))
        record["done"] = .string("yes")
        s.form.setDraft(record)
        XCTAssertTrue(s.form.highlight(problemAt: AnswerPath([AnswerPath.Step(name: "plot", index: 1)], "plot_id"), in: s.formContext))
        s.press(.function(8))
        XCTAssertEqual(highlighted(s), "plot[2]/trees")
        XCTAssertEqual(s.statusText?.hasPrefix("Problem 2 of 2"), true, s.statusText ?? "")
        s.press(.function(8))
        XCTAssertEqual(highlighted(s), "plot[1]/trees", "round again")

        let before = s.form.instances
        let item = s.formItem
        XCTAssertFalse(s.form.highlight(problemAt: AnswerPath([AnswerPath.Step(name: "plot", index: 1)], "no_such_question"), in: s.formContext))
        XCTAssertEqual(s.form.instances, before)
        XCTAssertEqual(s.formItem, item)
    }

    func testF8SaysSoWhenNothingIsWrong() throws {
        var s = try state(plots)
        s.press(.enter); s.type("North"); s.press(.enter)
        s.press(.character("n"))
        s.type("yes"); s.press(.enter)
        s.press(.function(8))
        XCTAssertEqual(s.statusText, "No problem: every answer here passes the form's rules")
    }

    /// Home/End: the first and last question; PgUp/PgDn a screenful at a time on a form
    /// longer than the screen, never past the ends.
    func testHomeEndAndPagesOnALongForm() throws {
        let rows = (1...40).map { ",text,q\($0),Question \($0)" }.joined(separator: "\n")
        var s = try state("survey,,,\n,type,name,label\n" + rows, width: 80, height: 16)
        s.press(.end)
        XCTAssertEqual(highlighted(s), "q40")
        XCTAssertTrue(s.screenText.contains("Question 40"))
        s.press(.home)
        XCTAssertEqual(highlighted(s), "q1")
        s.press(.pageDown)
        let firstPage = try XCTUnwrap(highlighted(s))
        let n = try XCTUnwrap(Int(firstPage.dropFirst()))
        XCTAssertGreaterThan(n, 3, "a screenful, not one question")
        XCTAssertTrue(s.screenText.contains("Question \(n)"), s.screenText)
        s.press(.pageUp)
        XCTAssertEqual(highlighted(s), "q1")
        for _ in 0..<20 { s.press(.pageDown) }
        XCTAssertEqual(s.formItem, .add, "down to the buttons, as ↓ goes, and no further")
    }
}
