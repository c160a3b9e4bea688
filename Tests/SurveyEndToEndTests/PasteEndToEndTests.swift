import Foundation
import XCTest

/// Pasting is not typing: the app turns on bracketed paste, and a paste goes into the field
/// as one line of text, pressing no key.
final class PasteEndToEndTests: EndToEndTestCase {
    func testPastedLinesGoIntoTheHighlightedFieldAsOneLine() throws {
        let app = try launch()
        app.waitFor("New survey", "First name")
        try app.paste("Mary Ann\nSmith\n42 Elm St")
        let pasted = try XCTUnwrap(app.waitForField("First name", "Mary Ann Smith 42 Elm St"))
        XCTAssertEqual(ScreenText.formValue("Last name", in: pasted), "", "no line break moved on to Last name")
        XCTAssertTrue(try app.cursor().visible, "still editing: no line break was Enter")
        try app.press("Tab")
        try app.paste("31\t40\t52\n")
        app.waitForField("Last name", "31 40 52")
        XCTAssertEqual(ScreenText.formValue("Age", in: try app.screen()), "", "the tabs did not move on to Age")
    }

    func testAPasteNeverPressesKeysAndBracketedPasteEndsWithTheApp() throws {
        let app = try launch()
        app.waitFor("New survey", "First name")
        // Ctrl-Q, F1 (ESC O P) and a line break inside the paste.
        try app.paste("x\u{11}y\u{1B}OP z\n")
        app.waitForField("First name", "xy z")
        let screen = try XCTUnwrap(app.waitFor("Left out 1 control character that a field cannot hold"))
        XCTAssertTrue(screen.contains("Enter Keep"), "the bar is still the editing one")
        XCTAssertFalse(screen.contains("Esc Close"), "F1 inside the paste opened no help:\n\(TmuxSession.framed(screen))")
        XCTAssertTrue(try app.cursor().visible, "still editing")

        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        // With the mode left on, the terminal would wrap this paste in ESC [200~ markers,
        // which the tty echoes as ^[[200~.
        try app.paste("after")
        let after = try XCTUnwrap(app.waitFor("after"))
        XCTAssertFalse(after.contains("200~"), "bracketed paste is off after exit:\n\(TmuxSession.framed(after))")
    }
}
