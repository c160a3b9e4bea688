import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Editing one answer of the five-field form: the caret, Enter and Tab committing and moving
/// on, Esc restoring, an age refused with the typed text kept, and quitting mid-edit.
final class FieldEditingTests: XCTestCase {
    private func editingFirstName() -> AppState {
        var s = makeState()
        s.press(.enter, .enter)
        XCTAssertEqual(s.editing?.text, "John")
        return s
    }

    func testCaretMovesAndDeletes() {
        var s = editingFirstName()
        s.press(.left, .left)
        s.type("X")
        XCTAssertEqual(s.editing?.text, "JoXhn")
        s.press(.backspace)
        XCTAssertEqual(s.editing?.text, "John")
        s.press(.delete)
        XCTAssertEqual(s.editing?.text, "Jon")
        s.press(.home)
        s.type("<")
        s.press(.end)
        s.type(">")
        XCTAssertEqual(s.editing?.text, "<Jon>")
        XCTAssertEqual(s.editing?.caret, 5)
        s.press(.right, .home, .left, .backspace)
        XCTAssertEqual(s.editing?.caret, 0, "caret stops at the start")
    }

    func testEnterCommitsSavesAndGoesOnEditingTheNextField() {
        var s = editingFirstName()
        s.type("ny")
        let effects = s.press(.enter)
        XCTAssertEqual(effects, [.saveDocument])
        XCTAssertEqual(s.editing?.entry, 1, "heads-down: Enter goes on to Last name, still editing")
        XCTAssertEqual(s.formItem, .field(1))
        XCTAssertEqual(s.records[0].text(for: Questionnaire.standard.fields[0]), "Johnny")
        XCTAssertEqual(s.records[0].listTitle, "Smith, Johnny")
    }

    func testUnchangedCommitWritesNothing() {
        var s = editingFirstName()
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.editing?.entry, 1)
    }

    func testEnterOnTheLastFieldLandsOnAdd() {
        var s = editingFirstName()
        s.press(.enter, .enter, .enter, .enter)
        XCTAssertEqual(s.editing?.entry, 4, "Age")
        s.press(.backspace)
        s.type("7")
        XCTAssertEqual(s.press(.enter), [.saveDocument])
        XCTAssertNil(s.editing, "after the last question nothing is being typed")
        XCTAssertEqual(s.formItem, .add, "the highlight rests on [ Add ]")
    }

    func testEscRestoresTheField() {
        var s = editingFirstName()
        s.press(.backspace, .backspace)
        let effects = s.press(.escape)
        XCTAssertEqual(effects, [])
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.shownForm.fieldText(0), "John")
        XCTAssertEqual(s.inputMode, .formBrowsing)
    }

    func testTabCommitsAndKeepsEditingOnTheNextField() {
        var s = editingFirstName()
        s.type("!")
        let effects = s.press(.tab)
        XCTAssertEqual(effects, [.saveDocument])
        XCTAssertEqual(s.editing?.entry, 1)
        XCTAssertEqual(s.editing?.text, "Smith")
        s.press(.backTab)
        XCTAssertEqual(s.editing?.entry, 0)
        XCTAssertEqual(s.editing?.text, "John!")
    }

    func testDownFromAgeLandsOnClearAndStopsEditing() {
        var s = editingFirstName()
        s.press(.down, .down, .down, .down)
        XCTAssertEqual(s.editing?.entry, 4)
        s.press(.down)
        XCTAssertEqual(s.formItem, .clear)
        XCTAssertNil(s.editing)
        s.press(.up)
        XCTAssertEqual(s.formItem, .field(4))
    }

    func testUpOnFirstFieldStaysEditing() {
        var s = editingFirstName()
        s.press(.up)
        XCTAssertEqual(s.editing?.entry, 0)
    }

    func testBadAgeKeepsTextKeepsEditingAndSaysWhy() {
        var s = makeState()
        s.press(.enter, .down, .down, .down, .down, .enter, .backspace, .backspace)
        s.type("abc")
        for key in [Key.enter, .tab, .down, .function(1), .function(2), .control("n")] {
            XCTAssertEqual(s.press(key), [], "\(key) is refused")
            XCTAssertEqual(s.editing?.text, "abc")
            XCTAssertEqual(s.editing?.entry, 4)
            XCTAssertEqual(s.statusText, "Age must be a whole number from 0 to 150, or empty")
            XCTAssertEqual(s.status?.kind, .error)
            XCTAssertNil(s.popover)
        }
        XCTAssertEqual(s.records[0].values["age"], .integer(20), "nothing stored")
        s.press(.escape)
        XCTAssertEqual(s.shownForm.fieldText(4), "20")
    }

    func testAgeBoundaries() {
        for (typed, ok) in [("0", true), ("150", true), ("151", false), ("-1", false), ("4.5", false), ("", true)] {
            var s = makeState()
            s.press(.enter, .down, .down, .down, .down, .enter, .backspace, .backspace)
            s.type(typed)
            let effects = s.press(.enter)
            XCTAssertEqual(effects.isEmpty, !ok, "age \"\(typed)\"")
            XCTAssertEqual(s.editing == nil, ok, "age \"\(typed)\"")
        }
    }

    func testEmptyAgeRemovesTheKey() {
        var s = makeState()
        s.press(.enter, .down, .down, .down, .down, .enter, .backspace, .backspace, .enter)
        XCTAssertNil(s.records[0].values["age"])
    }

    func testQuitStillWorksWithARefusedValue() {
        var s = makeState()
        s.press(.enter, .down, .down, .down, .down)
        s.type("x")
        XCTAssertEqual(s.press(.control("q")), [.quit])
        XCTAssertEqual(s.records[0].values["age"], .integer(20))
    }

    func testQuitCommitsAValidField() {
        var s = editingFirstName()
        s.type("ny")
        XCTAssertEqual(s.press(.control("c")), [.saveDocument, .quit])
        XCTAssertEqual(s.records[0].listTitle, "Smith, Johnny")
    }

    func testF1CommitsFirstThenShowsTheFieldInfo() {
        var s = makeState()
        s.press(.enter, .down, .down, .down, .down, .enter, .backspace)
        s.type("5")
        XCTAssertEqual(s.press(.function(1)), [.saveDocument])
        XCTAssertEqual(s.popover, .help)
        XCTAssertEqual(s.records[0].values["age"], .integer(25))
        s.press(.escape)
        XCTAssertNil(s.popover)
    }

    func testControlCharactersCannotBeTyped() {
        var s = editingFirstName()
        s.send(.text(.insert("\u{7}")))
        XCTAssertEqual(s.editing?.text, "John")
        XCTAssertEqual(s.status?.kind, .error)
    }

    func testHalfTypedTextSurvivesResizesBothWays() {
        var s = editingFirstName()
        s.type("ath")
        s.send(.system(.resized(Size(width: 60, height: 20))))
        XCTAssertEqual(s.layout.kind, .collapsed)
        s.send(.system(.resized(Size(width: 5, height: 3))))
        XCTAssertEqual(s.layout.kind, .tooSmall)
        s.send(.system(.resized(Size(width: 120, height: 40))))
        XCTAssertEqual(s.editing?.text, "Johnath")
        XCTAssertEqual(s.editing?.caret, 7)
        XCTAssertEqual(s.screen.focus, .form)
        XCTAssertEqual(s.shown, .record(0))
    }
}
