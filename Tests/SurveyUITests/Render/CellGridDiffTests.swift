import XCTest
@testable import SurveyUI

/// The helpers the terminal uses to copy only what changed between two frames.
final class CellGridDiffTests: XCTestCase {
    private func grid(_ rows: [String]) -> CellGrid {
        var g = CellGrid(size: Size(width: 10, height: rows.count))
        for (y, row) in rows.enumerated() { g.put(row, x: 0, y: y) }
        return g
    }

    func testChangedColumnsSpanFirstToLastDifference() {
        let before = grid(["Smith, Ann", "same", "abcdefghij"])
        let after = grid(["Smyth, Ana", "same", "abcdefghiX"])
        XCTAssertEqual(after.changedColumns(from: before, row: 0), 2..<10)
        XCTAssertNil(after.changedColumns(from: before, row: 1))
        XCTAssertEqual(after.changedColumns(from: before, row: 2), 9..<10)
    }

    func testStyleAloneIsAChange() {
        let before = grid(["row"])
        var after = before
        after.put("r", x: 0, y: 0, style: .bold)
        XCTAssertEqual(after.changedColumns(from: before, row: 0), 0..<1)
    }

    func testAnotherWidthChangesEveryColumn() {
        let before = CellGrid(size: Size(width: 8, height: 1))
        XCTAssertEqual(grid(["x"]).changedColumns(from: before, row: 0), 0..<10)
    }

    func testPrintableASCII() {
        let g = grid(["ab 太郎", "a\u{7}b"])
        XCTAssertTrue(g.isPrintableASCII(row: 0, columns: 0..<3))
        XCTAssertFalse(g.isPrintableASCII(row: 0, columns: 2..<5), "a wide character and its continuation")
        XCTAssertFalse(g.isPrintableASCII(row: 1, columns: 0..<3), "a control character is drawn as U+FFFD")
    }

    /// The ASCII shortcut in `put` draws what the general path drew: cut with "…" when it
    /// does not fit, clipped on both sides, and nothing outside the clip.
    func testPutASCIIMatchesTheGeneralPath() {
        var g = CellGrid(size: Size(width: 10, height: 3))
        XCTAssertEqual(g.put("Hello, world", x: 0, y: 0), 10)
        g.put("abcdef", x: 2, y: 1, clip: Rect(x: 3, y: 1, width: 3, height: 1), truncate: false)
        g.put("abcdef", x: -2, y: 2)
        XCTAssertEqual(g.lines, ["Hello, wo…", "   bcd    ", "cdef      "])
    }
}
