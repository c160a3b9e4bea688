import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

final class FormBrowsingTests: XCTestCase {
    private func formFocused(_ records: [Record] = sampleRecords(extra: 3), width: Int = 120, height: Int = 40) -> AppState {
        var s = makeState(records, width: width, height: height)
        s.press(.enter)
        return s
    }

    func testRightAndLeftAreTheOriginalSwipes() {
        var s = formFocused()
        s.press(.right)
        XCTAssertEqual(s.shown, .record(1))
        XCTAssertEqual(s.list.rows.cursor, 1, "list highlight follows")
        s.press(.right, .right)
        XCTAssertEqual(s.shown, .record(3))
        s.press(.left)
        XCTAssertEqual(s.shown, .record(2))
        XCTAssertEqual(s.screen.focus, .form)
    }

    func testEndsSayWhereTheUserIs() {
        var s = formFocused()
        s.press(.left)
        XCTAssertEqual(s.shown, .record(0))
        XCTAssertEqual(s.statusText, "Already at the first record")
        s.press(.end)           // the last question, not the last record
        XCTAssertEqual(s.shown, .record(0))
        XCTAssertEqual(s.formItem, .field(EntryNumber(s.questionnaire.fields.count - 1)))
        for _ in 0..<10 { s.press(.right) }
        XCTAssertEqual(s.shown, .record(4))
        XCTAssertEqual(s.statusText, "Already at the last record")
        s.press(.left)
        XCTAssertNil(s.status, "the next key clears the message")
    }

    func testSwipesScrollTheListToFollow() {
        var s = formFocused(sampleRecords(extra: 40), width: 80, height: 24)
        for _ in 0..<30 { s.press(.right) }
        XCTAssertEqual(s.list.rows.cursor, 30)
        XCTAssertTrue((s.list.rows.scroll..<s.list.rows.scroll + s.listViewportHeight).contains(30))
    }

    /// The form's → scrolls the list beside it half a window at a time, so that most steps
    /// only move the highlight (a pane sharing its rows with the form cannot be scrolled by
    /// the terminal); the list's own ↓ scrolls a row at a time, and ← jumps back up.
    func testSwipesScrollTheListByHalfAWindowTheListItselfByARow() {
        var s = formFocused(sampleRecords(extra: 80), width: 120, height: 40)
        let height = s.listViewportHeight
        XCTAssertGreaterThan(height, 10)
        for _ in 0..<(height - 1) { s.press(.right) }
        XCTAssertEqual(s.list.rows.scroll, 0, "still in the first window")
        s.press(.right)
        XCTAssertEqual(s.list.rows.cursor, height)
        XCTAssertEqual(s.list.rows.scroll, 1 + height / 2, "jumped half a window past the edge")
        let scrolled = s.list.rows.scroll
        for _ in 0..<(height / 2 - 2) { s.press(.right) }
        XCTAssertEqual(s.list.rows.scroll, scrolled, "the next steps only move the highlight")
        // Back up past the top of the window: half a window the other way.
        for _ in 0..<(s.list.rows.cursor - scrolled + 1) { s.press(.left) }
        XCTAssertEqual(s.list.rows.cursor, scrolled - 1)
        XCTAssertEqual(s.list.rows.scroll, max(0, scrolled - 1 - height / 2))

        var list = makeState(sampleRecords(extra: 80), width: 120, height: 40)
        for _ in 0..<height { list.press(.down) }
        XCTAssertEqual(list.list.rows.cursor, height)
        XCTAssertEqual(list.list.rows.scroll, 1, "the list's own ↓ scrolls one row")
    }

    func testUpDownStopAtTheEndsTabWraps() {
        var s = formFocused()
        s.press(.up)
        XCTAssertEqual(s.formItem, .field(0))
        s.press(.down, .down, .down, .down)
        XCTAssertEqual(s.formItem, .field(4))
        s.press(.down)
        XCTAssertEqual(s.formItem, .clear)
        s.press(.down, .down, .down)
        XCTAssertEqual(s.formItem, .add)
        s.press(.tab)
        XCTAssertEqual(s.formItem, .field(0), "Tab wraps")
        s.press(.backTab)
        XCTAssertEqual(s.formItem, .add, "Shift-Tab wraps")
        s.press(.backTab)
        XCTAssertEqual(s.formItem, .clear)
    }

    func testEnterStartsEditingWithCaretAtEnd() {
        var s = formFocused()
        s.press(.enter)
        XCTAssertEqual(s.editing?.entry, 0)
        XCTAssertEqual(s.editing?.text, "John")
        XCTAssertEqual(s.editing?.caret, 4)
        XCTAssertEqual(s.inputMode, .formEditing)
    }

    func testTypingAPrintableStartsEditingAndReplacesTheAnswer() {
        var s = formFocused()
        s.press(.down)
        s.type("x")
        XCTAssertEqual(s.editing?.entry, 1)
        XCTAssertEqual(s.editing?.text, "x", "typing over an answer replaces it (issue 27)")
    }

    func testHighlightStaysWhereTheUserLeavesIt() {
        var s = formFocused()
        s.press(.down, .down, .right, .right)
        XCTAssertEqual(s.formItem, .field(2))
        s.press(.function(2), .down, .enter)
        XCTAssertEqual(s.formItem, .field(2))
    }

    func testNewFormGoesBackToHighlightedRecordOnSwipe() {
        var s = formFocused()
        s.press(.right, .control("n"), .escape)
        XCTAssertEqual(s.shown, .draft)
        s.press(.left)
        XCTAssertEqual(s.shown, .record(1))
    }

    func testSwipeOnEmptyDocumentExplains() {
        var s = makeState([])
        s.press(.right)
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.statusText, "No surveys yet: fill in the form and press Add")
    }
}
