import XCTest
import SurveyValues
@testable import SurveyForms
@testable import SurveyUI

/// The picker's own reducer (issue 29: a child reducer): each key decided from the picker
/// alone, and what it asks of the form as a value, with no `AppState` in sight.
final class ChoicePickerReducerTests: XCTestCase {
    private func picker(_ names: [String], multiple: Bool = false) -> ChoicePicker {
        ChoicePicker(fieldIndex: 3, title: "Water", choices: names.map { XLSForm.Choice(name: $0, labels: [:], extra: [:]) },
                     labels: Dictionary(uniqueKeysWithValues: names.map { ($0, $0.capitalized) }), multiple: multiple, current: "")
    }

    func testADigitChoosesAndGoesOnWhileAHalfTypedNumberWaits() {
        var p = picker(["tap", "well", "river"])
        XCTAssertEqual(p.reduce(.type("2")), .commit(moving: 1, heading: true))
        XCTAssertEqual(p.answer, "well")
        var twelve = picker((1...12).map { "c\($0)" })
        XCTAssertEqual(twelve.reduce(.type("1")), .tell("Choice 1…: another digit, or Enter"))
        XCTAssertEqual(twelve.reduce(.type("2")), .commit(moving: 1, heading: true))
        XCTAssertEqual(twelve.answer, "c12")
        XCTAssertEqual(p.reduce(.type("9")), .warn("There is no choice 9: 3 choices shown"))
    }

    func testAMultipleChoiceTicksAndEnterKeepsWhatIsTicked() {
        var p = picker(["tap", "well", "river"], multiple: true)
        XCTAssertEqual(p.reduce(.type("1")), .stay)
        XCTAssertEqual(p.reduce(.move(2)), .stay)
        XCTAssertEqual(p.reduce(.type(" ")), .stay)
        XCTAssertEqual(p.reduce(.choose), .commit(moving: 1, heading: true))
        XCTAssertEqual(p.answer, "tap river")
    }

    func testLettersNarrowAndTabDelAskTheFormToMoveOrClear() {
        var p = picker(["tap", "well", "river"])
        XCTAssertEqual(p.reduce(.type("r")), .stay)
        XCTAssertEqual(p.visible.map { p.names[$0] }, ["river"])
        XCTAssertEqual(p.reduce(.type("z")), .stay)
        XCTAssertEqual(p.reduce(.choose), .warn("No choice matches “rz”"))
        XCTAssertEqual(p.reduce(.backspace), .stay)
        XCTAssertEqual(p.reduce(.accept(-1)), .commit(moving: -1, heading: false))
        XCTAssertEqual(p.reduce(.clear), .clear)
        XCTAssertEqual(p.click(0), .commit(moving: 1, heading: true))
        XCTAssertEqual(p.answer, "river")
    }
}
