import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Correcting a saved survey from paper (issue 27, item 1): typing over a highlighted answer,
/// or over one arrived at heads-down, replaces it (CSPro's way; Collect selects it first);
/// changing part of an answer stays deliberate (Enter, or a caret key, first).
final class CorrectionKeyingTests: XCTestCase {
    private let age = Questionnaire.standard.fields[4]

    /// John Smith's form, the highlight on Age (20), browsing.
    private func ageHighlighted() -> AppState {
        var s = makeState()
        s.press(.enter)                                 // the list's Enter: to the form
        s.press(.down, .down, .down, .down)
        XCTAssertEqual(s.formItem, .field(4))
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.records[0]["age"], .integer(20))
        return s
    }

    func testTypingOverAHighlightedAnswerReplacesIt() {
        var s = ageHighlighted()
        s.type("41")
        XCTAssertEqual(s.editing?.text, "41", "the typed value replaces 20; it is not appended")
        XCTAssertEqual(s.press(.enter), [.saveDocument])
        XCTAssertEqual(s.records[0]["age"], .integer(41))
    }

    func testEnterEditsTheAnswerWithTheCaretAtItsEnd() {
        var s = ageHighlighted()
        s.press(.enter)
        XCTAssertEqual(s.editing?.text, "20")
        XCTAssertEqual(s.editing?.selectsAll, false, "Enter is the deliberate key for changing part of it")
        s.press(.backspace)
        s.type("1")
        s.press(.enter)
        XCTAssertEqual(s.records[0]["age"], .integer(21), "the last digit changed, the first kept")
    }

    func testEscAfterTypingOverPutsTheAnswerBack() {
        var s = ageHighlighted()
        s.type("9")
        XCTAssertEqual(s.press(.escape), [])
        XCTAssertEqual(s.records[0]["age"], .integer(20))
        XCTAssertEqual(s.shownForm.fieldText(4), "20")
    }

    /// Heads-down (Enter from the question before), the next answer arrives selected: digits
    /// typed replace it, while a caret key or Backspace first edits it in place.
    func testAnAnswerArrivedAtHeadsDownIsReplacedByTyping() {
        var s = makeState()
        s.press(.enter, .enter)                         // editing First name
        s.press(.enter)                                 // heads-down to Last name
        XCTAssertEqual(s.editing?.text, "Smith")
        XCTAssertEqual(s.editing?.selectsAll, true)
        s.type("Brown")
        XCTAssertEqual(s.editing?.text, "Brown")
        s.press(.enter)                                 // on to Address
        s.press(.left)                                  // a caret key: now a partial change
        XCTAssertEqual(s.editing?.selectsAll, false)
        s.type("X")
        XCTAssertEqual(s.editing?.text, "123 Any St.X".replacingOccurrences(of: ".X", with: "X."))
        s.press(.enter)                                 // Phone
        s.press(.backspace)                             // Backspace deletes one character, as ever
        XCTAssertEqual(s.editing?.text, "555-123")
        s.press(.enter, .enter)                         // past Phone, then Age kept as it is
        XCTAssertEqual(s.records[0]["lastName"], .string("Brown"))
        XCTAssertEqual(s.records[0]["address"], .string("123 Any StX."))
        XCTAssertEqual(s.records[0]["phone"], .string("555-123"))
        XCTAssertEqual(s.records[0]["age"], .integer(20), "Enter on a selected answer keeps it")
    }

    func testAPasteOverAHighlightedAnswerReplacesIt() {
        var s = ageHighlighted()
        s.send(.text(.paste("33")))
        XCTAssertEqual(s.editing?.text, "33")
        s.press(.enter)
        XCTAssertEqual(s.records[0]["age"], .integer(33))
    }

    func testTheSelectedAnswerIsDrawnReversedAndTheBarSaysTypingReplaces() {
        var s = makeState(width: 120, height: 40)
        s.press(.enter)
        XCTAssertTrue(s.screenText.contains("Type Replace"), s.screenText)
        s.press(.enter, .enter)                         // Last name, arrived at heads-down
        let grid = Screen.render(s)
        guard let caret = grid.cursor, let found = grid.lines[caret.y].range(of: "Smith") else {
            return XCTFail("the caret is on the field being typed, which shows Smith:\n\(s.screenText)")
        }
        let x = grid.lines[caret.y].distance(from: grid.lines[caret.y].startIndex, to: found.lowerBound)
        XCTAssertTrue(grid[x, caret.y].style.attributes.contains(.reverse), "the selected answer is reversed")
        s.press(.left)
        XCTAssertFalse(Screen.render(s)[x, caret.y].style.attributes.contains(.reverse), "a caret key drops the selection")
    }

    /// A member's answer in a roster is corrected the same way (the correction inside a
    /// roster where the last bugs were).
    func testTypingOverAMembersAnswerReplacesIt() throws {
        var s = try rosterState()
        s.press(.enter); s.type("Kibera"); s.press(.enter)
        s.press(.character("y"))
        s.type("Ana"); s.press(.enter)
        s.type("34"); s.press(.enter)
        s.press(.character("n"))
        s.press(.escape)
        // Back up to the member's age, browsing.
        while s.formItem != .field(s.outline.indices.first { s.outline.path($0).steps.count == 1 && s.outline.field($0).key == "age" } ?? -1) {
            s.press(.up)
        }
        s.type("43")
        s.press(.enter)
        XCTAssertEqual(s.draft.instances(of: "member").first?["age"], .integer(43))
    }
}
