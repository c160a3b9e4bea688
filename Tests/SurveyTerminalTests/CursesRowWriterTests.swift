#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CNcurses
import SurveyUI
import XCTest
@testable import SurveyTerminal

final class CursesRowWriterTests: XCTestCase {
    override func setUp() {
        TextWidth.ensureUTF8Locale()   // wcwidth calls every non-ASCII character -1 under C
    }

    func testNarrowScalarsAreOneColumnSingleScalarsAndNothingElse() {
        XCTAssertEqual(CursesRowWriter.narrowScalar("a"), 0x61)
        XCTAssertEqual(CursesRowWriter.narrowScalar("ë"), 0xEB)
        XCTAssertEqual(CursesRowWriter.narrowScalar("Ж"), 0x416)
        XCTAssertEqual(CursesRowWriter.narrowScalar("λ"), 0x3BB)
        XCTAssertEqual(CursesRowWriter.narrowScalar("\u{FFFD}"), 0xFFFD)
        XCTAssertNil(CursesRowWriter.narrowScalar("太"), "two columns")
        XCTAssertNil(CursesRowWriter.narrowScalar("😀"), "two columns")
        XCTAssertNil(CursesRowWriter.narrowScalar("e\u{301}"), "a combining mark: two scalars")
        XCTAssertNil(CursesRowWriter.narrowScalar("\u{2601}\u{FE0F}"), "VS16 makes it wide in the grid")
        XCTAssertNil(CursesRowWriter.narrowScalar("\u{301}"), "a lone mark is zero columns")
        XCTAssertNil(CursesRowWriter.narrowScalar("\u{7}"), "C0 control")
        XCTAssertNil(CursesRowWriter.narrowScalar("\u{85}"), "C1 control")
        XCTAssertNil(CursesRowWriter.narrowScalar("\u{378}"), "unassigned: wcwidth -1")
        XCTAssertNil(CursesRowWriter.narrowScalar(""), "a wide character's continuation")
        XCTAssertNil(CursesRowWriter.narrowScalar("ab"))
    }

    func testANarrowSpanStopsAtAnythingWiderOrCombined() {
        var grid = CellGrid(size: Size(width: 12, height: 2))
        grid.put("Zoë Жλ 太郎", x: 0, y: 0)
        grid.put("e\u{301}x", x: 0, y: 1)
        XCTAssertTrue(CursesRowWriter.isNarrow(row: 0, columns: 0..<7, of: grid))
        XCTAssertFalse(CursesRowWriter.isNarrow(row: 0, columns: 5..<8, of: grid), "太 and its continuation")
        XCTAssertFalse(CursesRowWriter.isNarrow(row: 0, columns: 8..<9, of: grid), "a continuation alone")
        XCTAssertFalse(CursesRowWriter.isNarrow(row: 1, columns: 0..<2, of: grid))
        XCTAssertTrue(CursesRowWriter.isNarrow(row: 1, columns: 1..<2, of: grid))
    }

    /// ncurses 6.4 flushes after every cursor move until its screen has been through
    /// `endwin` and a refresh; after `Terminal.leaveInitialState` a frame that moves the
    /// cursor several times must reach the terminal in one `write`. A SOCK_SEQPACKET socket
    /// keeps each write a message of its own, so they can be counted.
    func testAFrameWithManyCursorMovesIsOneWrite() throws {
        var sockets: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &sockets), 0)
        defer { close(sockets[1]) }
        guard let output = fdopen(sockets[0], "w"), let input = fopen("/dev/null", "r") else {
            return XCTFail("fdopen")
        }
        defer { fclose(output); fclose(input) }
        guard let screen = newterm("xterm-256color", output, input) else {
            // ncurses-base, which `make test` installs with libncurses-dev, always has it.
            return XCTFail("no xterm-256color terminfo entry")
        }
        defer { delscreen(screen) }
        defer { endwin() }
        Terminal.leaveInitialState()
        _ = Self.messages(on: sockets[1])   // start-up output

        let window = shim_stdscr()
        for (y, text) in [(2, "first"), (7, "second"), (12, "third"), (17, "fourth")] {
            _ = mvwaddstr(window, Int32(y), Int32(3 * y), text)
        }
        wmove(window, 20, 5)
        wnoutrefresh(window)
        doupdate()
        let frame = Self.messages(on: sockets[1])
        XCTAssertEqual(frame.count, 1, "one write per frame; got \(frame.map { String(decoding: $0, as: UTF8.self) })")
        XCTAssertTrue(String(decoding: frame.joined(), as: UTF8.self).contains("fourth"))
    }

    /// Every message waiting on a SOCK_SEQPACKET socket, one per `write` at the other end.
    private static func messages(on socket: Int32) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { return messages }
            messages.append(Array(buffer[0..<count]))
        }
    }
}
