import XCTest
import SurveyValues

/// What one version of a survey changed from the one before (issue 31, `survey history`), as
/// ODK Central's submission diffs say it: answer by answer, rosters' members paired as a
/// merge pairs them, an edited or deleted member named by its old place, an added one by its
/// new place.
final class AnswerChangesTests: XCTestCase {
    private func path(_ text: String) -> SyncFieldPath { SyncFieldPath(text: text)! }

    private func member(_ name: String, _ age: Int) -> PropertyValue {
        .dictionary(["member_name": .string(name), "member_age": .integer(age)])
    }

    func testAnswersAddedChangedAndRemovedInNameOrder() {
        let changes = AnswerChanges.between(["name": .string("Ana"), "age": .integer(35), "w": .real(.nan), "picks": .array([.string("a")])],
                                            ["name": .string("Ana Maria"), "phone": .string("555"), "w": .real(.nan), "picks": .array([.string("a"), .string("b")])])
        XCTAssertEqual(changes, [
            AnswerChange(path: path("age"), old: .integer(35), new: nil),
            AnswerChange(path: path("name"), old: .string("Ana"), new: .string("Ana Maria")),
            AnswerChange(path: path("phone"), old: nil, new: .string("555")),
            AnswerChange(path: path("picks"), old: .array([.string("a")]), new: .array([.string("a"), .string("b")])),
        ])
        XCTAssertEqual(AnswerChanges.between(["a": .integer(1)], ["a": .integer(1)]), [])
    }

    func testAMemberEditedIsNamedByItsPathAndAMemberDeletedFromTheMiddleIsOneChange() {
        let before: [String: PropertyValue] = ["members": .array([member("Bea", 7), member("Ciro", 71), member("Dia", 40)])]
        XCTAssertEqual(AnswerChanges.between(before, ["members": .array([member("Bea", 7), member("Ciro", 72), member("Dia", 40)])]),
                       [AnswerChange(path: path("members[2]/member_age"), old: .integer(71), new: .integer(72))])
        // Bea deleted, Ciro edited: Ciro is named by his old place, as Central names him.
        XCTAssertEqual(AnswerChanges.between(before, ["members": .array([member("Ciro", 72), member("Dia", 40)])]), [
            AnswerChange(path: path("members[1]"), old: member("Bea", 7), new: nil),
            AnswerChange(path: path("members[2]/member_age"), old: .integer(71), new: .integer(72)),
        ])
        // One added at the end, by its new place; a roster that was not there, whole.
        XCTAssertEqual(AnswerChanges.between(before, ["members": .array([member("Bea", 7), member("Ciro", 71), member("Dia", 40), member("Eli", 1)])]),
                       [AnswerChange(path: path("members[4]"), old: nil, new: member("Eli", 1))])
        XCTAssertEqual(AnswerChanges.between([:], before), [AnswerChange(path: path("members"), old: nil, new: before["members"])])
    }

    /// Members with ids of their own are paired by them, though every answer changed.
    func testMembersWithIdsArePairedByThem() {
        func member(_ id: String, _ name: String) -> PropertyValue { .dictionary(["instanceID": .string(id), "member_name": .string(name)]) }
        XCTAssertEqual(AnswerChanges.between(["m": .array([member("a", "Bea"), member("b", "Ciro")])], ["m": .array([member("b", "Ciro Jr")])]), [
            AnswerChange(path: path("m[1]"), old: member("a", "Bea"), new: nil),
            AnswerChange(path: path("m[2]/member_name"), old: .string("Ciro"), new: .string("Ciro Jr")),
        ])
    }

    /// Answers from the network nested far deeper than any form: walked without recursion,
    /// members paired by place (never hashed), the change found at the bottom.
    func testDeepNestingIsWalkedWithoutRecursion() {
        func nested(_ leaf: Int) -> PropertyValue {
            var value = PropertyValue.dictionary(["x": .integer(leaf)])
            for _ in 0..<1_000 { value = .array([value]) }
            return value
        }
        let changes = AnswerChanges.between(["deep": nested(1)], ["deep": nested(2)])
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(changes.first?.path.steps.count, 1_002)
        XCTAssertEqual(changes.first?.old, .integer(1))
        XCTAssertEqual(changes.first?.new, .integer(2))
    }
}
