import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// readline's editing keys in every text box: a form field, the `/` line, rename, save-as.
final class ShellEditingKeysTests: XCTestCase {
    func testEveryEditingKeyInAFormField() {
        var s = makeState()
        s.press(.enter, .down, .down, .enter)           // Address: "123 Any St."
        XCTAssertEqual(s.editing?.text, "123 Any St.")
        s.press(.control("a"))
        XCTAssertEqual(s.editing?.caret, 0)
        s.press(.control("e"))
        XCTAssertEqual(s.editing?.caret, 11)
        s.press(.meta("b"))
        XCTAssertEqual(s.editing?.caret, 8, "to the start of St")
        s.press(.controlLeft)
        XCTAssertEqual(s.editing?.caret, 4, "to the start of Any")
        s.press(.meta("f"))
        XCTAssertEqual(s.editing?.caret, 7, "to the end of Any")
        s.press(.controlRight)
        XCTAssertEqual(s.editing?.caret, 10, "to the end of St")
        s.press(.control("w"))
        XCTAssertEqual(s.editing?.text, "123 Any .", "Ctrl-W: the word before the caret")
        s.press(.altBackspace)
        XCTAssertEqual(s.editing?.text, "123 .", "Alt-Backspace: the same, with the blanks after the word")
        s.press(.control("k"))
        XCTAssertEqual(s.editing?.text, "123 ")
        s.press(.left, .control("u"))
        XCTAssertEqual(s.editing?.text, " ")
        XCTAssertEqual(s.editing?.caret, 0)
    }

    func testTheSameKeysWorkOnTheFilterLine() {
        var s = makeState()
        s.press(.character("/"))
        s.type("jones smith")
        s.press(.control("w"))
        XCTAssertEqual(s.list.filterInput?.text, "jones ")
        XCTAssertEqual(s.list.projection.count, 1, "the list follows the edit")
        s.press(.control("u"))
        XCTAssertEqual(s.list.projection.count, 2)
    }

    func testEditingKeysAreInTheHelp() {
        let help = KeyMap.helpBindings(for: .formEditing).map(\.keyLabel)
        XCTAssertTrue(help.contains("M-b/M-f ^←/^→"))
        XCTAssertTrue(help.contains("^W M-Bksp"))
        XCTAssertTrue(help.contains("^U/^K"))
    }
}
