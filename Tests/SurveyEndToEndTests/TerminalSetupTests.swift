import Foundation
import XCTest

/// Which terminal the app draws on, and the terminals it refuses: with stdout or stdin
/// redirected it draws on the controlling terminal (/dev/tty); a TERM that cannot move the
/// cursor is refused with the reason and status 2, before any document is created.
final class TerminalSetupTests: EndToEndTestCase {
    private var outputFile: URL { folder.deletingLastPathComponent().appendingPathComponent("out.txt") }

    /// `bash -c` running the app with one redirection.
    private func redirecting(_ redirection: String) -> [String] {
        ["/usr/bin/env", "bash", "-c", "exec \"$@\" \(redirection)", "survey-redirect"]
    }

    func testWithStdoutRedirectedTheAppDrawsOnTheTerminalAndQuits() throws {
        let app = try launch(through: redirecting("> '\(outputFile.path)'"))
        app.waitFor("New survey", "First name")
        try app.type("Ann")
        app.waitForField("First name", "Ann")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0, "Ctrl-Q reaches the app: the terminal is in raw mode")
        let modes = Set(try app.terminalModesAfterExit().components(separatedBy: CharacterSet(charactersIn: " ;\n")))
        for mode in ["icanon", "echo", "isig"] { XCTAssertTrue(modes.contains(mode), "stty shows \(mode) after the app exits") }
        XCTAssertEqual(try Data(contentsOf: outputFile), Data(), "nothing drawn went into the redirected stdout")
        XCTAssertTrue(try folderContents().contains(".Untitled.draft.plist"), "the typed field was kept")
    }

    func testWithStdinRedirectedTheAppReadsKeysFromTheTerminal() throws {
        let app = try launch(through: redirecting("< /dev/null"))
        app.waitFor("New survey", "First name")
        try app.type("Bo")
        app.waitForField("First name", "Bo")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
    }

    func testADumbTerminalIsRefusedBeforeAnyDocumentIsCreated() throws {
        let app = try launch(width: 200, through: ["/usr/bin/env", "TERM=dumb"])
        app.waitFor("survey: the terminal \"dumb\" cannot move the cursor; run survey in a full-screen terminal (TERM=xterm-256color")
        XCTAssertEqual(app.waitForExit(), 2)
        XCTAssertEqual(try folderContents(), [], "no Untitled.plist: the data was not touched")
    }

    func testAnUnsetOrUnknownTermIsRefused() throws {
        let unset = try launch(width: 200, through: ["/usr/bin/env", "-u", "TERM"])
        unset.waitFor("survey: TERM is not set")
        XCTAssertEqual(unset.waitForExit(), 2)
        let unknown = try launch(width: 200, through: ["/usr/bin/env", "TERM=no-such-terminal"])
        unknown.waitFor("survey: the terminal \"no-such-terminal\" is unknown")
        XCTAssertEqual(unknown.waitForExit(), 2)
        XCTAssertEqual(try folderContents(), [])
    }
}
