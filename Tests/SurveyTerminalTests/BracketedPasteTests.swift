import CNcurses
import XCTest
@testable import SurveyTerminal

/// What is read between `ESC [200~` and `ESC [201~` becomes one text, however it looks.
final class BracketedPasteTests: XCTestCase {
    /// Reads as `get_wch` would return them after the start marker; nil is silence.
    private final class Script {
        var reads: [BracketedPaste.Read?]
        init(_ reads: [BracketedPaste.Read?]) { self.reads = reads }
        func next() -> BracketedPaste.Read? { reads.isEmpty ? nil : reads.removeFirst() }
    }

    private func text(_ s: String) -> [BracketedPaste.Read?] {
        s.unicodeScalars.map { (OK, $0.value) }
    }

    private func key(_ code: Int32) -> BracketedPaste.Read? { (KEY_CODE_YES, UInt32(code)) }

    func testTheWholePasteUpToTheEndMarkerIsOneText() {
        let script = Script(text("Mary Ann\rSmith\n42 Elm St") + [key(BracketedPaste.endCode)] + text("x"))
        let pasted = BracketedPaste.collect(from: script.next)
        XCTAssertEqual(pasted.text, "Mary Ann\rSmith\n42 Elm St", "line breaks stay text, never Enter")
        XCTAssertFalse(pasted.resized)
        XCTAssertEqual(script.reads.count, 1, "what follows the end marker is left for the next read")
    }

    func testKeysInsideAPasteAreDroppedAndControlsStayCharacters() {
        let script = Script(text("a\u{11}\t") + [key(KEY_UP), key(KEY_F0 + 1), key(KEY_ENTER)] + text("b\u{3}")
                            + [key(BracketedPaste.endCode)])
        XCTAssertEqual(BracketedPaste.collect(from: script.next).text, "a\u{11}\tb\u{3}")
    }

    func testAPasteWithoutItsEndMarkerEndsAtSilence() {
        let script = Script(text("abc") + [nil] + text("d"))
        XCTAssertEqual(BracketedPaste.collect(from: script.next).text, "abc")
        XCTAssertEqual(script.reads.count, 1)
    }

    func testAResizeInsideAPasteIsReported() {
        let script = Script(text("ab") + [key(KEY_RESIZE)] + text("c") + [key(BracketedPaste.endCode)])
        let pasted = BracketedPaste.collect(from: script.next)
        XCTAssertEqual(pasted.text, "abc")
        XCTAssertTrue(pasted.resized)
    }

    func testTheMarkerCodesAreNoCursesKeyAndDecodeToNothing() {
        XCTAssertGreaterThan(BracketedPaste.startCode, KEY_MAX)
        XCTAssertNil(KeyDecoder.decode(code: UInt32(BracketedPaste.startCode), isFunctionKey: true))
        XCTAssertNil(KeyDecoder.decode(code: UInt32(BracketedPaste.endCode), isFunctionKey: true))
    }
}
