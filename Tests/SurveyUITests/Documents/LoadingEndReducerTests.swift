import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// The end of a large document's reading as the session, the form and the popovers take it
/// (issue 29: each its own part, with no `AppState` in sight): the place the session memory
/// named is gone to only if the user stayed put; a document that turns out unreadable leaves
/// nothing typed, asked or open over its surveys, and says what typing was dropped.
final class LoadingEndReducerTests: XCTestCase {
    func testTheAwaitedPlaceIsGoneToOnlyWhereTheHighlightWasPutMeanwhile() {
        var session = DocumentSession(questionnaire: .standard, documentName: "Big")
        XCTAssertNil(session.awaitedPlace(shown: .draft), "nothing is being read")
        session.beginLoading(percent: 40, awaiting: SessionPlace(recordID: "uuid:9"), shownMeanwhile: .record(0))
        XCTAssertEqual(session.awaitedPlace(shown: .record(0)), SessionPlace(recordID: "uuid:9"))
        XCTAssertNil(session.awaitedPlace(shown: .record(1)), "the user moved: left where they are")
        session.endLoading()
        XCTAssertNil(session.awaitedPlace(shown: .record(0)), "read whole: nothing waits")
    }

    func testAnUnreadableDocumentDropsTheTypingAndTheQuestionAndShowsTheNewForm() {
        var form = FormState(draft: Record(), showingDraft: false)
        form.beginEditing(EditBuffer(entry: EntryNumber(0), text: "Ana", original: "Ann"))
        form.ask(.delete(2))
        XCTAssertEqual(form.forgetDocument(), "Ana", "changed typing is said to be dropped")
        XCTAssertNil(form.editing)
        XCTAssertNil(form.pendingQuestion)
        XCTAssertTrue(form.showingDraft)

        var unchanged = FormState(draft: Record(), showingDraft: false)
        unchanged.beginEditing(EditBuffer(entry: EntryNumber(0), text: "Ann", original: "Ann"))
        XCTAssertNil(unchanged.forgetDocument(), "nothing typed: nothing to say")
        XCTAssertNil(unchanged.editing)
    }

    func testOnlyThePopoversOverTheSurveysClose() {
        let closing: [AppState.Popover] = [.list, .tree(InterviewTree(rows: [])),
                                           .verify(VerifySession(survey: "uuid:a", title: "A", questions: [], settled: [], waiting: []))]
        for popover in closing {
            var popovers = PopoverState()
            popovers.present(popover)
            popovers.closeSurveyViews()
            XCTAssertNil(popovers.open, "\(popover)")
        }
        for popover in [AppState.Popover.help, .documents, .saveAs(TextInput(text: "Big"))] {
            var popovers = PopoverState()
            popovers.present(popover)
            popovers.closeSurveyViews()
            XCTAssertEqual(popovers.open, popover, "stays open")
        }
    }
}
