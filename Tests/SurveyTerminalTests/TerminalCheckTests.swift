#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import XCTest
@testable import SurveyTerminal

/// The terminfo check that refuses a terminal survey cannot draw a full screen on.
final class TerminalCheckTests: XCTestCase {
    private func problem(term: String) -> TerminalUnavailable? {
        do {
            try TerminalDevice.checkCapabilities(term: term, descriptor: STDERR_FILENO)
            return nil
        } catch {
            return error as? TerminalUnavailable
        }
    }

    func testATerminalThatCanMoveTheCursorPasses() {
        XCTAssertNil(problem(term: "xterm-256color"))
        XCTAssertNil(problem(term: "tmux-256color"))
    }

    func testDumbIsRefusedBecauseItCannotMoveTheCursor() {
        XCTAssertEqual(problem(term: "dumb"), .cannotMoveCursor("dumb"))
        XCTAssertEqual(TerminalUnavailable.cannotMoveCursor("dumb").description,
                       "the terminal \"dumb\" cannot move the cursor; run survey in a full-screen terminal "
                       + "(TERM=xterm-256color, tmux-256color, linux, ...)")
    }

    func testUnknownAndUnsetTerminalsAreRefused() {
        XCTAssertEqual(problem(term: "no-such-terminal-survey"), .unknownTerminal("no-such-terminal-survey"))
        XCTAssertEqual(problem(term: ""), .termUnset)
    }
}
