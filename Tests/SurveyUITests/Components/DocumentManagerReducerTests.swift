import Foundation
import XCTest
import SurveyValues
@testable import SurveyUI

/// The document manager's own reducer (issue 29: a child reducer, as the picker's): each key
/// decided from the manager alone and the little it reads of the app, and what it asks of the
/// app as a value, with no `AppState` in sight.
final class DocumentManagerReducerTests: XCTestCase {
    /// 80x24: the documents list's window shows 17 rows.
    private let context = DocumentManagerState.Context(openDocument: "Field Day", layout: Layout(size: Size(width: 80, height: 24), splitWidth: 80))

    private func listed(_ names: [String], highlighting name: String = "Field Day") -> DocumentManagerState {
        var m = DocumentManagerState(highlighting: name)
        m.take(names.map { DocumentSummary(name: $0, recordCount: $0.count, problem: nil, modified: nil, byteSize: 10) }, in: context)
        return m
    }

    func testKeysMoveTheHighlightByNameWithinTheList() {
        var m = listed(["Farm", "Field Day", "Market"])
        XCTAssertEqual(m.cursorIndex(open: "Field Day"), 1, "the open document is highlighted first")
        XCTAssertEqual(m.reduce(.move(1), in: context), .none)
        XCTAssertEqual(m.rows.cursor, "Market")
        XCTAssertEqual(m.reduce(.move(5), in: context), .none)
        XCTAssertEqual(m.rows.cursor, "Market", "held at the end")
        _ = m.reduce(.toFirst, in: context)
        XCTAssertEqual(m.rows.cursor, "Farm")
        _ = m.reduce(.toLast, in: context)
        XCTAssertEqual(m.rows.cursor, "Market")
        // A fresh listing without the highlighted name: back on the open document.
        m.take(m.documents.filter { $0.name != "Market" }, in: context)
        XCTAssertEqual(m.rows.cursor, "Field Day")
    }

    func testAPageKeepsTheHighlightInItsWindow() {
        var m = listed((1...60).map { "Doc \($0)" }, highlighting: "Doc 1")
        let height = context.height(60)
        XCTAssertEqual(m.reduce(.page(1), in: context), .none)
        XCTAssertEqual(m.rows.cursor, "Doc \(1 + ScrollingList<String?>.page(height: height))")
        _ = m.reduce(.toLast, in: context)
        XCTAssertEqual(m.rows.scroll, 60 - height, "the last row at the window's foot")
        m.click(row: 0)
        XCTAssertEqual(m.rows.cursor, "Doc \(60 - height + 1)", "a click counts from the first row shown")
    }

    func testItAsksTheAppToOpenCreateDeleteAndRestore() {
        var m = listed(["Farm", "Field Day"])
        XCTAssertEqual(m.reduce(.openHighlighted, in: context), .open("Field Day"))
        XCTAssertEqual(m.reduce(.newDocument, in: context), .create)
        _ = m.reduce(.move(-1), in: context)
        XCTAssertEqual(m.reduce(.requestDelete, in: context), .confirmDelete(name: "Farm", records: 4))
        XCTAssertEqual(m.reduce(.restoreDeleted, in: context), .restoreDeleted)
        XCTAssertEqual(m.neighbour(of: "Farm"), "Field Day")
        m.reduce(.deleted(name: "Farm", records: 4, replacement: nil), in: context)
        XCTAssertEqual(m.rows.cursor, "Field Day", "the highlight goes to the neighbour")
        m.reduce(.restored("Farm"), in: context)
        XCTAssertEqual(m.rows.cursor, "Farm", "and to a document brought back")
        var empty = DocumentManagerState(highlighting: "Field Day")
        XCTAssertEqual(empty.reduce(.openHighlighted, in: context), .none, "nothing listed: nothing to open")
        XCTAssertEqual(empty.reduce(.requestDelete, in: context), .none)
    }

    func testRenameAsksOnlyForANewName() {
        var m = listed(["Farm", "Field Day"])
        XCTAssertEqual(m.reduce(.beginRename, in: context), .none)
        XCTAssertEqual(m.renaming?.text, "Field Day")
        XCTAssertEqual(m.reduce(.commitRename, in: context), .none, "the same name: nothing to do")
        XCTAssertNil(m.renaming)
        _ = m.reduce(.beginRename, in: context)
        m.editRename { $0.apply(.deleteWordBackward) }
        for c in "Night" { m.editRename { $0.insert(c) } }
        XCTAssertEqual(m.reduce(.commitRename, in: context), .rename(from: "Field Day", to: "Field Night"))
        XCTAssertNotNil(m.renaming, "open until the rename is done")
        m.click(row: 0)
        XCTAssertEqual(m.rows.cursor, "Field Day", "a click while renaming moves nothing")
        m.reduce(.renamed(from: "Field Day", to: "Field Night"), in: context)
        XCTAssertNil(m.renaming)
        XCTAssertEqual(m.rows.cursor, "Field Night")
        _ = m.reduce(.beginRename, in: context)
        XCTAssertEqual(m.reduce(.cancelRename, in: context), .none)
        XCTAssertNil(m.renaming)
    }
}
