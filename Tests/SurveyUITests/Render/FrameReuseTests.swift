import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport
@testable import SurveyUI

/// The terminal draws each frame into the grid of an earlier one (`Screen.render(_:into:)`)
/// and cells keep their character as a number; what is drawn must not change for either.
final class FrameReuseTests: XCTestCase {
    /// A walk through screens of every kind, each drawn into the grid the one before used:
    /// every frame equals the one drawn fresh (cells, cursor, caret), whatever the last left.
    func testAReusedGridDrawsWhatAFreshOneDraws() {
        var state = makeState(sampleRecords(extra: 60) + [record("美咲", "Núñez 🏙️", address: "e\u{301}te 👩‍💻")])
        var grid = CellGrid(size: Size(width: 3, height: 2))
        var frames = 0
        func check(_ what: String, line: UInt = #line) {
            Screen.render(state, into: &grid)
            XCTAssertEqual(grid, Screen.render(state), what, line: line)
            XCTAssertEqual(grid.lines, Screen.render(state).lines, what, line: line)
            frames += 1
        }
        check("the list")
        for _ in 0..<5 { state.press(.down); check("↓") }
        state.press(.end); check("the last survey, wide and combined characters")
        state.press(.enter); check("the form")
        for _ in 0..<3 { state.press(.right); check("→") }
        state.press(.enter); check("typing in a field: the caret is shown")
        state.type("x"); check("typed")
        state.press(.escape); check("no caret again")
        state.press(.function(1)); check("help over the form")
        state.press(.escape)
        state.send(.system(.resized(Size(width: 60, height: 20)))); check("smaller: the collapsed layout")
        state.send(.system(.resized(Size(width: 10, height: 3)))); check("too small")
        state.send(.system(.resized(Size(width: 120, height: 40)))); check("back to full size")
        XCTAssertEqual(frames, 18)
    }

    /// Clearing a grid of the same size keeps its storage: a key allocates no grid.
    func testResetKeepsTheStorageOfAGridOfTheSameSize() {
        var grid = Screen.render(makeState())
        let before = grid.cells.withUnsafeBufferPointer { $0.baseAddress }
        grid.reset(size: grid.size)
        XCTAssertEqual(grid.cells.withUnsafeBufferPointer { $0.baseAddress }, before)
        XCTAssertEqual(grid, CellGrid(size: grid.size), "blank, no cursor, no caret")
        grid.reset(size: Size(width: 7, height: 2))
        XCTAssertEqual(grid, CellGrid(size: Size(width: 7, height: 2)))
    }

    /// A cell gives back the very text it was made with: one scalar, a continuation, and
    /// clusters of several scalars, which equal each other exactly when their text does.
    func testCellsKeepTheirText() {
        let texts = [" ", "a", "~", "ë", "Ж", "太", "\u{FFFD}", "", "e\u{301}", "🏙️", "👩‍💻", "🇪🇸", "\u{0}"]
        for text in texts {
            XCTAssertEqual(Cell(text).text, text)
            XCTAssertEqual(Cell(text, style: .bold).style, .bold)
        }
        XCTAssertTrue(Cell("").isContinuation)
        XCTAssertFalse(Cell("\u{0}").isContinuation)
        XCTAssertEqual(Cell("👩‍💻"), Cell(String("👩‍💻".unicodeScalars.map(Character.init).map(String.init).joined())))
        XCTAssertNotEqual(Cell("👩‍💻"), Cell("🏙️"))
        XCTAssertNotEqual(Cell("e\u{301}"), Cell("e"))
        XCTAssertNotEqual(Cell("a", style: .bold), Cell("a"))
        XCTAssertEqual(Cell("ë").scalar, "ë")
        XCTAssertNil(Cell("e\u{301}").scalar)
        XCTAssertNil(Cell("").scalar)
        var cell = Cell("a")
        cell.text = "🇪🇸"
        XCTAssertEqual(cell, Cell("🇪🇸"))
        XCTAssertEqual(MemoryLayout<Cell>.size, 8, "a number, a style and two spare bytes: nothing to count or free")
        XCTAssertEqual(MemoryLayout<Cell>.stride, 8, "no padding between cells")
    }

    /// Equal frames are equal bytes, however their cells were made (a fresh grid or one
    /// reset, text put or filled, ASCII or not), so the terminal's row comparison can be one
    /// `memcmp`: the spare bytes are always zero.
    func testEqualFramesAreEqualBytes() {
        let size = Size(width: 12, height: 3)
        var fresh = CellGrid(size: size)
        fresh.put("Ana, José", x: 0, y: 0, style: .bold)
        fresh.put("太郎 x", x: 1, y: 1)
        var reused = CellGrid(size: size)
        reused.fill(reused.bounds, with: "#", style: .error)
        reused.put("something else entirely", x: 0, y: 2)
        reused.reset(size: size)
        reused.fill(Rect(x: 0, y: 0, width: 12, height: 1), with: " ", style: .bold)
        reused.fill(Rect(x: 9, y: 0, width: 3, height: 1))
        reused.put("Ana, ", x: 0, y: 0, style: .bold)
        reused.put("J", x: 5, y: 0, style: .bold)
        reused.put("osé", x: 6, y: 0, style: .bold)
        reused.put("太郎", x: 1, y: 1)
        reused.put(" x", x: 5, y: 1)
        XCTAssertEqual(reused, fresh)
        let same = fresh.cells.withUnsafeBytes { a in reused.cells.withUnsafeBytes { b in a.elementsEqual(b) } }
        XCTAssertTrue(same, "the same cells in the same bytes")
        for y in 0..<3 { XCTAssertNil(reused.changedColumns(from: fresh, row: y)) }
    }

    /// The key bar, drawn once per mode and width and copied after that, is the bar drawn
    /// afresh, wherever it is on the grid.
    func testTheKeyBarIsTheSameDrawnAgain() {
        for mode in InputMode.allCases {
            for width in [20, 60, 120] {
                var once = CellGrid(size: Size(width: width, height: 1))
                KeyBar(mode: mode).draw(into: &once, in: once.bounds)
                var again = CellGrid(size: Size(width: width, height: 1))
                KeyBar(mode: mode).draw(into: &again, in: again.bounds)
                XCTAssertEqual(once, again)
                var fresh = CellGrid(size: Size(width: width + 4, height: 3))
                var kept = fresh
                let rect = Rect(x: 2, y: 1, width: width, height: 1)
                KeyBar(mode: mode).drawFresh(into: &fresh, in: rect)
                KeyBar(mode: mode).draw(into: &kept, in: rect)
                XCTAssertEqual(kept, fresh, "\(mode) \(width)")
                let labels = KeyBar.fitting(KeyMap.barBindings(for: mode), width: width - 1).map(\.keyLabel)
                for label in labels { XCTAssertTrue(once.rowText(0).contains(label), "\(mode) \(width): \(label)") }
            }
        }
    }

    /// The key table sorted by mode answers what scanning the whole table answered.
    func testKeysDoWhatTheTableSays() {
        let keys: [Key] = [.up, .down, .left, .right, .enter, .escape, .tab, .backTab, .home, .end,
                           .function(1), .function(2), .function(3), .control("q"), .control("z"),
                           .character("/"), .character("d"), .character("x"), .delete, .backspace]
        for mode in InputMode.allCases {
            for key in keys {
                let scanned = KeyMap.bindings.first { $0.modes.contains(mode) && $0.keys.contains(key) }?.action
                if let scanned {
                    XCTAssertEqual(KeyMap.action(for: key, in: mode), scanned, "\(key) in \(mode)")
                }
            }
            XCTAssertEqual(KeyMap.barBindings(for: mode).map(\.keyLabel),
                           KeyMap.bindings.filter { $0.inBar && $0.modes.contains(mode) }.map(\.keyLabel))
        }
    }
}

/// List rows are drawn from title cells laid out once and kept between frames.
final class TitleCellsTests: XCTestCase {
    /// Cells laid out for a width and put back draw what putting the text draws: cut with
    /// "…", a wide character that does not fit left out, combining marks kept, any style.
    func testLaidOutCellsDrawWhatPuttingTheTextDraws() {
        let texts = ["Smith, John", "Núñez 0, José", "山田, 太郎", "Zoë Ann Marie Longname-Smith", "e\u{301}te 🏙️ x",
                     "太太太太太", "", "a\u{7}b"]
        for text in texts {
            for width in 1...14 {
                for style in [Style.plain, Style(.reverse), Style(.bold, role: .accent)] {
                    var put = CellGrid(size: Size(width: 16, height: 1))
                    var copied = put
                    let clip = Rect(x: 1, y: 0, width: width, height: 1)
                    let usedPut = put.put(text, x: 1, y: 0, style: style, clip: clip)
                    let usedCopied = copied.put(cells: CellGrid.cells(of: text, width: width), x: 1, y: 0, style: style, clip: clip)
                    XCTAssertEqual(copied, put, "\(text) in \(width)")
                    XCTAssertEqual(usedCopied, usedPut, "\(text) in \(width)")
                }
            }
        }
    }

    /// The list drawn from kept cells is the list drawn from its titles, in the pane and the
    /// popover, focused or not, at widths that cut the titles.
    func testTheListIsDrawnAsItsTitlesAre() {
        let records = sampleRecords(extra: 30) + [record("美咲", "山田"), record("Zoë", "Núñez 🏙️"),
                                                   record("Ann", String(repeating: "Long", count: 30)),
                                                   record("", "\u{301}Accent first")]
        for (width, height) in [(120, 40), (70, 20), (50, 16)] {
            var state = makeState(records, width: width, height: height)
            if !state.layout.isSplit { state.press(.function(2)) }   // the list popover
            state.press(.end)
            let grid = Screen.render(state)
            let listed = (0..<height).map(grid.rowText).joined(separator: "\n")
            let count = state.list.projection.count
            for row in max(0, count - 3)..<count {
                guard case .record(let index) = state.list.projection.row(row) else { continue }
                let title = state.shownListRows.shownTitle(of: index, record: state.records[index], session: state.session, clock: state.ruleClock, limit: width)
                guard !title.hasPrefix("\u{301}") else { continue }   // checked below
                let shown = String(title.prefix(4))
                XCTAssertTrue(listed.contains(shown), "\(width)x\(height): \(shown)")
            }
            // A title starting with a mark is drawn as one text with its marker, as before.
            let accented = records.count - 1
            XCTAssertEqual(state.shownListRows.shownTitle(of: accented, record: state.records[accented], session: state.session, clock: state.ruleClock, limit: width), "\u{301}Accent first")
            XCTAssertNil(state.shownListRows.shownTitleCells(of: accented, record: state.records[accented], session: state.session, limit: width, width: 10))
            XCTAssertNotNil(state.shownListRows.shownTitleCells(of: 0, record: state.records[0], session: state.session, limit: width, width: 10))
            XCTAssertTrue((0..<height).contains { y in (0..<width).contains { grid[$0, y].text == " \u{301}" } },
                          "the marker and the mark in one cell")
            // Drawn again from the kept cells: the same frame.
            XCTAssertEqual(Screen.render(state), grid, "\(width)x\(height)")
        }
    }

    /// The five-field form's geometry kept between frames is the one laid out afresh, for
    /// any sequence of rectangles, rows and scrolls (each often the same as the one before,
    /// as while browsing).
    func testKeptFlatGeometryIsTheFreshOne() {
        let kept = FlatFormGeometry()
        let rowSets: [[FormRow]] = [
            ["First name", "Last name", "Address", "Phone", "Age"].map { .field(label: $0, extraLine: false) },
            ["First name", "A much longer label than the others", "Age"].map { .field(label: $0, extraLine: true) },
            [.heading("Household"), .field(label: "Name", extraLine: false), .hidden, .note("Thanks")],
        ]
        let seed = SplitMix.testSeed(29)
        var generator = SplitMix(seed: seed)
        var rect = Rect(x: 36, y: 1, width: 84, height: 37), rows = rowSets[0], scroll = 0
        for step in 0..<400 {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: rect = Rect(x: Int.random(in: 0...40, using: &generator), y: 1,
                                width: Int.random(in: 10...120, using: &generator), height: Int.random(in: 3...40, using: &generator))
            case 1: rows = rowSets.randomElement(using: &generator)!
            case 2: scroll = Int.random(in: 0...6, using: &generator)
            default: break
            }
            XCTAssertEqual(kept.geometry(form: rect, rows: rows, scroll: scroll), FormGeometry(form: rect, rows: rows, scroll: scroll),
                           "step \(step): \(rect), scroll \(scroll) (seed \(seed))")
        }
    }
}
