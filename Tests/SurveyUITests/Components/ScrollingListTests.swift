import XCTest
@testable import SurveyUI

/// Scrolling to keep a row in view, as little as possible or with a jump: the row (and its
/// section's header, when they fit together) always ends up in the window.
final class ScrollingListTests: XCTestCase {
    func testTheRowStaysInViewWhateverTheJumpAndTheWindow() {
        for height in 1...8 {
            for jump in [0, 1, height / 2, height, 3 * height] {
                for row in 0..<30 {
                    for header in [false, true] where !(header && row == 0) {
                        for start in [0, 5, 12, 22] {
                            var list = ScrollingList(cursor: 0)
                            list.scroll = start
                            let top = header ? row - 1 : row
                            list.keepInView(row: row, from: top, height: height, rowCount: 30, jump: jump)
                            let window = list.scroll..<(list.scroll + height)
                            let context = "height \(height), jump \(jump), row \(row), header \(header), from \(start)"
                            XCTAssertTrue(window.contains(row), context)
                            if height >= 2 { XCTAssertTrue(window.contains(top), context) }
                            XCTAssertTrue(list.scroll >= 0 && list.scroll <= max(0, 30 - height), context)
                        }
                    }
                }
            }
        }
    }

    func testAJumpScrollsFurtherThanNeededOnlyWhenTheRowLeavesTheWindow() {
        var list = ScrollingList(cursor: 0)
        list.keepInView(row: 9, height: 10, rowCount: 100, jump: 5)
        XCTAssertEqual(list.scroll, 0, "in view: nothing moves")
        list.keepInView(row: 10, height: 10, rowCount: 100, jump: 5)
        XCTAssertEqual(list.scroll, 6, "one past the edge: five more than needed")
        list.keepInView(row: 5, height: 10, rowCount: 100, jump: 5)
        XCTAssertEqual(list.scroll, 0, "above the window: five more the other way, stopped at the top")
    }
}
