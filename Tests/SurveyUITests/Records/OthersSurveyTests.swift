import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
import SurveyUITestSupport

/// Another enumerator's survey (issue 28): the team's server lets only its owner change it,
/// so the app marks it in the list (`@ana`) and on the form's heading, and refuses every key
/// that would change it, saying whose it is, with nothing changed. The laptop's own surveys,
/// copying a teammate's into a new survey, and taking theirs in a conflict go on.
final class OthersSurveyTests: XCTestCase {
    /// Smith (uuid:0) is Ana's, Jones (uuid:1) this laptop's.
    private func identified() -> [Record] {
        sampleRecords().enumerated().map { i, r in
            var r = r
            r[Record.instanceIDKey] = .string("uuid:\(i)")
            return r
        }
    }

    private let anas = SyncSummary(lastSync: Date(timeIntervalSince1970: 1_796_032_800), othersSurveys: ["uuid:0": "ana"])
    private let refusal = "“Smith, John” is read-only here: it is ana's survey (only ana changes it; a supervisor reviews it)"

    private func state() -> AppState {
        var s = makeState(identified())
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", anas))))
        return s
    }

    func testTheListAndTheFormSayWhoseItIs() {
        var s = state()
        XCTAssertTrue(s.screenText.contains("@ana Smith, John"), s.screenText)
        XCTAssertFalse(s.screenText.contains("@ana Jones"), s.screenText)
        s.press(.enter)
        XCTAssertTrue(s.screenText.contains("Survey 1 of 2 · ana's survey, read-only"), s.screenText)
        s.press(.function(4))
        XCTAssertTrue(s.screenText.contains("Owner        ana's survey: read-only here"), s.screenText)
        var jones = state()
        jones.press(.down, .enter)
        XCTAssertTrue(jones.screenText.contains("Survey 2 of 2"), jones.screenText)
        XCTAssertFalse(jones.screenText.contains("read-only"), jones.screenText)
        // With a review mark too, whose comes first.
        var reviewed = anas
        reviewed.reviews = ["uuid:0": SyncReview(.approved)]
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", reviewed))))
        XCTAssertTrue(s.screenText.contains("@ana ✓ Smith, John"), s.screenText)
    }

    func testTypingOnATeammatesSurveyIsRefusedAndChangesNothing() {
        var s = state()
        s.press(.enter)                                  // Smith on the form
        let before = s.records
        XCTAssertEqual(s.press(.character("X")), [])
        XCTAssertEqual(s.statusText, refusal)
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.press(.enter), [], "Enter on a field would start typing")
        XCTAssertNil(s.editing)
        XCTAssertEqual(s.statusText, refusal)
        XCTAssertTrue(s.records.isSameStorage(as: before))
        s.press(.down)                                   // browsing goes on
        XCTAssertNil(s.statusText)
    }

    func testDeletingATeammatesSurveyIsRefusedFromTheListAndTheForm() {
        var s = state()
        s.press(.character("d"))                         // the list's highlight is on Smith
        XCTAssertNil(s.pendingRecordDelete)
        XCTAssertEqual(s.statusText, refusal)
        s.press(.enter)
        XCTAssertEqual(s.press(.delete), [])
        XCTAssertNil(s.pendingRecordDelete)
        XCTAssertEqual(s.statusText, refusal)
        XCTAssertEqual(s.recordCount, 2)
    }

    func testTheLaptopsOwnSurveyAndACopyOfATeammatesGoOn() {
        var s = state()
        s.press(.down, .enter)                           // Jones: this laptop's
        s.type("X")
        XCTAssertEqual(s.press(.enter), [.saveDocument])
        XCTAssertNil(s.statusText)
        // A copy of Ana's survey is a new survey, this laptop's.
        s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        s.press(.escape, .function(2), .up, .enter)
        XCTAssertTrue(s.screenText.contains("Survey 1 of 2 · ana's survey, read-only"), s.screenText)
        s.form.highlight(.add)
        s.press(.enter)
        XCTAssertEqual(s.statusText, "Add a copy of “Smith, John” as another survey? y/n")
        XCTAssertEqual(s.press(.character("y")), [.saveDocument])
        XCTAssertEqual(s.recordCount, 3)
    }

    /// A change made before the laptop knew whose it was (before this sync) is not changed
    /// again by undo or redo: those too would change Ana's survey.
    func testUndoAndRedoDoNotChangeATeammatesSurvey() {
        var s = makeState(identified())
        s.press(.enter)
        s.type("X")
        XCTAssertEqual(s.press(.enter), [.saveDocument])
        s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        let edited = s.records
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", anas))))
        s.press(.escape)
        XCTAssertEqual(s.press(.control("z")), [])
        XCTAssertEqual(s.statusText, "“Smith, X” is read-only here: it is ana's survey (only ana changes it; a supervisor reviews it)")
        XCTAssertTrue(s.records.isSameStorage(as: edited))
    }

    func testKeepingMineInATeammatesConflictIsRefusedAndTheirsIsTaken() {
        var s = makeState(identified())
        var summary = anas
        summary.conflicts = [SyncSummary.Conflict(id: "uuid:0", path: SyncFieldPath(text: "age")!, mine: .integer(41), theirs: .integer(40))]
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", summary))))
        s.press(.enter, .function(4), .character("c"))
        XCTAssertEqual(s.press(.character("m")), [])
        XCTAssertEqual(s.statusText, "Not kept: it is ana's survey (only ana changes it; a supervisor reviews it); t takes ana's answer")
        XCTAssertEqual(s.press(.character("t")), [.resolveConflict(id: "uuid:0", path: SyncFieldPath(text: "age")!, keepMine: false)])
    }

    /// A survey merged from another laptop's copy that never synced: "@merged", its words.
    func testASurveyMergedFromACopyThatNeverSyncedIsThatLaptops() {
        var s = makeState(identified())
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", SyncSummary(othersSurveys: ["uuid:1": ""])))))
        XCTAssertTrue(s.screenText.contains("@merged Jones, Doris"), s.screenText)
        s.press(.down, .character("d"))
        XCTAssertEqual(s.statusText, "“Jones, Doris” is read-only here: it is another laptop's survey "
                       + "(merged from its copy: that laptop changes it and sends it)")
    }

    /// A designer's form: a roster member added (^O) or deleted (^D), a choice's picker, and
    /// the answers a form version does not ask (x in F4), on a teammate's survey.
    func testRosterKeysThePickerAndClearingAnswersAreRefused() throws {
        let stored = Record(["village": .string("Kibera"), "instanceID": .string("uuid:r"), "people": .string("1"),
                             "member": .array([.dictionary(["name": .string("Bo"), "age": .integer(12), "school": .string("yes")])]),
                             "old_question": .string("kept")])
        var s = try rosterState([stored])
        s.send(.outcome(.sync(.summaryRead(document: "Roster", SyncSummary(othersSurveys: ["uuid:r": "ana"])))))
        s.press(.enter)
        let heading = try XCTUnwrap(s.outline.headingEntry("member"))
        s.form.highlight(.field(heading + 1))
        let before = s.records
        let whose = "is read-only here: it is ana's survey (only ana changes it; a supervisor reviews it)"
        XCTAssertEqual(s.press(.control("o")), [])
        XCTAssertTrue(s.statusText?.hasSuffix(whose) == true, s.statusText ?? "")
        XCTAssertNil(s.form.unsavedMember)
        XCTAssertEqual(s.press(.control("d")), [])
        XCTAssertNil(s.form.rosterQuestion)
        XCTAssertTrue(s.statusText?.hasSuffix(whose) == true, s.statusText ?? "")
        let school = try XCTUnwrap(s.outline.instanceEntries(of: heading).first { s.outline.field($0).key == "school" })
        s.form.highlight(.field(school))
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertNil(s.picker)
        XCTAssertTrue(s.statusText?.hasSuffix(whose) == true, s.statusText ?? "")
        s.press(.function(4))
        XCTAssertEqual(s.press(.character("x")), [])
        XCTAssertNil(s.form.pendingQuestion)
        XCTAssertTrue(s.statusText?.hasSuffix(whose) == true, s.statusText ?? "")
        XCTAssertTrue(s.records.isSameStorage(as: before))
    }
}
