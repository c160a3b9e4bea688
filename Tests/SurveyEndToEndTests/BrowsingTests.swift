import Foundation
import XCTest

/// Launch, the two layouts' first screen, moving between records, the form highlight and F1.
final class BrowsingTests: EndToEndTestCase {
    private static let johnSmith = ("John", "Smith", "123 Any St.", "555-1234", "20")
    private static let dorisJones = ("Doris", "Jones", "789 Town St.", "555-1234", "40")

    func testSplitLayoutShowsTheListBesideTheForm() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch(width: 120, height: 40)
        let screen = try XCTUnwrap(app.waitFor("Surveys (2)", "Smith, John", "[ Add ]"))
        let lines = ScreenText.lines(screen)
        XCTAssertTrue(lines[0].contains("Survey — Seed"), "top bar: \(lines[0])")
        XCTAssertTrue(lines[0].contains("1 of 2"), "top bar: \(lines[0])")
        XCTAssertFalse(screen.contains("[Surveys]"), "the split layout has no Surveys button")

        let smith = try XCTUnwrap(ScreenText.row(containing: "Smith, John", in: screen))
        let jones = try XCTUnwrap(ScreenText.row(containing: "Jones, Doris", in: screen))
        XCTAssertLessThan(smith.index, jones.index, "rows in file order")
        let firstName = try XCTUnwrap(ScreenText.row(containing: "First name", in: screen))
        XCTAssertLessThan(column(of: "Smith, John", in: smith.line), column(of: "First name", in: firstName.line),
                          "the list is left of the form")

        for label in ["First name", "Last name", "Address", "Phone", "Age", "[ Clear ]", "[ Add ]"] {
            XCTAssertTrue(screen.contains(label), "missing \(label)")
        }
        app.waitForRecord("John", "Smith", "123 Any St.", "555-1234", "20")
    }

    func testCollapsedLayoutShowsTheFormWithFocus() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch(width: 60, height: 24)
        let screen = try XCTUnwrap(app.waitFor("[Surveys]", "[ Add ]"))
        let top = ScreenText.lines(screen)[0]
        XCTAssertTrue(top.contains("Seed") && top.contains("1 of 2"), "top bar: \(top)")
        XCTAssertFalse(screen.contains("Surveys (2)"), "no list pane when collapsed")
        XCTAssertFalse(screen.contains("Smith, John"), "no list pane when collapsed")
        app.waitForRecord("John", "Smith", "123 Any St.", "555-1234", "20")

        // The form has focus: → shows the next record straight away.
        try app.press("Right")
        app.waitForRecord("Doris", "Jones", "789 Town St.", "555-1234", "40")
        app.waitFor("2 of 2")
    }

    func testListFollowsTheHighlightAndTheFormBrowsesRecords() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")

        // The list has focus: ↓/↑ move it and the form follows at once.
        try app.press("Down")
        app.waitForRecord("Doris", "Jones", "789 Town St.", "555-1234", "40")
        app.waitFor("2 of 2")
        try app.press("Up")
        app.waitForRecord("John", "Smith", "123 Any St.", "555-1234", "20")
        try app.press("Down")
        app.waitFor("2 of 2")

        // Enter gives the form focus; ←/→ step through records and stop at the ends.
        try app.press("Enter", "Left")
        app.waitForRecord("John", "Smith", "123 Any St.", "555-1234", "20")
        app.waitFor("1 of 2")
        try app.press("Left")
        app.waitFor("Already at the first record")
        try app.press("Right")
        app.waitForRecord("Doris", "Jones", "789 Town St.", "555-1234", "40")
        app.waitForAbsence(of: "Already at the first record")
        try app.press("Right")
        app.waitFor("Already at the last record")
        app.waitForRecord("Doris", "Jones", "789 Town St.", "555-1234", "40")
    }

    func testF1ShowsTheHighlightedFieldsInfo() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")
        try app.press("Enter", "Down", "Down", "Down", "Down", "F1")
        let info = "If the survey taker refuses, that is okay"
        let screen = try XCTUnwrap(app.waitFor(info))
        let top = try XCTUnwrap(ScreenText.row(containing: "┌", in: screen))
        XCTAssertTrue(top.line.contains("Age"), "the help box is titled with the field: \(top.line)")

        try app.press("Escape")
        app.waitForAbsence(of: info)
        try app.press("F1")
        app.waitFor(info)
        try app.press("F1")
        app.waitForAbsence(of: info)
    }

    /// F1 names the highlighted item, so it shows where ↑/↓ (stop) and Tab/S-Tab (wrap) went.
    func testHighlightStopsWithArrowsAndWrapsWithTab() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")
        let firstNameInfo = "The survey taker's given name."
        let addInfo = "Adds what the form shows"
        func expectHelp(_ info: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try app.press("F1")
            app.waitFor(info, file: file, line: line)
            try app.press("Escape")
            app.waitForAbsence(of: info, file: file, line: line)
        }
        try app.press("Enter", "Up")          // ↑ on First name stays there
        try expectHelp(firstNameInfo)
        try app.press("BTab")                 // Shift-Tab wraps to [ Add ]
        try expectHelp(addInfo)
        try app.press("Tab")                  // Tab wraps back to First name
        try expectHelp(firstNameInfo)
        try app.press("Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down")
        try expectHelp(addInfo)               // ↓ stops at [ Add ]
        try app.press("Tab", "Tab")           // Tab wraps from [ Add ] to First name, then Last name
        try expectHelp("The survey taker's family name.")
        try app.press("Tab", "Tab", "Tab", "Tab")
        try expectHelp("Empties the form for a new survey.")   // [ Clear ]
    }

    private func column(of text: String, in line: String) -> Int {
        guard let range = line.range(of: text) else { return -1 }
        return line.distance(from: line.startIndex, to: range.lowerBound)
    }
}
