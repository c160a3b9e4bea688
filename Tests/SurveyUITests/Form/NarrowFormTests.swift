import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// On a narrow terminal both buttons stay fully on screen, and a click where a button is
/// drawn presses that button: nothing can be focused or pressed while hidden.
final class NarrowFormTests: XCTestCase {
    /// Where `label` is drawn on the screen (row, first column), found in the text alone.
    private func find(_ labels: [String], in grid: CellGrid) -> Point? {
        for (y, line) in grid.lines.enumerated() {
            for label in labels {
                if let range = line.range(of: label) {
                    return Point(x: line.distance(from: line.startIndex, to: range.lowerBound), y: y)
                }
            }
        }
        return nil
    }

    private let clear = [FormGeometry.clearLabel, FormGeometry.shortClearLabel]
    private let add = [FormGeometry.addLabel, FormGeometry.shortAddLabel]

    func testBothButtonsAreFullyDrawnAndClickableFrom24To32Columns() {
        for width in [24, 26, 28, 30, 32] {
            for height in [9, 12] {
                let s = makeState(width: width, height: height)
                XCTAssertEqual(s.layout.kind, .collapsed)
                let grid = Screen.render(s)
                guard let clearAt = find(clear, in: grid), let addAt = find(add, in: grid) else {
                    XCTFail("\(width)x\(height): both buttons drawn in full:\n" + grid.lines.joined(separator: "\n"))
                    continue
                }
                var cleared = s
                cleared.send(.app(.click(Point(x: clearAt.x + 1, y: clearAt.y))))
                XCTAssertEqual(cleared.shown, .draft, "\(width)x\(height): a click on Clear clears")
                XCTAssertEqual(cleared.formItem, .clear)
                var added = s
                XCTAssertEqual(added.send(.app(.click(Point(x: addAt.x + 1, y: addAt.y)))), [])
                XCTAssertEqual(added.inputMode, .confirmingRecordCopy, "\(width)x\(height): a click on Add asks for a copy")
                XCTAssertEqual(added.press(.character("y")), [.saveDocument], "\(width)x\(height): y adds it")
                XCTAssertEqual(added.recordCount, 3)
                XCTAssertEqual(added.formItem, .add)
            }
        }
    }

    func testTheButtonsTheKeysReachAreTheOnesDrawn() {
        var s = makeState(width: 24, height: 9)
        s.press(.backTab)
        XCTAssertEqual(s.formItem, .add)
        let g = FormGeometry(form: s.layout.form, labels: s.questionnaire.fields.map(\.label))
        let grid = Screen.render(s)
        let drawn = (g.addButton.x..<g.addButton.maxX).map { grid[$0, g.addButton.y].text }.joined()
        XCTAssertEqual(drawn, g.addButtonLabel)
        XCTAssertEqual(grid[g.addButton.x, g.addButton.y].style, Style([.reverse, .bold]), "the highlight is on screen")
        s.press(.enter, .character("y"))           // a copy of the survey shown
        XCTAssertEqual(s.recordCount, 3)
    }

    /// At every size the app draws the form, every field and both buttons lie inside it.
    func testTheFormFitsAtEverySupportedSize() {
        let labels = Questionnaire.standard.fields.map(\.label)
        for width in 24...160 {
            for height in [9, 10, 11, 12, 13, 14, 15, 20, 30, 50] {
                let layout = Layout(size: Size(width: width, height: height))
                let g = FormGeometry(form: layout.form, labels: labels)
                let form = layout.form
                for r in [g.clearButton, g.addButton] + g.labels + g.values {
                    XCTAssertEqual(r.intersection(form), r, "\(width)x\(height): \(r) inside the form \(form)")
                    XCTAssertFalse(r.isEmpty, "\(width)x\(height)")
                }
                XCTAssertTrue(g.clearButton.intersection(g.addButton).isEmpty)
            }
        }
    }

    func testNarrowFormsMoveTheButtonsThenShortenThemThenStack() {
        let labels = Questionnaire.standard.fields.map(\.label)
        let wide = FormGeometry(form: Rect(x: 0, y: 1, width: 40, height: 9), labels: labels)
        XCTAssertEqual(wide.clearButton, Rect(x: 14, y: 9, width: 9, height: 1), "beside the values")
        let narrow = FormGeometry(form: Rect(x: 0, y: 1, width: 24, height: 6), labels: labels)
        XCTAssertEqual(narrow.clearButton, Rect(x: 2, y: 6, width: 9, height: 1), "under the labels")
        XCTAssertEqual(narrow.addButton, Rect(x: 13, y: 6, width: 7, height: 1))
        let short = FormGeometry(form: Rect(x: 0, y: 1, width: 16, height: 8), labels: labels)
        XCTAssertEqual([short.clearButtonLabel, short.addButtonLabel], ["[Clear]", "[Add]"])
        XCTAssertEqual(short.addButton, Rect(x: 11, y: 7, width: 5, height: 1))
        let stacked = FormGeometry(form: Rect(x: 0, y: 1, width: 12, height: 8), labels: labels)
        XCTAssertEqual(stacked.clearButton, Rect(x: 2, y: 7, width: 7, height: 1))
        XCTAssertEqual(stacked.addButton, Rect(x: 2, y: 8, width: 5, height: 1))
    }
}
