import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport
@testable import SurveyUI

/// A message longer than the width wraps to a second row (taken from the body while it
/// shows); what still does not fit ends in "…" and F1 help shows it whole.
final class StatusLineTests: XCTestCase {
    private let ageError = "Age must be a whole number from 0 to 150, or empty"
    private let veryLong = "“Field Day” is only in memory now: press F3 to switch, or change a field to be asked again"

    func testALongStatusShowsOnTwoRowsAt40x12() {
        var s = makeState(width: 40, height: 12)
        s.press(.up, .down, .down, .down, .down, .enter)   // Age, editing "20"
        s.type("x")
        s.press(.enter)
        XCTAssertEqual(s.statusText, ageError)
        let grid = Screen.render(s)
        XCTAssertEqual(grid.lines[9], " Age must be a whole number from 0 to   ")
        XCTAssertEqual(grid.lines[10], " 150, or empty                          ")
        XCTAssertTrue(grid.lines[11].contains("Help"), "the key bar stays on the last row")
        XCTAssertTrue(grid.lines[7].contains("[ Clear ]  [ Add ]"), "the form still fits above it")
        assertScreen(grid, named: "status-wrapped-40x12")

        s.press(.escape)
        XCTAssertNil(s.status)
        XCTAssertEqual(s.layout.statusLine.height, 1, "the row goes back to the form once the message is gone")
    }

    func testWhatTwoRowsCannotHoldIsCutAndHelpShowsItWhole() {
        var s = makeState(width: 40, height: 12)
        s.statusLine.warn(veryLong)
        var grid = Screen.render(s)
        XCTAssertEqual(grid.lines[9], " “Field Day” is only in memory now:     ")
        XCTAssertEqual(grid.lines[10], " press F3 to switch, or change a field… ")
        s.press(.function(1))
        XCTAssertEqual(s.popover, .help)
        grid = Screen.render(s)
        let help = grid.lines.map { $0.replacingOccurrences(of: "│", with: " ").trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        XCTAssertTrue(help.contains("Last message: “Field Day” is only in memory now: press F3 to switch, or change a field to be asked again"), help)
        s.press(.escape)
        XCTAssertNil(s.popover)
        XCTAssertNil(s.status)
    }

    func testAtTheMinimumHeightTheFormKeepsItsRowsAndTheMessageIsCut() {
        var s = makeState(width: 24, height: 9)
        let plain = Screen.render(s)
        s.statusLine.warn(ageError)
        let grid = Screen.render(s)
        XCTAssertEqual(Array(grid.lines[0..<7]), Array(plain.lines[0..<7]), "fields and buttons stay where they were")
        XCTAssertEqual(grid.lines[7], " Age must be a whole…   ")
        XCTAssertEqual(grid.lines[8], plain.lines[8])
    }

    func testClicksHitWhatWasDrawnWithTheLongMessage() {
        var s = makeState(width: 40, height: 12)
        s.statusLine.tell(veryLong)
        let grid = Screen.render(s)
        guard let y = grid.lines.firstIndex(where: { $0.hasPrefix("     Address") }) else {
            return XCTFail(grid.lines.joined(separator: "\n"))
        }
        s.send(.app(.click(Point(x: 16, y: y))))
        XCTAssertEqual(s.editing?.entry, 2, "the click on the Address row edits Address")
    }

    func testTheListKeepsItsHighlightVisibleAndClickableUnderALongMessage() {
        var s = makeState(sampleRecords(extra: 40), width: 80, height: 24)
        let rows = s.layout.listRows(inPopover: false, rowCount: s.recordCount)
        for _ in 1..<rows.height { s.press(.down) }
        XCTAssertEqual(s.list.rows.cursor, rows.height - 1)
        XCTAssertEqual(s.list.rows.scroll, 0)
        s.statusLine.tell(String(repeating: "long message ", count: 8))
        let grid = Screen.render(s)
        let shortRows = s.layout.listRows(inPopover: false, rowCount: s.recordCount)
        XCTAssertEqual(shortRows.height, rows.height - 1)
        let last = grid.lines[shortRows.maxY - 1]
        XCTAssertTrue(last.contains(s.records[s.list.rows.cursor].listTitle), "the highlighted row is still on screen: \(last)")
        let first = grid.lines[shortRows.y]
        s.send(.app(.click(Point(x: 3, y: shortRows.y))))
        XCTAssertTrue(first.contains(s.records[s.list.rows.cursor].listTitle), "a click on the top row picks the record drawn there: \(first)")
    }

    func testRowsWrapBetweenWordsAndCut() {
        XCTAssertEqual(StatusLine.rows("one two three", width: 20, maxRows: 2), ["one two three"])
        XCTAssertEqual(StatusLine.rows("one two three", width: 8, maxRows: 2), ["one two", "three"])
        XCTAssertEqual(StatusLine.rows("one two three four", width: 8, maxRows: 2), ["one two", "three…"])
        XCTAssertEqual(StatusLine.rows("abcdefghijkl", width: 5, maxRows: 2), ["abcde", "fghi…"])
        XCTAssertEqual(StatusLine.rows(String(repeating: "x ", count: 500_000), width: 10, maxRows: 1), ["x x x x x…"])
    }

    /// The one-row shortcut the layout takes on every key says yes only of text the wrap
    /// leaves as it is: spaces that the wrap would fold, a line break, text one cell too
    /// wide, or wide characters that need more cells than they have bytes never take it.
    func testOneRowShortcutAgreesWithTheWrap() {
        let pieces = ["a", "bc", " ", "  ", "\n", "\t", "太郎", "👩‍💻", "é", "e\u{301}", "Saved", "…", "x"]
        let seed = SplitMix.testSeed(29)
        var generator = SplitMix(seed: seed)
        var shortcuts = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for width in [1, 3, 6, 12, 40] {
                let wrapped = StatusLine.rows(text, width: width, maxRows: 2)
                if StatusLine.isOneRow(text, width: width) {
                    shortcuts += 1
                    XCTAssertEqual(wrapped, [text], "\(text.debugDescription) at \(width) (seed \(seed))")
                    XCTAssertLessThanOrEqual(TextWidth.width(of: text), width, "\(text.debugDescription) (seed \(seed))")
                }
            }
        }
        XCTAssertGreaterThan(shortcuts, 1_000, "most short messages take the shortcut (seed \(seed))")
        XCTAssertFalse(StatusLine.isOneRow("two  spaces", width: 40))
        XCTAssertFalse(StatusLine.isOneRow(" lead", width: 40))
        XCTAssertFalse(StatusLine.isOneRow("line\nbreak", width: 40))
        XCTAssertFalse(StatusLine.isOneRow("exactly 12!!", width: 11))
        XCTAssertTrue(StatusLine.isOneRow("exactly 12!!", width: 12))
    }

    /// Whether the layout splits, asked without laying it out, is what the layout says, at
    /// every size and split width (the key table asks it on every key).
    func testSplitWithoutLayingOutAgrees() {
        for width in stride(from: 0, through: 220, by: 3) {
            for height in [0, 8, 9, 10, 24] {
                for splitWidth in [0, 40, 80, 120, 200] {
                    let size = Size(width: width, height: height)
                    XCTAssertEqual(Layout.isSplit(size: size, splitWidth: splitWidth),
                                   Layout(size: size, splitWidth: splitWidth).isSplit, "\(width)x\(height) split at \(splitWidth)")
                }
            }
        }
    }
}
