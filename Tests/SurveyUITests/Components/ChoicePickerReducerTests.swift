import XCTest
import SurveyValues
@testable import SurveyForms
@testable import SurveyUI

/// The picker's own reducer (issue 29: a child reducer): each key decided from the picker
/// alone, and what it asks of the form as a value, with no `AppState` in sight.
final class ChoicePickerReducerTests: XCTestCase {
    private func picker(_ names: [String], multiple: Bool = false) -> ChoicePicker {
        ChoicePicker(entry: 3, title: "Water", choices: names.map { XLSForm.Choice(name: $0, labels: [:], extra: [:]) },
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

    /// A label wider than the terminal lets the picker be wraps onto the lines under it,
    /// indented past the number, rather than being cut; clicks and scrolling count its lines.
    func testALongLabelWrapsAndIsClickedOnAnyOfItsLines() {
        let long = "Piped water into the dwelling, yard or plot, from the public network"
        var p = ChoicePicker(entry: 0, title: "Water", choices: ["a", "b", "c"].map { XLSForm.Choice(name: $0, labels: [:], extra: [:]) },
                             labels: ["a": "Tap", "b": long, "c": "River"], multiple: false, current: "")
        let layout = Layout(size: Size(width: 40, height: 20), splitWidth: 80)
        let g = ChoicePickerView.geometry(p, layout: layout)
        XCTAssertEqual(g.lineCounts, [1, 3, 1])
        XCTAssertEqual(g.box.height, 5 + 3, "every line of every choice, its border and hint")
        var grid = CellGrid(size: Size(width: 40, height: 20))
        ChoicePickerView(picker: p, geometry: g).draw(into: &grid)
        let drawn = grid.lines.joined(separator: "\n")
        for word in ["Piped", "network", "River"] { XCTAssertTrue(drawn.contains(word), word + "\n" + drawn) }
        XCTAssertEqual(g.position(atRow: g.rows.y + 2), 1, "the long label's second line is its choice")
        XCTAssertEqual(g.position(atRow: g.rows.y + 4), 2)
        XCTAssertEqual(p.click(1), .commit(moving: 1, heading: true))
        XCTAssertEqual(p.answer, "b")
        // Scrolled to the last choice in a box too short for all: the highlight shows whole.
        p.move(by: 2)
        let short = ChoicePickerView.geometry(p, layout: Layout(size: Size(width: 40, height: 8), splitWidth: 80))
        let shownLines = short.lineCounts[short.scroll...p.highlighted].reduce(0, +)
        XCTAssertLessThanOrEqual(shownLines, short.rows.height)
    }
}
