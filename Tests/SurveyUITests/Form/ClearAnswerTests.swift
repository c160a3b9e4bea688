import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30: Del on the form clears the highlighted answer (undoable); it no longer asks to
/// delete the whole survey, which stays the list's (d, Del there).
final class ClearAnswerTests: XCTestCase {
    private func survey() -> Record {
        Record(["instanceID": .string("uuid:11111111-0000-4000-8000-000000000001"), "fname": .string("Ana"),
                "lname": .string("Lima"), "age": .integer(30), "consent": .string("no"), "notes": .string("call back"),
                "members": .integer(4), "children": .integer(1)])
    }

    /// On a stored survey: cleared and saved, a calculation following, Ctrl-Z bringing it
    /// back; the survey itself is never asked about.
    func testDelClearsTheAnswerOfAStoredSurveyAndCtrlZBringsItBack() throws {
        var s = try householdState([survey()])
        s.showRecord(0)
        s.screen.moveFocus(to: .form)
        s.form.stopEditing()
        s.form.highlight(.field(s.outline.indices.first { s.outline.field($0).key == "notes" }!))
        XCTAssertEqual(s.press(.delete), [.saveDocument])
        s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        XCTAssertEqual(s.inputMode, .formBrowsing, "no y/n about deleting the survey")
        XCTAssertEqual(s.records.count, 1)
        XCTAssertNil(s.records[0]["notes"])
        XCTAssertEqual(s.statusText, "Cleared Notes: Ctrl-Z brings it back")
        XCTAssertEqual(s.press(.control("z")), [.saveDocument])
        XCTAssertEqual(s.records[0]["notes"], .string("call back"))
    }

    /// A required answer is not cleared from a stored survey: the form's words say why.
    func testARequiredAnswerIsRefusedWithTheFormsWords() throws {
        var s = try householdState([survey()])
        s.showRecord(0)
        s.screen.moveFocus(to: .form)
        s.form.stopEditing()
        s.form.highlight(.field(s.outline.indices.first { s.outline.field($0).key == "lname" }!))
        XCTAssertEqual(s.press(.delete), [])
        XCTAssertEqual(s.records[0]["lname"], .string("Lima"))
        XCTAssertEqual(s.statusText, "Ask for the respondent's last name")
        XCTAssertNil(s.editing)
    }

    /// On the New form (no undo history of its own), Ctrl-Z puts the cleared answer back,
    /// exactly as stored; nothing to clear says so.
    func testOnTheNewFormCtrlZPutsTheClearedAnswerBack() throws {
        var s = try householdState()
        let notes = s.outline.indices.first { s.outline.field($0).key == "notes" }!
        s.form.highlight(.field(notes))
        s.press(.delete)
        XCTAssertEqual(s.statusText, "Notes has no answer to clear")
        s.press(.enter); s.type("gate locked"); s.press(.escape)
        s.press(.enter); s.type("gate locked"); s.send(.form(.commitField))
        XCTAssertEqual(s.draft["notes"], .string("gate locked"))
        XCTAssertEqual(s.press(.delete), [.saveDraft])
        XCTAssertNil(s.draft["notes"])
        s.form.highlight(.field(0))
        XCTAssertEqual(s.press(.control("z")), [.saveDraft])
        XCTAssertEqual(s.draft["notes"], .string("gate locked"))
        XCTAssertEqual(s.formItem, .field(notes), "the highlight goes back to it")
        XCTAssertEqual(s.statusText, "Put back Notes")
    }

    /// Ctrl-Z after Del on the New form is an undo: the answer back and what its clear's
    /// trigger set back as it was, nothing fired again (the put-back fired it with the
    /// clock of the undo).
    func testCtrlZOnTheNewFormFiresNoTriggerAgain() throws {
        var s = try formState(csv: """
        survey,,,,,
        ,type,name,label,calculation,trigger
        ,integer,a,A,,
        ,dateTime,a_changed,A changed at,now(),${a}
        """)
        let a = s.entry("a")
        s.form.highlight(.field(a))
        s.press(.enter); s.type("5"); s.send(.form(.commitField))
        let typedAt = try XCTUnwrap(s.draft["a_changed"])
        s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800 + 3600))
        s.form.stopEditing()
        s.form.highlight(.field(a))
        XCTAssertEqual(s.press(.delete), [.saveDraft])
        XCTAssertNil(s.draft["a"])
        XCTAssertNotEqual(s.draft["a_changed"], typedAt, "the clear is a change: its trigger fired")
        XCTAssertEqual(s.press(.control("z")), [.saveDraft])
        XCTAssertEqual(s.draft["a"], .integer(5))
        XCTAssertEqual(s.draft["a_changed"], typedAt)
        XCTAssertEqual(s.statusText, "Put back A")
    }

    /// The list keeps deleting surveys with d and Del.
    func testTheListStillDeletesSurveys() throws {
        var s = makeState(sampleRecords(), width: 120, height: 40)
        s.send(.app(.showList))
        s.press(.delete)
        XCTAssertEqual(s.inputMode, .confirmingRecordDelete)
    }
}
