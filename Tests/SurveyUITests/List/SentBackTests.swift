import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
import SurveyUITestSupport

/// Issue 31, send-back: a supervisor's "has issues" or "rejected" brought by a sync puts the
/// survey in the enumerator's sent-back list: counted in the title, `b` narrows the list to
/// them, and the comment shows on the form beside the questions it names. Drawn at two sizes.
final class SentBackTests: XCTestCase {
    static let plots = """
    survey,,,
    ,type,name,label
    ,text,plot_id,Plot id
    ,integer,trees,Trees counted
    ,text,notes,Notes
    settings,,,
    ,form_id,,
    ,plots,,
    """

    private func plot(_ n: Int, trees: Int) -> Record {
        Record(["plot_id": .string("P\(n)"), "trees": .integer(trees), Record.instanceIDKey: .string("uuid:p\(n)")])
    }

    private func state(width: Int = 100, height: Int = 30) throws -> AppState {
        try formState(csv: Self.plots, records: (1...5).map { plot($0, trees: $0 * 10) }, width: width, height: height)
    }

    private let reviews = SyncSummary(reviews: [
        "uuid:p2": SyncReview(.hasIssues, comment: "trees counted twice?"),
        "uuid:p4": SyncReview(.rejected, comment: "Wrong plot: redo the Plot id"),
        "uuid:p5": SyncReview(.approved),
        "uuid:p3": SyncReview(.edited, comment: "fixed"),
    ])

    func testTheTitleCountsTheSurveysSentBackAndBNarrowsTheListToThem() throws {
        for (width, height) in [(100, 30), (60, 20)] {
            var s = try state(width: width, height: height)
            s.send(.app(.showList))
            XCTAssertEqual(s.press(.character("b")), [.readSyncSummary], "no reviews read yet: it asks for them")
            XCTAssertTrue(s.statusText?.hasPrefix("No survey is sent back") ?? false, s.statusText ?? "")
            s.send(.outcome(.sync(.summaryRead(document: "Plots", reviews))))
            XCTAssertTrue(s.screenText.contains("Surveys (5, 2 sent back)"), "\(width)x\(height)\n" + s.screenText)
            s.send(.list(.toggleSentBack))
            XCTAssertEqual(s.list.projection.count, 2)
            XCTAssertEqual(s.statusText, "2 surveys sent back: the comment shows beside the questions it names; b shows all")
            let shown = (0..<s.list.projection.count).map { s.records[s.list.projection.record(atPosition: $0)]["plot_id"] }
            XCTAssertEqual(shown, [.string("P2"), .string("P4")], "approved and edited ones are not sent back")
            XCTAssertTrue(s.screenText.contains("Sent back (2 of 5)"), s.screenText)
            // The `/` filter applies within them.
            s.send(.list(.beginFilter))
            s.type("P4")
            s.press(.enter)
            XCTAssertEqual(s.list.projection.count, 1)
            s.send(.list(.clearFilter))
            s.send(.list(.toggleSentBack))
            XCTAssertEqual(s.list.projection.count, 5, "b again: every survey")
            XCTAssertEqual(s.statusText, "Showing all 5 surveys")
        }
    }

    func testASyncThatBringsTheFixesAcknowledgedEmptiesTheNarrowedList() throws {
        var s = try state()
        s.send(.outcome(.sync(.summaryRead(document: "Plots", reviews))))
        s.press(.character("b"))
        XCTAssertEqual(s.list.projection.count, 2)
        // The fixes went out: the server marked them edited.
        let after = SyncSummary(reviews: ["uuid:p2": SyncReview(.edited, comment: "trees counted twice?"),
                                          "uuid:p4": SyncReview(.rejected, comment: "Wrong plot: redo the Plot id")])
        s.send(.outcome(.sync(.finished(document: "Plots", message: "Synced “Plots”: 0 in, 1 out", isError: false,
                                      reloaded: nil, summary: after))))
        XCTAssertEqual(s.list.projection.count, 1)
        XCTAssertTrue(s.screenText.contains("Sent back (1 of 5)"), s.screenText)
    }

    func testTheCommentShowsBesideTheQuestionsItNamesOnTheForm() throws {
        for (width, height) in [(100, 30), (60, 20)] {
            var s = try state(width: width, height: height)
            s.send(.outcome(.sync(.summaryRead(document: "Plots", reviews))))
            s.send(.app(.showList))
            s.press(.character("b"))
            s.press(.enter)                                   // P2 on the form
            var screen = s.screenText
            XCTAssertTrue(screen.contains("sent back"), screen)
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let trees = try XCTUnwrap(lines.firstIndex { $0.contains("Trees counted") }, screen)
            XCTAssertTrue(lines[trees + 1].contains("Sent back: “trees counted twice?”"), "under the question its label names\n" + screen)
            XCTAssertEqual(lines.filter { $0.contains("Sent back: “") }.count, 1, "beside that question only\n" + screen)
            // P4's comment names the Plot id by its label, any case.
            s.send(.app(.showList))
            s.press(.down)
            s.press(.enter)
            screen = s.screenText
            let after = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let plotRow = try XCTUnwrap(after.firstIndex { $0.contains("Plot id") && !$0.contains("Sent back") }, screen)
            XCTAssertTrue(after[plotRow + 1].contains("Sent back: “Wrong plot: redo the Plot id”"), screen)
        }
    }

    func testACommentThatNamesNoQuestionShowsUnderTheFirstAndNamesAreWholeWords() throws {
        var s = try state()
        s.send(.outcome(.sync(.summaryRead(document: "Plots", SyncSummary(reviews: [
            "uuid:p1": SyncReview(.hasIssues, comment: "call the respondent again; notesX is not a field"),
        ])))))
        s.press(.enter)                                       // P1
        let lines = s.screenText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try XCTUnwrap(lines.firstIndex { $0.contains("Plot id") }, s.screenText)
        XCTAssertTrue(lines[first + 1].contains("Sent back: “call the respondent again"), s.screenText)
        XCTAssertFalse(lines.contains { $0.contains("Notes") && $0.contains("Sent back") })
        XCTAssertTrue(ReviewComment.containsWord(Array("age".utf8), in: Array("age missing".utf8)))
        XCTAssertFalse(ReviewComment.containsWord(Array("age".utf8), in: Array("page 2".utf8)))
        XCTAssertFalse(ReviewComment.containsWord(Array("age".utf8), in: Array("age_2 wrong".utf8)))
        XCTAssertTrue(ReviewComment.containsWord(Array("age".utf8), in: Array("(age)".utf8)))
    }
}

/// Issue 30: `i` narrows the list to the incomplete surveys (kept before they pass), asked
/// again at every change: one kept with Ctrl-S joins them at once.
final class IncompleteListTests: XCTestCase {
    func testTheNotesAreTheCommentsOwnFromTheWalkAlone() throws {
        // Issue 29: the comment's own (`ReviewComment.notes`), with no state in sight.
        let q = try rosterQuestionnaire()
        let record = Record(["village": .string("Kibera"), "member": .array([.dictionary(["name": .string("Ana")])])])
        let walk = FormRuleCache().outline(q, record, Questionnaire.Clock(now: Date(timeIntervalSince1970: 0), timeZone: .utc),
                                           selection: [:])
        let age = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "age" })
        let village = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "village" })
        XCTAssertEqual(ReviewComment.notes("age missing", in: walk), [age: "Sent back: “age missing”"])
        XCTAssertEqual(ReviewComment.notes("see me", in: walk), [village: "Sent back: “see me”"], "under the first question")
        XCTAssertEqual(ReviewComment.notes(nil, in: walk), [:])
    }

    func testINarrowsTheListToTheIncompleteSurveysAndFollowsNewOnes() throws {
        for (width, height) in [(100, 30), (60, 20)] {
            var plots = (1...4).map { n in
                Record(["plot_id": .string("P\(n)"), "trees": .integer(n), Record.instanceIDKey: .string("uuid:p\(n)")])
            }
            plots[1][Record.incompleteKey] = .bool(true)
            plots[3][Record.incompleteKey] = .bool(true)
            var s = try formState(csv: SentBackTests.plots, records: plots, width: width, height: height)
            s.send(.app(.showList))
            s.press(.character("i"))
            XCTAssertEqual(s.list.projection.count, 2)
            XCTAssertEqual(s.statusText, "2 surveys incomplete: Enter goes on keying one, [ Finish ] adds it; i shows all")
            XCTAssertTrue(s.screenText.contains("Incomplete (2 of 4)"), "\(width)x\(height)\n" + s.screenText)
            // A New form kept as incomplete joins them.
            s.press(.control("n"))
            if s.editing == nil { s.press(.enter) }
            s.type("P9")
            s.press(.control("s"))
            XCTAssertEqual(s.recordCount, 5)
            XCTAssertEqual(s.list.projection.count, 3, "\(width)x\(height): the one just kept is listed")
            s.send(.app(.showList))
            s.press(.character("i"))
            XCTAssertEqual(s.list.projection.count, 5)
            XCTAssertEqual(s.statusText, "Showing all 5 surveys")
        }
    }
}
