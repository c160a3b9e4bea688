import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Which change needs a reason, and which keys are tried for one, decided from the records
/// before and after a key and from the key itself (issue 29: not `AppState`'s), with no
/// state in sight.
final class ChangeReasonRuleTests: XCTestCase {
    private func survey(_ id: String, age: Int, incomplete: Bool = false) -> Record {
        var values: [String: PropertyValue] = [Record.instanceIDKey: .string(id), "age": .integer(age)]
        if incomplete { values[Record.incompleteKey] = .bool(true) }
        return Record(values)
    }

    func testTheFirstStoredSurveyChangedWithoutAReasonAndTheRuleThatAsks() {
        let then = RecordList([survey("uuid:a", age: 30), survey("uuid:b", age: 40), survey("uuid:c", age: 50, incomplete: true)])
        let now = RecordList([survey("uuid:a", age: 31), survey("uuid:b", age: 41), survey("uuid:c", age: 51, incomplete: true)])
        func need(formAsks: Bool, approved: Set<String> = [], given: Set<String> = []) -> String? {
            let reviews = Dictionary(uniqueKeysWithValues: approved.map { ($0, SyncReview(.approved)) })
            return ChangeAwaitingReason.surveyNeedingReason(from: then, to: now, formAsks: formAsks, reviews: reviews,
                                                            reasonGiven: { given.contains($0) })
                .map { "\($0.0) \($0.1 == .form ? "form" : "approved")" }
        }
        XCTAssertEqual(need(formAsks: true), "uuid:a form")
        XCTAssertEqual(need(formAsks: true, given: ["uuid:a"]), "uuid:b form")
        XCTAssertNil(need(formAsks: true, given: ["uuid:a", "uuid:b"]), "an incomplete survey's change is not an edit")
        XCTAssertNil(need(formAsks: false))
        XCTAssertEqual(need(formAsks: false, approved: ["uuid:b"]), "uuid:b approved")
        XCTAssertNil(ChangeAwaitingReason.surveyNeedingReason(from: then, to: RecordList(Array(now) + [survey("uuid:d", age: 1)]),
                                                              formAsks: true, reviews: [:], reasonGiven: { _ in false }),
                     "an Add is not an edit")
        XCTAssertEqual(ChangeAwaitingReason.surveysChanged(from: then, to: now), ["uuid:a", "uuid:b", "uuid:c"])
        XCTAssertEqual(ChangeAwaitingReason.surveysChanged(from: then, to: then), [])
        XCTAssertNil(ChangeAwaitingReason.surveysChanged(from: then, to: RecordList(Array(now.prefix(2)))), "a delete")
        XCTAssertNil(ChangeAwaitingReason.surveysChanged(from: nil, to: now))
    }

    func testWhichKeysAreTriedAndWhichTheOwnersGuardLeavesAlone() {
        XCTAssertTrue(Action.form(.commitField).mayBeAKeyersChange)
        XCTAssertTrue(Action.documents(.show).mayBeAKeyersChange, "F3 saves a typed answer first")
        XCTAssertFalse(Action.documents(.discardRecovery).mayBeAKeyersChange)
        XCTAssertFalse(Action.text(.insert("x")).mayBeAKeyersChange)
        XCTAssertTrue(Action.text(.paste("x")).mayBeAKeyersChange)
        XCTAssertFalse(Action.audit(.commitPrompt).mayBeAKeyersChange)

        XCTAssertTrue(Action.text(.insert("x")).isLeftAloneByOwnersGuard(typing: true))
        XCTAssertFalse(Action.text(.insert("x")).isLeftAloneByOwnersGuard(typing: false), "typed into the / line or a box")
        XCTAssertFalse(Action.text(.paste("x")).isLeftAloneByOwnersGuard(typing: true))
        XCTAssertTrue(Action.documents(.discardRecovery).isLeftAloneByOwnersGuard(typing: false))
        XCTAssertFalse(Action.records(.undo).isLeftAloneByOwnersGuard(typing: false))
    }
}
