import Foundation
import XCTest

/// Live resizing between the split and collapsed layouts and below the minimum size, and
/// the list as a pane (split) or a popover (collapsed).
final class LayoutEndToEndTests: EndToEndTestCase {
    func testResizingSwitchesLayoutsKeepingTheRecordAndTheHalfTypedText() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch(width: 120, height: 40)
        app.waitFor("Surveys (2)")
        try app.press("Down", "Enter", "Down", "Down", "Enter")   // Doris, edit Address
        try app.type(" Apt 4")
        app.waitForField("Address", "789 Town St. Apt 4")

        try app.resize(width: 60, height: 24)
        let collapsed = try XCTUnwrap(app.waitFor("[Surveys]"))
        XCTAssertFalse(collapsed.contains("Surveys (2)"), "no list pane when collapsed:\n\(TmuxSession.framed(collapsed))")
        XCTAssertFalse(collapsed.contains("Smith, John"), "no list pane when collapsed")
        XCTAssertTrue(ScreenText.lines(collapsed)[0].contains("2 of 2"), "the record is kept")
        XCTAssertEqual(ScreenText.formValue("Address", in: collapsed), "789 Town St. Apt 4", "the typed text is kept")
        XCTAssertEqual(ScreenText.formValue("First name", in: collapsed), "Doris")
        XCTAssertTrue(try app.cursor().visible, "still editing")

        try app.type("B")
        app.waitForField("Address", "789 Town St. Apt 4B")
        try app.resize(width: 120, height: 40)
        let split = try XCTUnwrap(app.waitFor("Surveys (2)", "Jones, Doris"))
        XCTAssertFalse(split.contains("[Surveys]"))
        XCTAssertTrue(ScreenText.lines(split)[0].contains("2 of 2"), "the record is kept")
        XCTAssertEqual(ScreenText.formValue("Address", in: split), "789 Town St. Apt 4B", "the typed text is kept")
        XCTAssertEqual(try record(1, in: "Seed")?["address"], .string("789 Town St."), "nothing is committed yet")

        try app.type("C")
        try app.press("Enter", "Escape")          // kept; on to Phone, where Esc stops editing
        app.waitUntil("the caret is hidden") { _ in (try? app.cursor().visible) == false }
        XCTAssertEqual(try record(1, in: "Seed")?["address"], .string("789 Town St. Apt 4BC"))
        XCTAssertEqual(try record(0, in: "Seed")?["address"], .string("123 Any St."))
    }

    func testListPopoverInTheCollapsedLayout() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch(width: 60, height: 24)
        app.waitFor("[Surveys]")

        try app.press("F2")
        let open = try XCTUnwrap(app.waitFor("Surveys (2)", "Smith, John", "Jones, Doris"))
        let header = try XCTUnwrap(ScreenText.row(containing: "Surveys (2)", in: open))
        let sides = header.line.components(separatedBy: "Surveys (2)")
        XCTAssertTrue(sides.count == 2 && sides[0].contains("│") && sides[1].contains("│"),
                      "the list is in a box: \(header.line)")
        XCTAssertTrue(header.index > 0 && ScreenText.lines(open)[header.index - 1].contains("┌"),
                      "the box has a top border")

        try app.press("F2")
        app.waitForAbsence(of: "Surveys (2)", "Jones, Doris")
        try app.press("F2")
        app.waitFor("Surveys (2)")
        try app.press("Escape")
        app.waitForAbsence(of: "Surveys (2)", "Jones, Doris")
        app.waitForRecord("John", "Smith", "123 Any St.", "555-1234", "20")

        try app.press("F2")
        app.waitFor("Surveys (2)")
        try app.press("Down", "Enter")
        app.waitForAbsence(of: "Surveys (2)", "Smith, John")
        app.waitForRecord("Doris", "Jones", "789 Town St.", "555-1234", "40")
        app.waitFor("2 of 2")
    }

    func testF2InTheSplitLayoutFocusesTheListPane() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch(width: 120, height: 40)
        app.waitFor("Surveys (2)")
        try app.press("Enter", "Down", "F1")   // the form has focus: ↓ moves its highlight
        app.waitFor("The survey taker's family name.")
        try app.press("Escape")
        app.waitForAbsence(of: "The survey taker's family name.")
        app.waitForRecord("John", "Smith", "123 Any St.", "555-1234", "20")
        try app.press("F2", "Down")            // the list has focus: ↓ shows the next record
        app.waitForRecord("Doris", "Jones", "789 Town St.", "555-1234", "40")
        app.waitFor("2 of 2")
        XCTAssertFalse(try XCTUnwrap(app.waitFor("Jones, Doris")).contains("┌"), "no popover in the split layout")
    }

    func testATooSmallTerminalSaysSoAndKeepsTheState() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch(width: 120, height: 40)
        app.waitFor("Surveys (2)")
        try app.press("Down", "Enter", "Down", "Down", "Enter")   // Doris, edit Address
        try app.type(" X")
        app.waitForField("Address", "789 Town St. X")

        try app.resize(width: 20, height: 8)
        app.waitFor("Terminal too small", "20x8, need 24x9")
        try app.resize(width: 10, height: 3)
        // Ten columns cannot hold the whole sentence: the short form and the size show.
        let tiny = try XCTUnwrap(app.waitFor("Too small", "10x3"))
        XCTAssertFalse(tiny.contains("Doris"), "nothing else is drawn:\n\(TmuxSession.framed(tiny))")

        try app.resize(width: 120, height: 40)
        let back = try XCTUnwrap(app.waitFor("Surveys (2)", "Jones, Doris"))
        XCTAssertTrue(ScreenText.lines(back)[0].contains("2 of 2"), "the record is kept")
        XCTAssertEqual(ScreenText.formValue("Address", in: back), "789 Town St. X", "the typed text is kept")
        try app.type("Y")
        try app.press("Enter", "Escape")
        app.waitUntil("the caret is hidden") { _ in (try? app.cursor().visible) == false }
        XCTAssertEqual(try record(1, in: "Seed")?["address"], .string("789 Town St. XY"))
    }
}
