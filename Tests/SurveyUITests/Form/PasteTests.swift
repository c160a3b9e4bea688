import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// A bracketed paste is text for the text box of the moment, never a string of keys.
final class PasteTests: XCTestCase {
    private let age = Questionnaire.standard.fields[4]

    /// An empty document: the form has the focus on First name of the New form.
    private func newForm() -> AppState {
        let s = makeState([])
        XCTAssertEqual(s.inputMode, .formBrowsing)
        XCTAssertEqual(s.formItem, .field(0))
        return s
    }

    func testPastedLinesGoIntoTheHighlightedFieldAsOneLine() {
        var s = newForm()
        let effects = s.receivePaste("Mary Ann\nSmith\n42 Elm St")
        XCTAssertEqual(effects, [], "nothing is committed by a paste")
        XCTAssertEqual(s.editing?.entry, 0, "the paste starts editing First name")
        XCTAssertEqual(s.editing?.text, "Mary Ann Smith 42 Elm St")
        XCTAssertEqual(s.editing?.caret, 24)
        XCTAssertEqual(s.formItem, .field(0), "the highlight stays on First name")
        XCTAssertEqual(s.draft, Record(), "the New form is unchanged until the field is kept")
    }

    func testLineBreaksAndTabsBecomeOneSpaceEachAndATrailingLineBreakIsDropped() {
        var s = newForm()
        s.receivePaste("a\r\nb\rc\td\n\r\n")
        XCTAssertEqual(s.editing?.text, "a b c d")
    }

    func testAPasteGoesInAtTheCaretOfTheFieldBeingEdited() {
        var s = makeState()
        s.press(.enter, .enter, .left, .left)   // editing John, caret before "hn"
        s.receivePaste("ny\nJo")
        XCTAssertEqual(s.editing?.text, "Jony John")
        XCTAssertEqual(s.editing?.caret, 7)
    }

    func testSpreadsheetRowsPastedIntoAgeStayInAgeAndAreRefusedThere() {
        var s = makeState([])
        s.press(.down, .down, .down, .down)   // Age
        XCTAssertEqual(s.formItem, .field(4))
        s.receivePaste("31\t40\t52\n18\t22\t90\n7\t8\t9\n")
        XCTAssertEqual(s.editing?.entry, 4)
        XCTAssertEqual(s.editing?.text, "31 40 52 18 22 90 7 8 9")
        XCTAssertEqual(s.formItem, .field(4), "no tab moved on to another field")
        XCTAssertNil(s.press(.enter).first, "the age rule refuses it")
        XCTAssertEqual(s.statusText, "Age must be a whole number from 0 to 150, or empty")
        XCTAssertEqual(s.draft.text(for: age), "")
    }

    func testAPasteNeverPressesKeys() {
        var s = newForm()
        // Ctrl-Q, Esc, an F1 sequence, Enter and Ctrl-C inside the paste.
        let effects = s.receivePaste("x\u{11}y\u{1B}[11~\rz\u{03}")
        XCTAssertFalse(effects.contains(.quit))
        XCTAssertEqual(effects, [])
        XCTAssertEqual(s.inputMode, .formEditing, "still editing: no Enter, no Esc")
        XCTAssertNil(s.popover, "no help opened")
        XCTAssertEqual(s.editing?.text, "xy[11~ z")
        XCTAssertEqual(s.status, .init("Left out 3 control characters that a field cannot hold", kind: .error))
    }

    func testAPasteFillsTheRenameAndSaveAsBoxes() {
        var s = makeState()
        s.popovers.present(.documents)
        s.manager.take([DocumentSummary(name: "Field ", recordCount: 0, problem: nil, modified: nil, byteSize: 0)], in: s.managerContext)
        s.send(.documents(.manager(.beginRename)))
        s.receivePaste("Day\n2")
        XCTAssertEqual(s.manager.renaming?.text, "Field Day 2")
        XCTAssertNil(s.editing)

        s.send(.documents(.manager(.cancelRename)))
        s.popovers.present(.saveAs(TextInput(text: "")))
        s.receivePaste("Market\tStreet\r\n")
        XCTAssertEqual(s.popover, .saveAs(TextInput(text: "Market Street", original: "")))
    }

    func testAPasteWhereNothingTakesTextIsIgnoredWithAMessage() {
        var s = makeState()   // split layout, the list has the focus
        XCTAssertEqual(s.inputMode, .listPane)
        var expected = s
        s.receivePaste("Smith\n")
        expected.statusLine.tell("Paste ignored: there is no text box here")
        XCTAssertEqual(s, expected)

        s.press(.function(1))
        XCTAssertEqual(s.inputMode, .help)
        s.receivePaste("q")
        XCTAssertEqual(s.popover, .help)
        XCTAssertEqual(s.statusText, "Paste ignored: there is no text box here")
    }

    func testAPasteOnAButtonIsIgnored() {
        var s = newForm()
        s.press(.backTab, .backTab)   // wraps to [ Clear ]
        XCTAssertEqual(s.formItem, .clear)
        let effects = s.receivePaste("Mary\n")
        XCTAssertEqual(effects, [])
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.statusText, "Paste ignored: highlight a field to paste into it")
    }

    func testATabSeparatedRowFillsTheNewFormInOrder() {
        var s = newForm()
        let effects = s.receivePaste("Mary\tSmith\t42 Elm St\t555-0100\t42\r\n")
        XCTAssertEqual(effects, [.saveDraft])
        XCTAssertEqual(s.draft, record("Mary", "Smith", address: "42 Elm St", phone: "555-0100", age: 42))
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.formItem, .field(4), "the highlight is on the last field filled")
        XCTAssertEqual(s.statusText, "Pasted 5 values into the New form")
    }

    func testARowStopsAtAValueItsFieldRefusesAndLeavesItBeingEdited() {
        var s = newForm()
        let effects = s.receivePaste("Mary\tSmith\t\t\tabc\textra")
        XCTAssertEqual(effects, [.saveDraft], "the values before it are kept")
        XCTAssertEqual(s.draft, record("Mary", "Smith"))
        XCTAssertEqual(s.editing, EditBuffer(entry: 4, text: "abc", original: ""))
        XCTAssertEqual(s.statusText, "Age must be a whole number from 0 to 150, or empty")
        s.press(.escape)
        XCTAssertEqual(s.draft.text(for: age), "", "Esc puts the field back")
    }

    func testARowPastedOnARecordIsTextForTheHighlightedField() {
        var s = makeState()
        s.press(.enter)   // list → form, on John Smith's First name
        XCTAssertEqual(s.inputMode, .formBrowsing)
        XCTAssertEqual(s.receivePaste("A\tB"), [])
        XCTAssertEqual(s.editing?.text, "A B", "a paste over a highlighted answer replaces it, as typing does")
        XCTAssertEqual(Array(s.records), sampleRecords(), "no record is filled from a row")
    }

    func testNothingIsPastedBlindIntoATooSmallTerminal() {
        var s = newForm()
        s.send(.system(.resized(Size(width: 20, height: 8))))
        XCTAssertNil(KeyMap.action(for: .paste("Mary"), in: s))
        s.send(.system(.resized(Size(width: 120, height: 40))))
        XCTAssertEqual(KeyMap.action(for: .paste("Mary"), in: s), .text(.paste("Mary")))
    }
}

private extension AppState {
    /// A paste event through the real key table.
    @discardableResult
    mutating func receivePaste(_ text: String) -> [Effect] {
        guard let action = KeyMap.action(for: .paste(text), in: self) else { return [] }
        return update(&self, action)
    }
}
