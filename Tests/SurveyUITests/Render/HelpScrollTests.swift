import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30: F1 scrolls. At 80x24 the form's keys are more than the box holds; ↓ marks it,
/// ↓/PgDn/End bring the rest (the last line says how to close), ↑/Home go back.
final class HelpScrollTests: XCTestCase {
    func testHelpScrollsToItsLastLineAndBack() throws {
        var s = makeState(sampleRecords(), width: 80, height: 24)
        s.press(.enter, .up, .function(1))           // on the form, browsing its questions
        XCTAssertEqual(s.inputMode, .help)
        var text = s.screenText
        XCTAssertFalse(text.contains("Esc or F1 closes this help"), text)
        XCTAssertTrue(text.contains("↓"), "more below is marked")
        s.press(.end)
        text = s.screenText
        XCTAssertTrue(text.contains("Esc or F1 closes this help"), text)
        XCTAssertTrue(text.contains("Redo what was undone"), "the keys that were cut off show")
        XCTAssertTrue(text.contains("↑"), "more above is marked")
        s.press(.down)
        XCTAssertEqual(s.screenText, text, "no further than the last line")
        s.press(.home)
        XCTAssertFalse(s.screenText.contains("Esc or F1 closes this help"))
        s.press(.pageDown)
        XCTAssertGreaterThan(s.popovers.helpScroll, 0)
        s.press(.escape)
        s.press(.function(1))
        XCTAssertEqual(s.popovers.helpScroll, 0, "help opens at its top")
    }
}
