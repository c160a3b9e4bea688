import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

final class ListNavigationTests: XCTestCase {
    func testLaunchShowsFirstRecordWithListFocusedWhenSplit() {
        let s = makeState()
        XCTAssertEqual(s.layout.kind, .split)
        XCTAssertEqual(s.shown, .record(0))
        XCTAssertEqual(s.screen.focus, .list)
        XCTAssertEqual(s.formItem, .field(0))
        XCTAssertEqual(s.inputMode, .listPane)
    }

    func testLaunchFocusesFormWhenCollapsed() {
        let s = makeState(width: 60, height: 20)
        XCTAssertEqual(s.layout.kind, .collapsed)
        XCTAssertEqual(s.screen.focus, .form)
        XCTAssertEqual(s.inputMode, .formBrowsing)
    }

    func testEmptyDocumentShowsTheNewForm() {
        var s = makeState([])
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.positionTitle, "New")
        XCTAssertEqual(s.screen.focus, .form, "an empty list has nothing to browse")
        s.type("A")
        XCTAssertEqual(s.editing?.text, "A", "the first key starts the first survey")
    }

    func testArrowsMoveHighlightAndFormFollows() {
        var s = makeState(sampleRecords(extra: 3))
        s.press(.down)
        XCTAssertEqual(s.list.rows.cursor, 1)
        XCTAssertEqual(s.shown, .record(1))
        XCTAssertEqual(s.positionTitle, "2 of 5")
        s.press(.up, .up)
        XCTAssertEqual(s.list.rows.cursor, 0, "stops at the top")
        s.press(.end)
        XCTAssertEqual(s.shown, .record(4))
        s.press(.home)
        XCTAssertEqual(s.shown, .record(0))
    }

    func testPageDownMovesByAPageAndScrolls() {
        var s = makeState(sampleRecords(extra: 60), width: 80, height: 24)
        let page = s.listViewportHeight
        XCTAssertEqual(page, 20, "24 rows less title, status, keys and the list header")
        s.press(.pageDown)
        XCTAssertEqual(s.list.rows.cursor, page - 1)
        XCTAssertEqual(s.list.rows.scroll, 0)
        s.press(.pageDown)
        XCTAssertEqual(s.list.rows.cursor, 2 * (page - 1))
        XCTAssertEqual(s.list.rows.scroll, s.list.rows.cursor - page + 1, "highlight kept on the last visible row")
        s.press(.pageUp, .pageUp, .pageUp)
        XCTAssertEqual(s.list.rows.cursor, 0)
        XCTAssertEqual(s.list.rows.scroll, 0)
        s.press(.end)
        XCTAssertEqual(s.list.rows.cursor, 61)
        XCTAssertEqual(s.list.rows.scroll, 62 - page)
    }

    func testEnterMovesFocusToForm() {
        var s = makeState()
        s.press(.down, .enter)
        XCTAssertEqual(s.screen.focus, .form)
        XCTAssertEqual(s.shown, .record(1))
        XCTAssertEqual(s.inputMode, .formBrowsing)
    }

    func testF2FocusesListPaneWhenSplit() {
        var s = makeState()
        s.press(.enter)
        XCTAssertEqual(s.screen.focus, .form)
        s.press(.function(2))
        XCTAssertEqual(s.screen.focus, .list)
        XCTAssertNil(s.popover)
        s.press(.function(2))
        XCTAssertEqual(s.screen.focus, .list, "no change when already there")
    }

    func testF2TogglesListPopoverWhenCollapsed() {
        var s = makeState(width: 60, height: 20)
        s.press(.function(2))
        XCTAssertEqual(s.popover, .list)
        XCTAssertEqual(s.inputMode, .listPopover)
        s.press(.function(2))
        XCTAssertNil(s.popover)
        s.press(.function(2), .escape)
        XCTAssertNil(s.popover, "Esc closes it too")
    }

    func testChoosingRowInPopoverShowsItAndDismisses() {
        var s = makeState(width: 60, height: 20)
        s.press(.function(2), .down)
        XCTAssertEqual(s.shown, .record(1), "the form follows the highlight at once")
        XCTAssertEqual(s.popover, .list)
        s.press(.enter)
        XCTAssertNil(s.popover)
        XCTAssertEqual(s.shown, .record(1))
        XCTAssertEqual(s.screen.focus, .form)
    }

    func testOnlyOnePopoverAtATime() {
        var s = makeState(width: 60, height: 20)
        s.press(.function(1))
        XCTAssertEqual(s.popover, .help)
        s.press(.function(2))
        XCTAssertEqual(s.popover, .list, "opening the list closes help")
        s.press(.function(1))
        XCTAssertEqual(s.popover, .help, "opening help closes the list")
        let help = Screen.render(s).lines.joined(separator: "\n")
        XCTAssertTrue(help.contains("Survey list") && help.contains("Move the highlight"), "help about the list: \(help)")
        s.press(.escape)
        XCTAssertEqual(s.popover, .list, "closing help goes back to the list it was opened over")
        s.press(.escape)
        XCTAssertNil(s.popover)
    }

    func testHelpOverTheDocumentsListExplainsItAndGoesBackToIt() {
        var s = makeState()
        s.popovers.present(.documents)
        s.press(.function(1))
        XCTAssertEqual(s.popover, .help)
        let text = Screen.render(s).lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("Rename the highlighted document"), text)
        s.press(.escape)
        XCTAssertEqual(s.popover, .documents)
        s.press(.escape)
        XCTAssertNil(s.popover)
        s.press(.function(1), .escape)
        XCTAssertNil(s.popover, "help from the form goes back to the form")
    }
}
