import XCTest
import SurveyValues
@testable import SurveyUI

/// `n` or Esc to the y/n question about a survey, as the form decides it (issue 29: the
/// form's own), with no `AppState` in sight.
final class SurveyQuestionCancelTests: XCTestCase {
    private let surveys = RecordList([Record(["firstName": .string("Ana")])])

    private func cancel(_ question: SurveyQuestion?, onNewForm: Bool = false) -> (String?, SurveyQuestion?) {
        var form = FormState(draft: Record(), showingDraft: onNewForm)
        form.ask(question)
        let remark = form.cancelQuestion(surveys: surveys, onNewForm: onNewForm, title: { _ in "“Ana”" })
        return (remark, form.pendingQuestion)
    }

    func testTheQuestionGoesAndTheStatusSaysWhatIsKept() {
        XCTAssertEqual(cancel(.delete(0)).0, "Kept “Ana”")
        XCTAssertNil(cancel(.delete(0)).1)
        XCTAssertEqual(cancel(.copy(0)).0, "Kept “Ana”")
        XCTAssertNil(cancel(.delete(3)).0, "the survey went meanwhile: nothing to name")
        XCTAssertEqual(cancel(.duplicate(0)).0, "Not finished: the survey stays incomplete (correct its ID items, or finish it as it is)")
        XCTAssertEqual(cancel(.duplicate(0), onNewForm: true).0, "Not added: the New form keeps its answers (correct the ID items, or Clear it)")
        XCTAssertNil(cancel(nil).0, "no question asked")
    }
}
