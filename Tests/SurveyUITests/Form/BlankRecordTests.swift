import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// A survey of blanks is no survey: the model stores answers trimmed, so a name of three
/// spaces is no name, and Add refuses a form without an answer, as `survey add` does.
final class BlankRecordTests: XCTestCase {
    /// Ctrl-N, then `text` typed into First name and committed with Enter: all through update().
    private func draftWithFirstName(_ text: String, records: [Record] = sampleRecords()) -> AppState {
        var s = makeState(records)
        s.send(.records(.newRecord))
        for c in text { s.send(.text(.insert(c))) }
        s.send(.form(.commitField))
        return s
    }

    func testBlanksCommittedIntoFirstNameAreStoredAsNoAnswer() {
        let s = draftWithFirstName("   ")
        XCTAssertNil(s.editing, "the blanks were accepted as an empty answer")
        XCTAssertEqual(s.draft.values["firstName"], .string(""))
        XCTAssertTrue(s.draft.isBlank(in: .standard))
    }

    func testAddRefusesAFormOfBlanks() {
        var s = draftWithFirstName("   ")
        s.send(.form(.cycleHighlight(-1)))
        XCTAssertEqual(s.formItem, .add)
        let effects = s.send(.form(.activate))
        XCTAssertFalse(effects.contains(.saveDocument), "nothing is written")
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.statusText, "Nothing to add: the form is empty")
    }

    func testAnswersAroundBlanksAreAddedTrimmed() {
        var s = draftWithFirstName("  Ada  ")
        s.send(.form(.cycleHighlight(-1)))
        XCTAssertEqual(s.send(.form(.activate)).withoutKeyedNote, [.saveDocument, .saveDraft])
        XCTAssertEqual(s.recordCount, 3)
        XCTAssertEqual(s.records[2].values["firstName"], .string("Ada"))
        XCTAssertEqual(s.statusText, "Added survey 3: Ada")
    }
}
