import CNcurses
import SurveyUI
import XCTest
@testable import SurveyTerminal

final class KeyDecoderTests: XCTestCase {
    private func function(_ code: Int32) -> Key? {
        KeyDecoder.decode(code: UInt32(code), isFunctionKey: true)
    }

    private func character(_ code: UInt32) -> Key? {
        KeyDecoder.decode(code: code, isFunctionKey: false)
    }

    func testArrowsAndPaging() {
        XCTAssertEqual(function(KEY_UP), .up)
        XCTAssertEqual(function(KEY_DOWN), .down)
        XCTAssertEqual(function(KEY_LEFT), .left)
        XCTAssertEqual(function(KEY_RIGHT), .right)
        XCTAssertEqual(function(KEY_PPAGE), .pageUp)
        XCTAssertEqual(function(KEY_NPAGE), .pageDown)
    }

    func testEveryHomeAndEndSpelling() {
        for code in [KEY_HOME, KEY_FIND, KEY_A1] { XCTAssertEqual(function(code), .home) }
        for code in [KEY_END, KEY_SELECT, KEY_C1] { XCTAssertEqual(function(code), .end) }
        XCTAssertEqual(function(KEY_A3), .pageUp)
        XCTAssertEqual(function(KEY_C3), .pageDown)
    }

    func testEditingKeys() {
        XCTAssertEqual(function(KEY_BTAB), .backTab)
        XCTAssertEqual(function(KEY_BACKSPACE), .backspace)
        XCTAssertEqual(function(KEY_DC), .delete)
        XCTAssertEqual(function(KEY_ENTER), .enter)
    }

    func testFunctionKeysOneToTwelve() {
        XCTAssertEqual(KEY_F0, 0o410)
        for n in 1...12 { XCTAssertEqual(function(KEY_F0 + Int32(n)), .function(n)) }
        XCTAssertNil(function(KEY_F0))
        XCTAssertNil(function(KEY_F0 + 13))
    }

    func testUnusedCodesAreNil() {
        for code in [KEY_IC, KEY_B2, KEY_MOUSE, KEY_RESIZE, KEY_SHOME, KEY_SEND] {
            XCTAssertNil(function(code), "code \(code)")
        }
    }

    func testNamedControlCharacters() {
        XCTAssertEqual(character(9), .tab)
        XCTAssertEqual(character(10), .enter)
        XCTAssertEqual(character(13), .enter)
        XCTAssertEqual(character(27), .escape)
        XCTAssertEqual(character(127), .backspace)
        XCTAssertEqual(character(8), .backspace)
    }

    func testControlChordsByLetter() {
        XCTAssertEqual(character(17), .control("q"))
        XCTAssertEqual(character(19), .control("s"))
        XCTAssertEqual(character(3), .control("c"))
        XCTAssertEqual(character(14), .control("n"))
        XCTAssertEqual(character(1), .control("a"))
        XCTAssertEqual(character(26), .control("z"))
    }

    func testOtherControlsAreNil() {
        for code: UInt32 in [0, 28, 29, 30, 31, 0x80, 0x85, 0x9F] {
            XCTAssertNil(character(code), "code \(code)")
        }
    }

    func testPrintableScalars() {
        XCTAssertEqual(character(0x20), .character(" "))
        XCTAssertEqual(character(0x61), .character("a"))
        XCTAssertEqual(character(0x7E), .character("~"))
        XCTAssertEqual(character(0xA0), .character("\u{A0}"))
        XCTAssertEqual(character(0xE9), .character("é"))
        XCTAssertEqual(character(0x7F8E), .character("美"))
        XCTAssertEqual(character(0x1F3D9), .character("🏙"))
    }

    func testInvalidScalarsAreNil() {
        XCTAssertNil(character(0xD800))
        XCTAssertNil(character(0x110000))
    }
}

final class MetaChordTests: XCTestCase {
    func testEscFollowedByALetterIsAltAndByDeleteIsAltBackspace() {
        XCTAssertEqual(KeyDecoder.meta(following: UInt32(UInt8(ascii: "b"))), .meta("b"))
        XCTAssertEqual(KeyDecoder.meta(following: 127), .altBackspace)
        XCTAssertEqual(KeyDecoder.meta(following: 8), .altBackspace)
        XCTAssertNil(KeyDecoder.meta(following: 27), "Esc Esc is two Escs")
        XCTAssertNil(KeyDecoder.meta(following: 0xE9), "not an Alt chord: typed text")
    }

    func testControlArrowsDecodeFromTheirPrivateCodes() {
        XCTAssertEqual(KeyDecoder.decode(code: UInt32(KeyAliases.controlLeftCode), isFunctionKey: true), .controlLeft)
        XCTAssertEqual(KeyDecoder.decode(code: UInt32(KeyAliases.controlRightCode), isFunctionKey: true), .controlRight)
    }
}
