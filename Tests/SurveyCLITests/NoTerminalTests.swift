import Foundation
import XCTest
import SurveyTestSupport

/// Without a terminal anywhere (no tty on stdin or stdout, no controlling terminal) the app
/// refuses at once with status 2, before any document is created.
final class NoTerminalTests: CLITestCase {
    func testTheAppRefusesWithoutAControllingTerminal() throws {
        var environment = childEnvironment
        environment["TERM"] = "xterm-256color"
        // setsid: a new session has no controlling terminal, so /dev/tty cannot be opened.
        let outcome = try ChildProcess.run(["setsid", "-w", "timeout", "20", Self.binary.path, "--dir", documents.path],
                                           environment: environment)
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.errors, "survey: no terminal to draw on: standard input and output are not a terminal "
                       + "and /dev/tty cannot be opened (No such device or address); run survey from a terminal, "
                       + "or use `survey list` or `survey export` in scripts\n")
        XCTAssertEqual(outcome.output, "")
        XCTAssertEqual(try folderContents(), [], "no Untitled.plist: the data was not touched")
    }
}
