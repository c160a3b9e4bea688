import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Whole screens rendered from the UI core at the sizes the issue names, compared as text.
final class ScreenTests: XCTestCase {
    private func seeded(width: Int, height: Int) -> AppState {
        makeState(sampleRecords(), width: width, height: height)
    }

    func testSplit120x40() {
        assertScreen(Screen.render(seeded(width: 120, height: 40)), named: "split-120x40")
    }

    func testSplit80x24FormFocused() {
        var s = seeded(width: 80, height: 24)
        s.press(.down, .enter, .down)
        assertScreen(Screen.render(s), named: "split-80x24-form")
    }

    func testCollapsed79x24() {
        assertScreen(Screen.render(seeded(width: 79, height: 24)), named: "collapsed-79x24")
    }

    func testCollapsed60x20WithListPopover() {
        var s = seeded(width: 60, height: 20)
        s.press(.function(2), .down)
        assertScreen(Screen.render(s), named: "collapsed-60x20-popover")
    }

    func testCollapsed40x12Editing() {
        var s = seeded(width: 40, height: 12)
        s.press(.enter)
        s.type("ny")
        let grid = Screen.render(s)
        assertScreen(grid, named: "collapsed-40x12-editing")
        XCTAssertNotNil(grid.cursor)
    }

    /// The smallest size the app draws: every field and both buttons, whole.
    func testCollapsed24x9() {
        assertScreen(Screen.render(seeded(width: 24, height: 9)), named: "collapsed-24x9")
    }

    func testCollapsed30x12WithAddHighlighted() {
        var s = seeded(width: 30, height: 12)
        s.press(.backTab)
        assertScreen(Screen.render(s), named: "collapsed-30x12-add")
    }

    func testTooSmall10x3And1x1() {
        assertScreen(Screen.render(seeded(width: 10, height: 3)), named: "toosmall-10x3")
        let tiny = Screen.render(seeded(width: 1, height: 1))
        XCTAssertEqual(tiny.lines, ["…"])
        XCTAssertEqual(Screen.render(seeded(width: 0, height: 0)).lines, [])
    }

    func testHelpShowsAgeInfo() {
        var s = seeded(width: 80, height: 24)
        s.press(.enter, .up, .down, .down, .down, .down, .function(1))
        let text = Screen.render(s).lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("If the survey taker refuses, that is okay"))
        assertScreen(Screen.render(s), named: "help-age-80x24")
    }

    func testResizeInTheMiddleOfTyping() {
        var s = seeded(width: 120, height: 40)
        s.press(.enter, .down, .enter)
        s.type("-Jones")
        s.send(.system(.resized(Size(width: 60, height: 20))))
        assertScreen(Screen.render(s), named: "resize-typing-60x20")
        s.send(.system(.resized(Size(width: 120, height: 40))))
        let grid = Screen.render(s)
        assertScreen(grid, named: "resize-typing-back-120x40")
        XCTAssertTrue(grid.lines.contains { $0.contains("Smith-Jones") })
    }

    func testUnreadableDocumentScreen() {
        let s = AppState(documentName: "Broken", loaded: .failure(DocumentError("not a property list: unexpected character at line 1")),
                         size: Size(width: 80, height: 24), environment: .forTests)
        assertScreen(Screen.render(s), named: "unreadable-80x24")
    }

    func testWideTextNeverSpillsIntoTheOtherPane() {
        let records = [record("美咲美咲美咲美咲美咲美咲", "山田山田山田山田山田山田", address: "東京都千代田区1-1東京都千代田区1-1東京都千代田区1-1東京都千代田区1-1"),
                       record("Ana", "Lima", address: "Av. Paulista 1000 🏙️"),
                       record("José", "Núñez")]
        for (w, h) in [(80, 24), (120, 40), (100, 30)] {
            let s = makeState(records, width: w, height: h)
            let grid = Screen.render(s)
            let divider = s.layout.listPane!.maxX - 1
            for y in 1..<(h - 2) {
                XCTAssertEqual(grid[divider, y].text, "│", "divider intact at row \(y), \(w)x\(h)")
            }
            let row = grid.lines[2]
            XCTAssertTrue(row.contains("…"), "long name cut with an ellipsis: \(row)")
        }
        assertScreen(Screen.render(makeState(records, width: 80, height: 24)), named: "wide-text-80x24")
    }

    func testControlCharactersInDataCannotEscapeTheScreen() {
        let s = makeState([record("Evil\u{1b}[2J", "\u{7}Bell\r\n")], width: 80, height: 24)
        let grid = Screen.render(s)
        for line in grid.lines {
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 }, "control character drawn: \(line.debugDescription)")
        }
        XCTAssertTrue(grid.lines.joined().contains("Evil\u{FFFD}[2J"))
    }

    func testEverySizeRendersWithoutTrouble() {
        var s = seeded(width: 120, height: 40)
        s.press(.enter, .enter)
        s.type("typed")
        for w in stride(from: 0, through: 130, by: 7) {
            for h in [0, 1, 2, 5, 8, 9, 10, 12, 24, 41] {
                s.send(.system(.resized(Size(width: w, height: h))))
                let grid = Screen.render(s)
                XCTAssertEqual(grid.lines.count, h)
                if let c = grid.cursor {
                    XCTAssertTrue(grid.bounds.contains(c), "caret inside at \(w)x\(h)")
                }
            }
        }
        XCTAssertEqual(s.editing?.text, "Johntyped")
    }
}
