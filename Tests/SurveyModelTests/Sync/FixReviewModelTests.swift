import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A hostile review of the hunt's fixes (0aee689 `--mine` keeps the survey's answer now,
/// 8abeeeb the conflict listings show it), as plain values: a conflict on an answer inside a
/// roster member, after a member before it was deleted here, so another person now stands
/// at the conflict's place (`member[2]/age`). Conflict paths are places, and nothing moves
/// them when the app deletes a member (only `resolve`'s own member delete does,
/// `SyncFieldPath.afterRemoving`).
final class FixReviewModelTests: XCTestCase {
    private let date = Date(timeIntervalSince1970: 1_700_000_000)
    private let id = "uuid:house"
    private let ana: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(30)])
    private let boHere: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(32)])
    private let boThere: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(33)])
    private let cy: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(3)])

    private func survey(_ answers: [String: PropertyValue]) -> Record {
        var values = answers
        values[Record.instanceIDKey] = .string(id)
        return Record(values)
    }

    /// Bo's age changed on both laptops (32 here, 33 there): a conflict at member[2]/age;
    /// then Ana is deleted here in the app, so member[2] is Cy now.
    private func boInConflictThenAnaDeletedHere() -> SyncState {
        var ledger = SyncLedger()
        ledger.bases[id] = SyncLedger.Version(answers: ["member": .array([ana, .dictionary(["name": .string("Bo"), "age": .integer(31)]), cy])],
                                              revision: SyncRevision(1))
        let start = SyncState(records: [survey(["member": .array([ana, boHere, cy])])], ledger: ledger)
        let clash = SyncPlan.apply([IncomingVersion(id: id, answers: ["member": .array([ana, boThere, cy])], revision: SyncRevision(2))],
                                   to: start, at: date)
        XCTAssertEqual(clash.state.ledger.conflictList.map(\.field.path.description), ["member[2]/age"])
        var moved = clash.state
        moved.records[0]["member"] = .array([boHere, cy])
        return moved
    }

    // The listings (c in F4, `survey conflicts` and its JSON) read "mine" from the member the
    // conflict is about, wherever it stands now (`ConflictPlaces`), never from Cy, now at
    // Bo's place.
    func testTheListingsMineIsNotAnotherMembersAnswerAfterAMemberWasDeletedHere() {
        let moved = boInConflictThenAnaDeletedHere()
        let listed = moved.ledger.conflictList(holding: moved.records)
        XCTAssertEqual(listed.count, 1)
        XCTAssertNotEqual(listed.first?.field.mine, .integer(3), "Cy's age is shown as mine for Bo's conflict")
        XCTAssertNotEqual(SyncSummary(moved).conflicts.first?.mine, .integer(3), "F4's c shows Cy's age as mine")
    }

    // `--theirs` (and a typed value) writes into the member the conflict is about, found by
    // who it is (`ConflictPlaces`), or is refused: never into Cy, now at Bo's place.
    func testTakingTheirsForAMembersAnswerNeverWritesIntoTheMemberNowAtItsPlace() throws {
        let moved = boInConflictThenAnaDeletedHere()
        let resolved = try? SyncPlan.resolve(id: id, path: nil, by: .theirs, in: moved, at: date)
        guard let resolved else { return }     // refused: nothing written, fine
        guard case .array(let members)? = resolved.state.records.first?["member"] else { return XCTFail("no roster") }
        XCTAssertTrue(members.contains(cy), "Cy keeps her age 3: \(members)")
    }
}
