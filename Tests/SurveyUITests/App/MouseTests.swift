import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

final class MouseTests: XCTestCase {
    func testClickOnSurveysButtonOpensTheListAndARowChoosesIt() {
        var s = makeState(width: 60, height: 20)
        let button = s.layout.surveysButton!
        s.send(.app(.click(Point(x: button.x + 2, y: button.y))))
        XCTAssertEqual(s.popover, .list)
        let rows = s.layout.listRows(inPopover: true, rowCount: s.recordCount)
        s.send(.app(.click(Point(x: rows.x + 2, y: rows.y + 1))))
        XCTAssertNil(s.popover)
        XCTAssertEqual(s.shown, .record(1))
    }

    func testClickOutsideThePopoverClosesIt() {
        var s = makeState(width: 60, height: 20)
        s.press(.function(2))
        s.send(.app(.click(Point(x: 58, y: 15))))
        XCTAssertNil(s.popover)
    }

    func testClickOnListRowAndFieldInSplit() {
        var s = makeState()
        let rows = s.layout.listRows(inPopover: false, rowCount: 2)
        s.send(.app(.click(Point(x: rows.x + 1, y: rows.y + 1))))
        XCTAssertEqual(s.shown, .record(1))
        XCTAssertEqual(s.screen.focus, .list)
        let g = FormGeometry(form: s.layout.form, labels: s.questionnaire.fields.map(\.label))
        s.send(.app(.click(Point(x: g.values[2].x + 1, y: g.values[2].y))))
        XCTAssertEqual(s.screen.focus, .form)
        XCTAssertEqual(s.editing?.entry, 2)
        XCTAssertEqual(s.editing?.text, "789 Town St.")
    }

    func testClickingAddWhileTypingCommitsTheFieldThenAsksForTheCopy() {
        var s = makeState()
        s.press(.enter, .enter)
        s.type("X")
        let g = FormGeometry(form: s.layout.form, labels: s.questionnaire.fields.map(\.label))
        let effects = s.send(.app(.click(Point(x: g.addButton.x + 1, y: g.addButton.y))))
        XCTAssertEqual(effects, [.saveDocument], "the field goes to disk")
        XCTAssertEqual(s.recordCount, 2, "a copy of a stored survey is asked for first")
        XCTAssertEqual(s.inputMode, .confirmingRecordCopy)
        XCTAssertEqual(s.send(.outcome(.saving(.saved(replacedCharacters: 0)))), [])
        XCTAssertEqual(s.press(.character("y")), [.saveDocument])
        XCTAssertEqual(s.recordCount, 3)
        XCTAssertEqual(s.records[0].listTitle, "Smith, JohnX")
        XCTAssertEqual(s.records[2].listTitle, "Smith, JohnX")
    }
}
