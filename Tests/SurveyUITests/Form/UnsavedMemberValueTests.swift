import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// A member added by hand and not answered yet answers for itself (issue 29: its own, not
/// `AppState`'s): which survey still holds it, and whether the highlight is inside it.
final class UnsavedMemberValueTests: XCTestCase {
    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_032_800), timeZone: .utc)
    private let a = Record(["village": .string("A"), Record.instanceIDKey: .string("uuid:a")])
    private let b = Record(["village": .string("B"), Record.instanceIDKey: .string("uuid:b"),
                            "member": .array([.dictionary(["name": .string("Ana")]), .dictionary([:])])])

    private func member(of survey: AppState.Shown, before: Record) -> UnsavedMember {
        UnsavedMember(survey: survey, steps: [AnswerPath.Step(name: "member", index: 1)], before: before, added: before,
                      label: "Household member")
    }

    func testTheSurveyHoldingItIsTheOneAtItsPlaceWithItsId() {
        let draft = Record(["village": .string("New")])
        XCTAssertEqual(member(of: .draft, before: draft).survey(in: RecordList([a, b]), draft: draft), draft)
        XCTAssertEqual(member(of: .record(1), before: b).survey(in: RecordList([a, b]), draft: draft), b)
        XCTAssertNil(member(of: .record(1), before: b).survey(in: RecordList([a]), draft: draft), "gone")
        XCTAssertNil(member(of: .record(1), before: b).survey(in: RecordList([b, a]), draft: draft), "another survey in its place")
    }

    func testTheHighlightIsInsideOnlyOnTheMembersQuestions() throws {
        let q = try rosterQuestionnaire()
        let walk = FormRuleCache().outline(q, b, clock, selection: [FormWalk.RepeatHeading.selectionKey(parent: [], name: "member"): 1])
        let name = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "name" })
        let village = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "village" })
        let heading = try XCTUnwrap(walk.indices.first { walk.heading($0) != nil })
        let empty = member(of: .record(1), before: b)
        XCTAssertTrue(empty.holds(.field(name), in: walk), "the second member's name")
        XCTAssertFalse(empty.holds(.field(village), in: walk))
        XCTAssertFalse(empty.holds(.field(heading), in: walk), "its roster's heading is outside it")
        XCTAssertFalse(empty.holds(.add, in: { XCTFail("the walk is read only for a question"); return walk }()))
    }
}
