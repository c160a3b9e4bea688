import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// The terminal's cursor follows the focus (screen readers read there), shown only as a
/// caret; the wheel scrolls the lists.
final class FocusAndWheelTests: XCTestCase {
    func testTheCursorSitsOnTheFocusedItemAndIsShownOnlyWhileTyping() {
        var s = makeState(width: 80, height: 24)
        var grid = Screen.render(s)
        let rows = s.list.body(in: s.layout)
        XCTAssertEqual(grid.cursor, Point(x: rows.x, y: rows.y), "the highlighted list row")
        XCTAssertFalse(grid.showsCaret)
        s.press(.enter, .down)
        grid = Screen.render(s)
        let form = FormGeometry(form: s.layout.form, labels: s.questionnaire.fields.map(\.label))
        XCTAssertEqual(grid.cursor, Point(x: form.values[1].x, y: form.values[1].y), "the highlighted field")
        XCTAssertFalse(grid.showsCaret)
        s.press(.enter)
        grid = Screen.render(s)
        XCTAssertEqual(grid.cursor, Point(x: form.values[1].x + 5, y: form.values[1].y), "the caret after “Smith”")
        XCTAssertTrue(grid.showsCaret)
        s.press(.enter, .escape, .down, .down, .down)
        XCTAssertEqual(s.formItem, .clear)
        grid = Screen.render(s)
        XCTAssertEqual(grid.cursor, Point(x: form.clearButton.x, y: form.clearButton.y), "a button")
        s.press(.function(3))
        s.send(.outcome(.documents(.listed([DocumentSummary(name: "Field Day", recordCount: 2, problem: nil, modified: nil, byteSize: 1)]))))
        grid = Screen.render(s)
        XCTAssertEqual(grid.cursor?.y, s.layout.documentManagerRows(rowCount: 1).y, "the highlighted document")
    }

    func testTheWheelMovesTheListUnderThePointer() {
        var s = makeState(sampleRecords(extra: 20), width: 80, height: 24)
        let pane = s.layout.listPane!
        s.send(.app(.wheel(1, at: Point(x: pane.x + 2, y: pane.y + 3))))
        XCTAssertEqual(s.shown, .record(3))
        s.send(.app(.wheel(-1, at: Point(x: pane.x + 2, y: pane.y + 3))))
        XCTAssertEqual(s.shown, .record(0))
        s.send(.app(.wheel(1, at: Point(x: s.layout.form.x + 5, y: s.layout.form.y + 3))))
        XCTAssertEqual(s.shown, .record(0), "over the form it does nothing")
        var narrow = makeState(sampleRecords(extra: 20), width: 60, height: 20)
        narrow.press(.function(2))
        let box = narrow.layout.listPopoverBox(rowCount: 22)
        narrow.send(.app(.wheel(1, at: Point(x: box.x + 2, y: box.y + 2))))
        XCTAssertEqual(narrow.shown, .record(3), "in the popover too")
    }
}
