import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// The document manager, its dialogs and the info view, rendered at the sizes.
final class DocumentScreenTests: XCTestCase {
    private let day = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18 UTC

    private func state(width: Int, height: Int) -> AppState {
        var s = makeState(sampleRecords(), width: width, height: height)
        s.environment.timeZone = .utc
        s.environment.documentFolder = "/home/field/.local/share/survey"
        s.manager.take([
            DocumentSummary(name: "Field Day", recordCount: 2, problem: nil, modified: day, byteSize: 1_204),
            DocumentSummary(name: "Market Street", recordCount: 0, problem: nil, modified: day.addingTimeInterval(3600), byteSize: 212),
            DocumentSummary(name: "Untitled 2", recordCount: 14, problem: nil, modified: day.addingTimeInterval(-86_400), byteSize: 9_800),
            DocumentSummary(name: "Untitled 10", recordCount: nil, problem: "not a property list", modified: day, byteSize: 12),
            DocumentSummary(name: "東京 survey with a very long name indeed", recordCount: 3, problem: nil, modified: day, byteSize: 700),
        ], in: s.managerContext)
        s.popovers.present(.documents)
        return s
    }

    func testManager120x40() {
        var s = state(width: 120, height: 40)
        s.press(.down)
        XCTAssertEqual(s.manager.rows.cursor, "Market Street")
        assertScreen(Screen.render(s), named: "documents-120x40")
    }

    func testManager60x20Renaming() {
        var s = state(width: 60, height: 20)
        s.press(.character("r"))
        s.type(" 2")
        let grid = Screen.render(s)
        assertScreen(grid, named: "documents-60x20-renaming")
        XCTAssertNotNil(grid.cursor, "the caret shows in the rename field")
    }

    func testConfirmDelete60x20() {
        var s = state(width: 60, height: 20)
        s.press(.end, .character("d"))
        XCTAssertEqual(s.popover, .confirmDelete(name: "東京 survey with a very long name indeed", records: 3))
        assertScreen(Screen.render(s), named: "documents-60x20-confirm")
    }

    func testInfoView80x24() {
        var s = state(width: 80, height: 24)
        s.popovers.dismiss()
        _ = s.screen.toggleInfo(split: s.isSplit, survey: nil)
        s.screen.moveFocus(to: .form)
        assertScreen(Screen.render(s), named: "info-80x24")
    }

    func testManagerFitsEverySize() {
        for (w, h) in [(24, 9), (40, 12), (80, 24), (200, 60)] {
            var s = state(width: w, height: h)
            s.send(.system(.resized(Size(width: w, height: h))))
            let grid = Screen.render(s)
            let box = s.layout.documentManagerBox(rowCount: s.documents.count)
            XCTAssertTrue(grid.bounds.contains(Point(x: box.maxX - 1, y: box.maxY - 1)), "\(w)x\(h)")
            XCTAssertEqual(grid[box.x, box.y].text, "┌", "\(w)x\(h)")
        }
    }

    func testManagerKeepsItsHighlightInViewAcrossAResize() {
        var s = state(width: 120, height: 40)
        s.manager.take(s.documents + (1...50).map { DocumentSummary(name: "Zed \($0)", recordCount: 0, problem: nil, modified: day, byteSize: 10) },
                       in: s.managerContext)
        s.press(.end)
        s.send(.system(.resized(Size(width: 24, height: 9))))
        let rows = s.layout.documentManagerRows(rowCount: s.documents.count)
        XCTAssertTrue((s.manager.rows.scroll..<s.manager.rows.scroll + rows.height).contains(s.managerCursor))
        XCTAssertTrue(Screen.render(s).lines.joined().contains("Zed 50"))
    }
}
