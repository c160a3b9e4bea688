import XCTest
@testable import SurveyUI

final class TextFieldViewTests: XCTestCase {
    private func draw(_ text: String, caret moveLeft: Int = 0, width: Int = 10) -> CellGrid {
        var buffer = TextInput(text: text)
        buffer.moveCaret(by: -moveLeft)
        var grid = CellGrid(size: Size(width: width + 2, height: 1))
        TextFieldView(buffer: buffer).draw(into: &grid, in: Rect(x: 1, y: 0, width: width, height: 1))
        return grid
    }

    func testShortTextSitsAtTheStartWithTheCaretAfterIt() {
        let grid = draw("abc")
        XCTAssertEqual(grid.lines, [" abc        "])
        XCTAssertEqual(grid.cursor, Point(x: 4, y: 0))
    }

    func testLongTextScrollsToKeepTheCaretInView() {
        let grid = draw(String(repeating: "x", count: 295) + "12345")
        XCTAssertEqual(grid.lines, [" xxxx12345  "], "the tail shows, with room for the caret")
        XCTAssertEqual(grid.cursor, Point(x: 10, y: 0))
    }

    func testWideTextScrollsByWholeCharacters() {
        let grid = draw("東京都千代田区", width: 6)
        XCTAssertEqual(grid.lines, [" 田区   "], "two cells each: two fit before the caret's cell")
        XCTAssertEqual(grid.cursor, Point(x: 5, y: 0))
        let start = draw("東京都千代田区", caret: 7, width: 6)
        XCTAssertEqual(start.lines, [" 東京都 "], "caret at the start: the head shows")
        XCTAssertEqual(start.cursor, Point(x: 1, y: 0))
    }
}
