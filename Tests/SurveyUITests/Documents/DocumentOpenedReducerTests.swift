import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Another document opened, as the session takes it (issue 29: the session's own, with no
/// `AppState` in sight): its name, its form and why it could not be read come in; what
/// belonged to the document left (its file's condition, undo, a change in flight) goes.
final class DocumentOpenedReducerTests: XCTestCase {
    func testTheDocumentLeftTakesItsConditionAndHistoryWithIt() {
        var session = DocumentSession(questionnaire: .standard, documentName: "Farm")
        session.vanish(reason: nil, suggestion: "Farm")
        session.confirmLeaving()
        session.expect(.change(.other, label: "an edit"), then: [.listDocuments])
        let trouble = FormTrouble.missing(formID: "household")
        session.open("Plots", form: DocumentForm(questionnaire: .standard, trouble: trouble),
                     loaded: .success(SurveyDocument(records: [])))
        XCTAssertEqual(session.documentName, "Plots")
        XCTAssertEqual(session.formTrouble, trouble)
        XCTAssertNil(session.loadError)
        XCTAssertFalse(session.documentMissing)
        XCTAssertNil(session.saveAsSuggestion)
        XCTAssertFalse(session.leaveConfirmed)
        XCTAssertNil(session.pendingChange, "the change in flight was the other document's")
        XCTAssertEqual(session.takeEffectsAfterSave(), [])
    }

    func testAFailedReadSaysWhyAndAReadOneClearsIt() {
        var session = DocumentSession(questionnaire: .standard, documentName: "Farm")
        session.open("Broken", form: DocumentForm(questionnaire: .standard), loaded: .failure(DocumentError("not a property list")))
        XCTAssertEqual(session.loadError, "not a property list")
        XCTAssertNil(session.formTrouble)
        session.open("Farm", form: DocumentForm(questionnaire: .standard), loaded: .success(SurveyDocument(records: [])))
        XCTAssertNil(session.loadError)
    }
}
