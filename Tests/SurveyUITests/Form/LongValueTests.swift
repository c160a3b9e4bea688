import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// A 1 MB value (pasted or imported): the screen shows the right part of it, editing works,
/// and drawing measures only what is visible. Speed itself is in `make bench`, not here.
final class LongValueTests: XCTestCase {
    /// About 1 MB, with a head and a tail that can be recognised.
    private let long = "HEAD " + String(repeating: "0123456789", count: 100_000) + " TAIL"

    private func cells(_ grid: CellGrid, _ rect: Rect) -> String {
        (rect.x..<rect.maxX).map { grid[$0, rect.y].text }.joined()
    }

    func testTheVisibleWindowMeasuresOnlyWhatItShows() {
        let chars = Array(long)
        for (caret, shown) in [(chars.count, String(long.suffix(39))), (0, String(long.prefix(40))),
                               (500_000, String(chars[500_000 - 39..<500_001]))] {
            var measured = 0
            let window = TextFieldView.visibleWindow(chars, caret: caret, width: 40) {
                measured += 1
                return TextWidth.width(of: $0)
            }
            XCTAssertEqual(String(chars[window.start..<window.end]), shown, "caret at \(caret)")
            XCTAssertLessThanOrEqual(measured, 2 * 40 + 2, "caret at \(caret): measured \(measured) characters for a 40-cell field")
        }
    }

    func testTruncateMeasuresOnlyWhatFits() {
        var measured = 0
        let cut = TextWidth.truncate(long, to: 30) { measured += 1; return TextWidth.width(of: $0) }
        XCTAssertEqual(cut, String(long.prefix(29)) + "…")
        XCTAssertLessThanOrEqual(measured, 31)
        XCTAssertEqual(TextWidth.truncate("abc", to: 3), "abc")
        XCTAssertEqual(TextWidth.truncate("abcd", to: 3), "ab…")
        XCTAssertEqual(TextWidth.truncate("東京都", to: 5), "東京…")
    }

    func testListTitleCutBeforeFlattening() {
        let r = record("Ana", long)
        XCTAssertEqual(r.listTitle(limit: 20), String(long.prefix(20)) + ", Ana")
        XCTAssertEqual(record(" \t Bob\n", "").listTitle(limit: 20), "Bob", "short names read as the full title")
        XCTAssertEqual(record(" \t Bob\n", "").listTitle(limit: 20), record(" \t Bob\n", "").listTitle)
        XCTAssertEqual(record("", "").listTitle(limit: 5), "(no name)")
    }

    func testA1MBValueShowsItsHeadInTheListAndTheForm() {
        var s = makeState([record("Ana", long, address: long), record("John", "Smith")], width: 80, height: 24)
        s.press(.enter)
        let grid = Screen.render(s)
        let rows = s.layout.listRows(inPopover: false, rowCount: 2)
        XCTAssertEqual(cells(grid, Rect(x: rows.x, y: rows.y, width: rows.width - 1, height: 1)),
                       "›" + String(long.prefix(rows.width - 3)) + "…", "the shown record marked without colour")
        let g = FormGeometry(form: s.layout.form, labels: s.questionnaire.fields.map(\.label))
        XCTAssertEqual(cells(grid, g.values[2]), String(long.prefix(g.values[2].width - 1)) + "…")
    }

    func testEditingA1MBValueScrollsToTheCaretAndEditsInPlace() {
        var s = makeState([record("Ana", "Lima", address: long)], width: 80, height: 24)
        s.press(.enter, .down, .down, .enter)
        let field = FormGeometry(form: s.layout.form, labels: s.questionnaire.fields.map(\.label)).values[2]
        let w = field.width

        var grid = Screen.render(s)
        XCTAssertEqual(cells(grid, field), String(long.suffix(w - 1)) + " ", "caret at the end: the tail shows")
        XCTAssertEqual(grid.cursor, Point(x: field.maxX - 1, y: field.y))

        s.press(.home)
        s.type("ab")
        grid = Screen.render(s)
        XCTAssertEqual(cells(grid, field), String(("ab" + long).prefix(w)), "at the start: the head shows")
        XCTAssertEqual(grid.cursor, Point(x: field.x + 2, y: field.y))

        s.press(.right, .right, .right, .delete, .end, .backspace, .left)
        var expected = "ab" + long
        expected.remove(at: expected.index(expected.startIndex, offsetBy: 5))
        expected.removeLast()
        XCTAssertEqual(s.editing?.text, expected)
        XCTAssertEqual(s.editing?.caret, expected.count - 1)
        grid = Screen.render(s)
        XCTAssertEqual(cells(grid, field), String(expected.dropLast().suffix(w - 1)) + "I", "one left of the end: the caret on the last character")
        XCTAssertEqual(grid.cursor, Point(x: field.maxX - 1, y: field.y))

        s.press(.escape)
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.records[0].text(for: s.questionnaire.fields[2]), long, "Esc puts the value back")
    }
}
