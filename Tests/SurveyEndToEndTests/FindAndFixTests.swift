import Foundation
import XCTest

/// Finding and fixing records in the real binary: `/` search, F6 sections, the shell's
/// editing keys, and delete + undo checked with plistlib.
final class FindAndFixTests: EndToEndTestCase {
    func testFilterNarrowsAndSectionsGroupInTheRealTerminal() throws {
        try installFixture("plistlib-unicode.plist", as: "Unicode")
        let app = try launch()
        app.waitFor("Surveys (5)")
        try app.press("/")
        try app.type("umea")
        app.waitFor("Surveys (0 of 5)", "No surveys match “umea”")
        try app.press("C-u")
        try app.type("zoe")
        app.waitFor("Surveys (1 of 5)", "O'Brien, Zoë", "/ zoe")
        try app.press("Enter")
        app.waitFor("1 of 1")
        try app.press("/", "Escape")
        app.waitFor("Surveys (5)")
        try app.press("F6")
        let screen = try XCTUnwrap(app.waitFor("Sections A–Z by last name"))
        let rows = ["Haddad, Omar", "Lima, Ana", "Núñez, José", "O'Brien, Zoë", "山田, 美咲"]
            .map { ScreenText.row(containing: $0, in: screen)?.index ?? -1 }
        XCTAssertEqual(rows, rows.sorted(), "sorted by last name:\n\(TmuxSession.framed(screen))")
        XCTAssertFalse(rows.contains(-1))
        XCTAssertNotNil(ScreenText.row(containing: " #", in: screen), "CJK under #")
    }

    func testShellEditingKeysInAField() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")
        try app.press("Enter", "Down", "Down", "Enter")       // Address: 123 Any St.
        app.waitForField("Address", "123 Any St.")
        try app.press("M-b", "C-w")
        app.waitForField("Address", "123 St.")
        try app.press("C-a", "C-k")
        app.waitForField("Address", "")
        try app.type("1 Elm Road")
        try app.press("C-Left", "M-BSpace")
        app.waitForField("Address", "1 Road")
        try app.press("Enter")
        XCTAssertEqual(try record(0, in: "Seed")?["address"], .string("1 Road"))
    }

    func testDeleteThenUndoAreOnDiskAtOnce() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")
        try app.press("d")
        app.waitFor("Delete “Smith, John”? y/n")
        try app.press("y")
        app.waitFor("Deleted “Smith, John”: Ctrl-Z brings it back", "Surveys (1)")
        XCTAssertEqual(try records(in: "Seed").map { $0["firstName"] }, [.string("Doris")])
        try app.press("C-z")
        app.waitFor("Undid delete of “Smith, John”", "Surveys (2)")
        XCTAssertEqual(try records(in: "Seed").map { $0["firstName"] }, [.string("John"), .string("Doris")])
        try app.press("C-y")
        app.waitFor("Redid delete of “Smith, John”")
        XCTAssertEqual(try records(in: "Seed").count, 1)
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0, "Ctrl-Z and Ctrl-Y never stopped the app")
    }
}

/// NO_COLOR (no-color.org): no colour at all, and the focus still shows.
final class NoColorTests: EndToEndTestCase {
    /// The SGR sequences that set a colour (30–37, 40–47, 90–97, 100–107, 38;…, 48;…); the
    /// resets to the default colours (39, 49) are not colours.
    private func colours(in screen: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "\u{1B}\\[([0-9;]*)m")
        let range = NSRange(screen.startIndex..., in: screen)
        return pattern.matches(in: screen, range: range).compactMap { match -> String? in
            guard let r = Range(match.range(at: 1), in: screen) else { return nil }
            let params = screen[r].split(separator: ";").compactMap { Int($0) }
            let colour = params.contains { (30...38).contains($0) || (40...48).contains($0) || (90...97).contains($0) || (100...107).contains($0) }
            return colour ? String(screen[r]) : nil
        }
    }

    func testNoColorDrawsWithoutColourAndStillShowsTheFocus() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let coloured = try launch()
        coloured.waitFor("Surveys (2)")
        try coloured.press("Enter")
        coloured.waitFor("Survey 1 of 2")
        XCTAssertFalse(colours(in: try coloured.screenWithAttributes()).isEmpty, "colours are used by default")

        let plain = try launch(through: ["/usr/bin/env", "NO_COLOR=1"])
        plain.waitFor("Surveys (2)")
        try plain.press("Enter")
        plain.waitFor("Survey 1 of 2")
        let screen = try plain.screenWithAttributes()
        XCTAssertEqual(colours(in: screen), [], "no colour with NO_COLOR")
        XCTAssertTrue(screen.contains("\u{1B}[7m") || screen.contains(";7m"), "the highlighted field in reverse video")
        XCTAssertTrue(try plain.screen().contains("›Smith, John"), "the shown record marked in the list")
    }
}
