import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// The New form (the draft) and the record buttons: Ctrl-N, Add from the draft or as a copy,
/// Clear, and a failed save or Add putting back everything typed.
final class DraftAddAndClearTests: XCTestCase {
    let first = Questionnaire.standard.fields[0]

    func testCtrlNGoesToTheDraftEditingFirstName() {
        var s = makeState()
        s.press(.control("n"))
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.editing?.entry, 0)
        XCTAssertEqual(s.screen.focus, .form)
        XCTAssertEqual(s.positionTitle, "New")
    }

    func testDraftKeepsItsTextWhileBrowsing() {
        var s = makeState()
        s.press(.control("n"))
        s.type("Ada")
        XCTAssertEqual(s.press(.tab), [.saveDraft])
        s.type("Lovelace")
        s.press(.enter, .function(2), .down, .enter)
        XCTAssertEqual(s.shown, .record(1))
        s.press(.control("n"))
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.shownForm.fieldText(0), "Ada")
        XCTAssertEqual(s.draft.listTitle, "Lovelace, Ada")
    }

    /// The next respondent's name is never typed onto the last one's (`ui1Bob`).
    func testCtrlNOnANewFormHoldingAnswersShowsItWithoutEditing() {
        var s = makeState(draft: record("ui1", ""))
        s.press(.function(2), .down)
        s.press(.control("n"))
        XCTAssertNil(s.editing, "not editing inside the held survey")
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.formItem, .field(0))
        XCTAssertEqual(s.screen.focus, .form)
        XCTAssertEqual(s.statusText, "The New form holds an unsaved survey (ui1): press Enter to edit it, or [ Clear ] to start afresh")
        s.type("Bob")
        XCTAssertNil(s.editing, "heads-down typing does not land in the held survey")
        XCTAssertEqual(s.draft.listTitle, "ui1")
        XCTAssertEqual(s.statusText, "The New form holds an unsaved survey (ui1): press Enter to edit it, or [ Clear ] to start afresh")
        s.press(.enter)
        XCTAssertEqual(s.editing?.text, "ui1", "Enter edits it on purpose")
        // An empty New form starts editing at once, as before.
        var t = makeState()
        t.press(.control("n"))
        XCTAssertEqual(t.editing?.text, "")
    }

    /// A phone stored as a list shows a placeholder; typing must not turn the placeholder into data.
    func testAValueTheFormCannotShowAsTextIsReadOnly() {
        var john = record("John", "Smith")
        john.values["phone"] = .array([.string("555-1"), .string("555-2")])
        var s = makeState([john])
        s.press(.enter, .down, .down, .down)
        XCTAssertEqual(s.formItem, .field(3))
        XCTAssertEqual(s.shownForm.fieldText(3), "(list of 2 items)")
        s.type("3")
        XCTAssertNil(s.editing)
        s.press(.enter)
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.statusText, "Phone holds a value the form cannot edit as text (list of 2 items): it is kept as it is")
        XCTAssertEqual(s.records[0].values["phone"], .array([.string("555-1"), .string("555-2")]))
        // Other fields of that record still edit.
        s.press(.up, .enter)
        XCTAssertEqual(s.editing?.entry, 2)
    }

    func testAddFromTheDraftAppendsSelectsAndEmptiesIt() {
        var s = makeState()
        s.press(.control("n"))
        s.type("Ada")
        s.press(.tab)
        s.type("Lovelace")
        s.press(.enter, .enter, .enter, .enter)   // heads-down past Address, Phone, Age
        XCTAssertEqual(s.formItem, .add)
        let effects = s.press(.enter)
        XCTAssertEqual(effects.withoutKeyedNote, [.saveDocument, .saveDraft])
        XCTAssertEqual(s.recordCount, 3)
        XCTAssertEqual(s.shown, .record(2))
        XCTAssertEqual(s.list.rows.cursor, 2)
        XCTAssertEqual(s.records[2].listTitle, "Lovelace, Ada")
        XCTAssertEqual(s.records[2].values["address"], .string(""), "every text answer is written, as the original app did")
        XCTAssertEqual(s.records[2].values["phone"], .string(""))
        XCTAssertNil(s.records[2].values["age"], "no age: the key is left out")
        XCTAssertTrue(s.draft.isBlank(in: .standard))
        XCTAssertEqual(s.statusText, "Added survey 3: Lovelace, Ada")
    }

    func testAddFromARecordMakesACopyAndKeepsTheDraft() {
        var s = makeState(draft: record("Half", "Typed"))
        s.press(.down, .enter, .backTab)
        XCTAssertEqual(s.formItem, .add)
        XCTAssertEqual(s.press(.enter), [], "a copy is asked for, never added by one Enter")
        XCTAssertEqual(s.statusText, "Add a copy of “Jones, Doris” as another survey? y/n")
        XCTAssertEqual(s.press(.character("y")), [.saveDocument])
        XCTAssertEqual(s.recordCount, 3)
        XCTAssertEqual(s.records[2], s.records[1])
        XCTAssertEqual(s.shown, .record(2))
        XCTAssertEqual(s.draft.listTitle, "Typed, Half")
    }

    func testAddingABlankFormIsRefused() {
        var s = makeState()
        s.press(.control("n"), .escape, .backTab)
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.statusText, "Nothing to add: the form is empty")
    }

    func testClearOnDraftEmptiesIt() {
        var s = makeState(draft: record("Half", "Typed"))
        s.press(.control("n"))
        XCTAssertEqual(s.inputMode, .formBrowsing, "a half-typed New form opens for browsing, not editing")
        s.press(.backTab, .backTab)
        XCTAssertEqual(s.formItem, .clear)
        XCTAssertEqual(s.press(.enter), [.saveDraft])
        XCTAssertTrue(s.draft.isBlank(in: .standard))
        XCTAssertEqual(s.shown, .draft)
    }

    func testClearOnRecordSwitchesToEmptyDraftAndLeavesRecord() {
        var s = makeState()
        let before = s.records
        s.press(.enter, .backTab, .backTab)
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.records, before)
        XCTAssertEqual(s.shownForm.fieldText(0), "")
    }

    func testFailedAddRestoresEverythingTyped() {
        var s = makeState()
        s.press(.control("n"))
        s.type("Ada")
        s.press(.enter, .escape, .up, .backTab)
        s.press(.enter)
        XCTAssertEqual(s.recordCount, 3)
        s.send(.outcome(.saving(.failed("No space left on device"))))
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.draft.text(for: first), "Ada")
        XCTAssertEqual(s.status?.kind, .error)
        XCTAssertTrue(s.statusText?.contains("No space left on device") ?? false)
    }

    func testFailedFieldSaveResumesEditingWithTheTypedText() {
        var s = makeState()
        s.press(.enter, .enter)
        s.type("ny")
        s.press(.tab)
        s.send(.outcome(.saving(.failed("Read-only file system"))))
        XCTAssertEqual(s.records[0].text(for: first), "John")
        XCTAssertEqual(s.editing?.entry, 0)
        XCTAssertEqual(s.editing?.text, "Johnny")
    }

    func testSuccessfulSaveWithReplacedCharactersSaysHowMany() {
        var s = makeState([record("A\u{1}B", "C")])
        s.send(.outcome(.saving(.saved(replacedCharacters: 1))))
        XCTAssertEqual(s.statusText, "Replaced 1 control character XML cannot hold with U+FFFD")
        XCTAssertEqual(s.records[0].text(for: first), "A\u{FFFD}B")
    }

    func testUnreadableDocumentIsNeverSaved() {
        var s = AppState(documentName: "Broken", loaded: .failure(DocumentError("not a property list")),
                         size: Size(width: 80, height: 24), environment: .forTests)
        XCTAssertEqual(s.inputMode, .unreadable)
        s.pressUnbound(.enter, .character("x"), .control("n"), .right, .function(2), .tab)
        XCTAssertEqual(s.press(.control("q")), [.quit])
    }
}
