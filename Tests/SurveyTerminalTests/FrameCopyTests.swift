import SurveyUI
import XCTest
@testable import SurveyTerminal

/// What `Terminal.present` copies to curses for a frame, given the frame on screen.
final class FrameCopyTests: XCTestCase {
    private func frame(_ rows: [String], width: Int = 12) -> CellGrid {
        var grid = CellGrid(size: Size(width: width, height: rows.count))
        for (y, row) in rows.enumerated() { grid.put(row, x: 0, y: y, truncate: false) }
        return grid
    }

    private func copies(_ grid: CellGrid, after previous: CellGrid?) -> [Terminal.RowCopy] {
        (0..<grid.size.height).map { Terminal.rowCopy($0, of: grid, previous: previous) }
    }

    func testAFrameAfterAOneRowChangeCopiesOnlyThatRowsChangedColumns() {
        let before = frame(["Surveys (3)", "Smith, John", "Jones, Doris", "Lima, Ana"])
        var after = before
        after.put("Jonas", x: 0, y: 2)
        XCTAssertEqual(copies(after, after: before), [.unchanged, .unchanged, .columns(3..<4), .unchanged])
        XCTAssertEqual(copies(before, after: before), Array(repeating: .unchanged, count: 4), "the same frame copies nothing")
    }

    func testAHighlightMovingCopiesTheTwoRowsItLeftAndReached() {
        let rows = ["Smith, John", "Jones, Doris", "Lima, Ana", "Haddad, Omar"]
        func highlighted(_ row: Int) -> CellGrid {
            var grid = frame(rows)
            grid.fill(Rect(x: 0, y: row, width: 12, height: 1), style: Style(.reverse))
            grid.put(rows[row], x: 0, y: row, style: Style(.reverse))
            return grid
        }
        XCTAssertEqual(copies(highlighted(2), after: highlighted(1)), [.unchanged, .columns(0..<12), .columns(0..<12), .unchanged])
    }

    func testWideCharactersAndErasedWindowsDrawWholeRows() {
        let before = frame(["abc", "山田 x", "plain"])
        let after = frame(["abc", "山田 y", "pl山n"])
        XCTAssertEqual(copies(after, after: before), [.unchanged, .columns(5..<6), .whole],
                       "a change beside a wide character copies its columns; one over it redraws the row")
        XCTAssertEqual(copies(before, after: after)[2], .whole, "so does one that replaces a wide character")
        XCTAssertEqual(copies(after, after: nil), [.whole, .whole, .whole], "nothing on screen to compare with")
    }

    /// The frames the app draws for ↓ in the list, into a reused grid, copy the same rows as
    /// frames drawn fresh.
    func testReusedFramesCopyWhatFreshFramesCopy() {
        var a = CellGrid(size: Size(width: 1, height: 1))
        var b = CellGrid(size: Size(width: 1, height: 1))
        let first = frame(["one", "two", "three"])
        let second = frame(["one", "too", "three"])
        a = first
        b.reset(size: second.size)
        for (y, text) in ["one", "too", "three"].enumerated() { b.put(text, x: 0, y: y, truncate: false) }
        XCTAssertEqual(b, second)
        XCTAssertEqual(copies(b, after: a), copies(second, after: first))
        XCTAssertEqual(copies(b, after: a), [.unchanged, .columns(1..<2), .unchanged])
    }
}
