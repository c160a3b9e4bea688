import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// [ Add ] keys an interview once: one Enter too many after it never adds the same answers
/// again, a copy of a stored survey is asked for by name, and undoing an Add keeps a copy of
/// the survey among the deleted ones, as every path that takes a survey out of the file does.
final class AddAndCopyTests: XCTestCase {
    private func newFormAnswered() -> AppState {
        var s = makeState([])
        s.press(.control("n"))
        s.type("Grace"); s.press(.enter)
        s.type("Hopper"); s.press(.enter)
        s.press(.enter, .enter)
        s.type("85"); s.press(.enter)
        XCTAssertEqual(s.formItem, .add, "after the last question the highlight rests on [ Add ]")
        return s
    }

    func testEnterAgainAfterAddAsksInsteadOfAddingTheSameInterviewTwice() {
        var s = newFormAnswered()
        XCTAssertEqual(s.press(.enter).withoutKeyedNote, [.saveDocument, .saveDraft])
        _ = s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertEqual(s.shown, .record(0))
        XCTAssertEqual(s.formItem, .add, "still on [ Add ], of the survey just added")
        XCTAssertEqual(s.press(.enter), [], "one Enter too many adds nothing")
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertEqual(s.statusText, "Add a copy of “Hopper, Grace” as another survey? y/n")
        XCTAssertEqual(s.inputMode, .confirmingRecordCopy)
        s.press(.escape)
        XCTAssertEqual(s.statusText, "Kept “Hopper, Grace”")
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertNil(s.form.pendingQuestion)
    }

    func testACopyIsADeliberateYesWithItsOwnID() {
        var original = record("Ada", "Lovelace", age: 36)
        original.values[Record.instanceIDKey] = .string("uuid:ada")
        var s = makeState([original])
        s.press(.enter)                                  // to the form
        s.form.highlight(.add)
        s.press(.enter)
        XCTAssertEqual(s.inputMode, .confirmingRecordCopy)
        XCTAssertTrue(KeyMap.barBindings(for: .confirmingRecordCopy).contains { $0.barLabel == "Copy" },
                      "the key bar says what y does")
        let effects = s.press(.character("y"))
        XCTAssertEqual(effects, [.saveDocument])
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.statusText, "Added survey 2, a copy of Lovelace, Ada")
        XCTAssertNil(s.records[1].instanceID, "its own id comes with the save")
        XCTAssertEqual(s.records[1]["age"], .integer(36))
    }
}
