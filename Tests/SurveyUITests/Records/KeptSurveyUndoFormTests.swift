import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Undoing and redoing the keeping of a New form as an incomplete survey, as the form does it
/// (issue 29: `FormState`'s own), with no `AppState` in sight.
final class KeptSurveyUndoFormTests: XCTestCase {
    private let q = Questionnaire.standard
    private let kept: Record = {
        var r = Record(["firstName": .string("Ana"), Record.instanceIDKey: .string("uuid:k")])
        r.setIncomplete(true)
        return r
    }()

    private var step: UndoHistory.Step {
        UndoHistory.Step(kind: .keptIncomplete, label: "keeping of “Ana”", before: SurveyDocument(records: []),
                         after: SurveyDocument(records: [kept]), focusBefore: nil, focusAfter: "uuid:k")
    }

    func testUndoingPutsTheSurveyBackOnAnEmptyNewFormAndRedoingEmptiesIt() {
        var form = FormState(draft: Record(), showingDraft: false)
        XCTAssertFalse(form.takeBackKeptSurvey(step, undoing: false, gone: [kept], in: q), "a redo takes nothing back")
        XCTAssertTrue(form.takeBackKeptSurvey(step, undoing: true, gone: [kept], in: q))
        XCTAssertEqual(form.draft, Record(["firstName": .string("Ana")]), "without its id or its incomplete mark")
        XCTAssertTrue(form.showingDraft)

        XCTAssertFalse(form.emptyIfKeptAgain(step, undoing: true, in: q))
        XCTAssertTrue(form.emptyIfKeptAgain(step, undoing: false, in: q))
        XCTAssertTrue(form.draft.isBlank(in: q))
    }

    func testANewFormHoldingOtherAnswersIsLeftAlone() {
        var form = FormState(draft: Record(["firstName": .string("Bo")]), showingDraft: true)
        XCTAssertFalse(form.takeBackKeptSurvey(step, undoing: true, gone: [kept], in: q), "the New form is not empty")
        XCTAssertFalse(form.emptyIfKeptAgain(step, undoing: false, in: q), "it is not the survey kept")
        XCTAssertEqual(form.draft, Record(["firstName": .string("Bo")]))
        let added = UndoHistory.Step(kind: .add, label: "add", before: SurveyDocument(records: []),
                                     after: SurveyDocument(records: [kept]), focusBefore: nil, focusAfter: nil)
        var empty = FormState(draft: Record(), showingDraft: false)
        XCTAssertFalse(empty.takeBackKeptSurvey(added, undoing: true, gone: [kept], in: q), "an undone Add is deleted, not put on the New form")
        XCTAssertFalse(empty.showingDraft)
    }
}
