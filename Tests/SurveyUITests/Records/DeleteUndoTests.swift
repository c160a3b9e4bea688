import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Delete asks on the status line; undo and redo step through every change, each saved.
final class DeleteUndoTests: XCTestCase {
    private func people() -> [Record] {
        var records = [record("Ada", "Lovelace"), record("Chidi", "Okonkwo"), record("Grace", "Hopper")]
        for i in records.indices { records[i].values[Record.instanceIDKey] = .string("uuid:\(i)") }
        return records
    }

    /// What a successful save feeds back (the Program does this against a real folder).
    private func saved(_ s: inout AppState, _ effects: [Effect]) -> [Effect] {
        XCTAssertEqual(effects.last, .saveDocument)
        return s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
    }

    func testDeleteAsksThenShowsTheNextRecordAndUndoBringsItBack() {
        var s = makeState(people())
        s.press(.down)
        XCTAssertEqual(s.press(.character("d")), [])
        XCTAssertEqual(s.statusText, "Delete “Okonkwo, Chidi”? y/n")
        XCTAssertEqual(s.inputMode, .confirmingRecordDelete)
        s.pressUnbound(.character("x"))                // other keys do nothing
        XCTAssertEqual(s.recordCount, 3)
        s.press(.character("n"))
        XCTAssertEqual(s.statusText, "Kept “Okonkwo, Chidi”")
        XCTAssertEqual(s.recordCount, 3)
        s.press(.character("d"))
        let effects = s.press(.character("y"))
        XCTAssertEqual(effects, [.keepDeleted([people()[1]]), .saveDocument], "a copy is kept first, then the save")
        XCTAssertEqual(saved(&s, effects), [])
        XCTAssertEqual(s.records.map(\.listTitle), ["Lovelace, Ada", "Hopper, Grace"])
        XCTAssertEqual(s.shown, .record(1), "the next record shows")
        let back = saved(&s, s.press(.control("z")))
        XCTAssertEqual(s.records.map(\.listTitle), ["Lovelace, Ada", "Okonkwo, Chidi", "Hopper, Grace"], "in its place")
        XCTAssertEqual(s.shown, .record(1), "undo shows the record it touched")
        XCTAssertEqual(s.statusText, "Undid delete of “Okonkwo, Chidi”")
        XCTAssertEqual(back, [.forgetDeleted(["uuid:1"])])
        let redo = s.press(.control("y"))
        XCTAssertEqual(redo, [.keepDeleted([people()[1]]), .saveDocument])
        _ = saved(&s, redo)
        XCTAssertEqual(s.records.count, 2)
        XCTAssertEqual(s.statusText, "Redid delete of “Okonkwo, Chidi”")
    }

    func testDeletingTheLastShowsThePreviousAndDeletingAllLeavesTheNewForm() {
        var s = makeState(Array(people().prefix(2)))
        s.press(.end, .character("d"))
        _ = saved(&s, s.press(.character("y")))
        XCTAssertEqual(s.shown, .record(0))
        s.press(.delete)
        XCTAssertEqual(s.statusText, "Delete “Lovelace, Ada”? y/n", "Delete in the list (on the form it clears an answer)")
        _ = saved(&s, s.press(.character("y")))
        XCTAssertEqual(s.recordCount, 0)
        XCTAssertEqual(s.shown, .draft)
    }

    func testEveryKindOfChangeUndoesAndRedoes() {
        var s = makeState(people())
        s.press(.enter, .enter)                     // edit Ada's first name
        s.type("!")
        _ = saved(&s, s.press(.enter))
        s.press(.control("n"))
        s.type("Alan")
        s.press(.tab)                               // the New form (not a document change)
        XCTAssertEqual(s.send(.outcome(.saving(.draftSaved))), [])
        s.press(.backTab, .backTab)                 // to [ Add ]
        XCTAssertEqual(s.formItem, .add)
        XCTAssertEqual(s.press(.enter).withoutKeyedNote, [.saveDocument, .saveDraft])
        // As the Program does: the new record's id first, then the save's outcome.
        _ = s.send(.outcome(.saving(.instanceIDsAssigned({ var d = s.document!; d.assignMissingInstanceIDs(); return d }()))))
        _ = s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        XCTAssertEqual(s.records.map(\.listTitle), ["Lovelace, Ada!", "Okonkwo, Chidi", "Hopper, Grace", "Alan"])
        _ = saved(&s, s.press(.control("z")))
        XCTAssertEqual(s.statusText, "Undid add of “Alan”")
        XCTAssertEqual(s.recordCount, 3)
        _ = saved(&s, s.press(.control("z")))
        XCTAssertEqual(s.statusText, "Undid edit of First name of “Lovelace, Ada”")
        XCTAssertEqual(s.records[0].listTitle, "Lovelace, Ada")
        XCTAssertEqual(s.shown, .record(0))
        XCTAssertEqual(s.press(.control("z")), [])
        XCTAssertEqual(s.statusText, "Nothing to undo")
        _ = saved(&s, s.press(.control("y")))
        _ = saved(&s, s.press(.control("y")))
        XCTAssertEqual(s.records.map(\.listTitle), ["Lovelace, Ada!", "Okonkwo, Chidi", "Hopper, Grace", "Alan"])
        // A new change clears what could be redone.
        _ = saved(&s, s.press(.control("z")))
        s.screen.moveFocus(to: .form)                             // on the form: First name, not [ Add ]
        s.form.highlight(.field(0))
        s.press(.enter)
        s.type("?")
        _ = saved(&s, s.press(.enter))
        s.press(.escape)                            // Ctrl-Y while typing is the shell's yank
        XCTAssertEqual(s.press(.control("y")), [])
        XCTAssertEqual(s.statusText, "Nothing to redo")
    }

    func testAFailedSaveOfAnUndoKeepsItUndoable() {
        var s = makeState(people())
        s.press(.character("d"))
        _ = saved(&s, s.press(.character("y")))
        s.press(.control("z"))
        s.send(.outcome(.saving(.failed("No space left on device"))))
        XCTAssertEqual(s.recordCount, 2, "the screen shows what is on disk")
        XCTAssertEqual(s.session.history.undo.count, 1, "and the undo can be tried again")
    }

    func testUndoKeepsRecordsAddedSinceByAnotherProgram() {
        var s = makeState(people())
        s.press(.character("d"))
        _ = saved(&s, s.press(.character("y")))
        // The file was re-read after another program appended a survey.
        var outside = s.document!
        outside.records.append({ var r = record("Eve", "Outside"); r.values[Record.instanceIDKey] = .string("uuid:e"); return r }())
        s.document = outside
        _ = saved(&s, s.press(.control("z")))
        XCTAssertEqual(s.records.map(\.listTitle), ["Lovelace, Ada", "Okonkwo, Chidi", "Hopper, Grace", "Outside, Eve"],
                       "Ada back in her place, Eve kept")
    }

    func testUKeysInTheListAndTheHistoryHoldsAtLeast100Steps() {
        var s = makeState(people())
        for i in 0..<120 {
            s.press(.enter, .enter, .backspace)     // "Ada" → "Ad0" → "Ad1" …: a change each time
            s.type("\(i % 10)")
            _ = saved(&s, s.press(.enter))        // saved, and on to Last name
            s.press(.escape, .up, .function(2))
        }
        XCTAssertGreaterThanOrEqual(s.session.history.undo.count, 100)
        XCTAssertEqual(s.inputMode, .listPane)
        _ = saved(&s, s.press(.character("u")))
        XCTAssertTrue(s.statusText?.hasPrefix("Undid edit of First name") == true)
        _ = saved(&s, s.press(.character("U")))
        XCTAssertTrue(s.statusText?.hasPrefix("Redid edit of First name") == true)
    }

    func testADeleteWhoseCopyCannotBeKeptIsCalledOff() {
        var s = makeState(people())
        s.press(.character("d"), .character("y"))
        s.send(.outcome(.saving(.deletedSurveysNotKept("it holds deleted surveys, so survey does not write over it"))))
        XCTAssertEqual(s.recordCount, 3)
        XCTAssertEqual(s.shown, .record(0))
        XCTAssertTrue(s.statusText?.hasPrefix("Not deleted: a copy could not be kept") == true)
    }

    func testAFailedSaveOfADeleteTakesItsCopyBackOffTheDeletedList() {
        var s = makeState(people())
        s.press(.character("d"), .character("y"))
        XCTAssertEqual(s.send(.outcome(.saving(.failed("No space left on device")))), [.forgetDeleted(["uuid:0"])])
        XCTAssertEqual(s.recordCount, 3)
        // An edit's failed save has no copy to take back.
        s.press(.enter, .enter)
        s.type("!")
        s.press(.enter)
        XCTAssertEqual(s.send(.outcome(.saving(.failed("No space left on device")))), [])
    }

    /// A question on the status line follows its survey by id when a background merge moves
    /// it, and is dropped when that survey changed there: `y` never acts on another survey.
    func testAQuestionFollowsItsSurveyThroughAMergeOrIsDropped() {
        var s = makeState(people())
        s.press(.down, .character("d"))
        XCTAssertEqual(s.statusText, "Delete “Okonkwo, Chidi”? y/n")
        let withoutAda = SurveyDocument(records: Array(people().dropFirst()))
        _ = s.send(.outcome(.saving(.mergedInBackground(withoutAda, message: "Merged", isError: false))))
        XCTAssertEqual(s.pendingRecordDelete, 0, "Chidi is first now")
        let effects = s.press(.character("y"))
        XCTAssertEqual(effects, [.keepDeleted([people()[1]]), .saveDocument], "Chidi, not Grace")

        var t = makeState(people())
        t.press(.down, .character("d"))
        var changed = people()
        changed[1].values["phone"] = .string("555-0000")
        _ = t.send(.outcome(.saving(.mergedInBackground(SurveyDocument(records: changed), message: "Merged", isError: false))))
        XCTAssertNil(t.form.pendingQuestion)
        XCTAssertEqual(t.statusText, "Merged. The survey asked about was changed there: nothing was done, ask again")
        XCTAssertEqual(t.recordCount, 3)
    }
}
