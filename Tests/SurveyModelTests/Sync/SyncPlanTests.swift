import XCTest
@testable import SurveyModel

/// Applying what came in and choosing what goes out, as plain values: the API the
/// PostgreSQL half calls.
final class SyncPlanTests: XCTestCase {
    private let date = Date(timeIntervalSince1970: 1_700_000_000)
    private let id = "uuid:ana"

    private func survey(_ answers: [String: PropertyValue], id: String = "uuid:ana") -> Record {
        var values = answers
        values[Record.instanceIDKey] = .string(id)
        return Record(values)
    }

    private let v1: [String: PropertyValue] = ["firstName": .string("Ana"), "age": .integer(30), "phone": .string("")]

    /// A document holding `mine`, whose base is v1 at revision 1.
    private func state(mine: [String: PropertyValue]) -> SyncState {
        var ledger = SyncLedger()
        ledger.bases[id] = SyncLedger.Version(answers: v1, revision: SyncRevision(1))
        return SyncState(records: [survey(mine)], ledger: ledger)
    }

    private func incoming(_ answers: [String: PropertyValue], revision: Int64, deleted: Bool = false) -> IncomingVersion {
        IncomingVersion(id: id, answers: answers, revision: SyncRevision(revision), deleted: deleted)
    }

    private func with(_ answers: [String: PropertyValue], _ key: String, _ value: PropertyValue?) -> [String: PropertyValue] {
        var copy = answers
        copy[key] = value
        return copy
    }

    func testUnchangedHereFastForwards() {
        let theirs = with(v1, "age", .integer(31))
        let applied = SyncPlan.apply([incoming(theirs, revision: 2)], to: state(mine: v1), at: date)
        XCTAssertEqual(applied.state.records, [survey(theirs)])
        XCTAssertEqual(applied.state.ledger.bases[id], SyncLedger.Version(answers: theirs, revision: SyncRevision(2)))
        XCTAssertEqual(applied.events, [SyncEvent(.fastForwarded, id)])
        XCTAssertEqual(SyncPlan.outgoing(from: applied.state, device: "a"), [], "nothing changed here since")
    }

    func testChangedHereMergesAndTheMergeGoesOutAsAnEditOfTheirRevision() {
        let mine = with(v1, "age", .integer(31))
        let theirs = with(v1, "phone", .string("555"))
        let applied = SyncPlan.apply([incoming(theirs, revision: 2)], to: state(mine: mine), at: date)
        let merged = with(mine, "phone", .string("555"))
        XCTAssertEqual(applied.state.records, [survey(merged)])
        XCTAssertEqual(applied.events, [SyncEvent(.merged, id)])
        XCTAssertEqual(SyncPlan.outgoing(from: applied.state, device: "laptop-a"), [
            OutgoingChange(id: id, answers: merged, deleted: false, baseRevision: SyncRevision(2), review: nil, device: "laptop-a"),
        ])
    }

    func testAClashIsKeptNotWonByTheLastWriterAndWithheldUntilResolved() throws {
        let mine = with(v1, "age", .integer(31))
        let theirs = with(with(v1, "age", .integer(32)), "phone", .string("555"))
        let applied = SyncPlan.apply([incoming(theirs, revision: 2)], to: state(mine: mine), at: date)
        XCTAssertEqual(applied.state.records, [survey(with(mine, "phone", .string("555")))], "mine kept where they clash")
        XCTAssertEqual(applied.state.ledger.conflictList.map(\.field), [
            FieldConflict(path: SyncFieldPath([.key("age")]), base: .integer(30), mine: .integer(31), theirs: .integer(32)),
        ])
        XCTAssertEqual(applied.state.ledger.bases[id]?.revision, SyncRevision(1), "the base stays until resolved")
        XCTAssertEqual(SyncPlan.outgoing(from: applied.state, device: "a"), [], "a survey in conflict does not go out")

        let resolved = try SyncPlan.resolve(id: id, path: SyncFieldPath([.key("age")]), by: .value(.integer(33)),
                                            in: applied.state, at: date)
        XCTAssertEqual(resolved.count, 1)
        XCTAssertEqual(resolved.state.ledger.conflicts, [:])
        let settled = with(theirs, "age", .integer(33))
        XCTAssertEqual(resolved.state.records, [survey(settled)])
        XCTAssertEqual(SyncPlan.outgoing(from: resolved.state, device: "a").map(\.baseRevision), [SyncRevision(2)])
        XCTAssertEqual(SyncPlan.outgoing(from: resolved.state, device: "a").map(\.answers), [settled])
    }

    func testTakingTheirsForEveryClashLeavesNothingToSendWhenNothingElseChanged() throws {
        let mine = with(v1, "age", .integer(31))
        let theirs = with(v1, "age", .integer(32))
        let applied = SyncPlan.apply([incoming(theirs, revision: 2)], to: state(mine: mine), at: date)
        let resolved = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: applied.state, at: date)
        XCTAssertEqual(resolved.state.records, [survey(theirs)])
        XCTAssertEqual(SyncPlan.outgoing(from: resolved.state, device: "a"), [])
    }

    func testARosterEditedInDifferentMembersMergesThroughApply() {
        let roster: (Int, Int) -> PropertyValue = { a, b in
            .array([.dictionary(["name": .string("Ana"), "age": .integer(a)]), .dictionary(["name": .string("Bo"), "age": .integer(b)])])
        }
        let base = with(v1, "member", roster(34, 6))
        var ledger = SyncLedger()
        ledger.bases[id] = SyncLedger.Version(answers: base, revision: SyncRevision(1))
        let start = SyncState(records: [survey(with(v1, "member", roster(35, 6)))], ledger: ledger)
        let applied = SyncPlan.apply([incoming(with(v1, "member", roster(34, 7)), revision: 2)], to: start, at: date)
        XCTAssertEqual(applied.state.records, [survey(with(v1, "member", roster(35, 7)))])
        XCTAssertEqual(applied.state.ledger.conflicts, [:])
    }

    /// Issue 27, item 7: a roster in conflict (a member deleted there, edited here) is never
    /// replaced by typed text; it is kept whole, mine or theirs; and the listing tells the two
    /// sides apart by their members, the changed ones marked.
    func testARosterConflictIsResolvedWholeNeverByATypedValueAndShowsWhatDiffers() throws {
        let ana: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(30)])
        let anaOlder: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(41)])
        let bo: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(31)])
        let base = with(v1, "member", .array([ana, bo]))
        var ledger = SyncLedger()
        ledger.bases[id] = SyncLedger.Version(answers: base, revision: SyncRevision(1))
        let start = SyncState(records: [survey(with(v1, "member", .array([anaOlder, bo])))], ledger: ledger)
        let applied = SyncPlan.apply([incoming(with(v1, "member", .array([bo])), revision: 2)], to: start, at: date)
        let conflict = try XCTUnwrap(applied.state.ledger.conflictList.first?.field)
        XCTAssertEqual(conflict.path, SyncFieldPath([.key("member")]))
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: conflict.path, by: .value(.string("Bo")), in: applied.state, at: date)) {
            XCTAssertTrue("\($0)".contains("is a roster"), "\($0)")
        }
        XCTAssertEqual(ConflictListing.cellText(conflict.mine, wholeSurvey: false, base: conflict.base), "2: Ana*, Bo")
        XCTAssertEqual(ConflictListing.cellText(conflict.theirs, wholeSurvey: false, base: conflict.base), "1: Bo")
        XCTAssertEqual(ConflictListing.cellText(conflict.base, wholeSurvey: false), "2: Ana, Bo")
        let theirs = try SyncPlan.resolve(id: id, path: conflict.path, by: .theirs, in: applied.state, at: date)
        XCTAssertEqual(theirs.state.records.first?["member"], .array([bo]))
        let mine = try SyncPlan.resolve(id: id, path: conflict.path, by: .mine, in: applied.state, at: date)
        XCTAssertEqual(mine.state.records.first?["member"], .array([anaOlder, bo]))
    }

    func testDeletedThereAndUnchangedHereMovesToTheDeletedSurveys() {
        let applied = SyncPlan.apply([incoming(v1, revision: 2, deleted: true)], to: state(mine: v1), at: date)
        XCTAssertEqual(applied.state.records, [])
        XCTAssertEqual(applied.movedToDeleted, [survey(v1)])
        XCTAssertEqual(applied.state.deleted, [DeletedRecord(record: survey(v1), deletedAt: date)])
        XCTAssertEqual(applied.state.ledger.bases[id]?.deleted, true)
        XCTAssertEqual(SyncPlan.outgoing(from: applied.state, device: "a"), [], "a delete that came in is not sent back")
    }

    func testEditedHereDeletedThereIsAConflictAndTheSurveyStays() throws {
        let mine = with(v1, "age", .integer(31))
        let applied = SyncPlan.apply([incoming(v1, revision: 2, deleted: true)], to: state(mine: mine), at: date)
        XCTAssertEqual(applied.state.records, [survey(mine)])
        XCTAssertEqual(applied.events, [SyncEvent(.conflicted, id, fields: [SyncFieldPath()])])
        XCTAssertEqual(applied.state.ledger.conflicts[id]?.fields.first?.theirs, nil)
        // Keeping mine sends it back as an edit of the tombstone's revision.
        let kept = try SyncPlan.resolve(id: id, path: nil, by: .mine, in: applied.state, at: date)
        XCTAssertEqual(kept.state.records, [survey(mine)])
        XCTAssertEqual(SyncPlan.outgoing(from: kept.state, device: "a").map(\.baseRevision), [SyncRevision(2)])
        // Taking theirs deletes it here, recoverably, and sends nothing.
        let gone = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: applied.state, at: date)
        XCTAssertEqual(gone.state.records, [])
        XCTAssertEqual(gone.movedToDeleted, [survey(mine)])
        XCTAssertEqual(SyncPlan.outgoing(from: gone.state, device: "a"), [])
    }

    func testDeletedHereEditedThereComesBackMarked() {
        var start = state(mine: v1)
        start.records = []
        start.deleted = [DeletedRecord(record: survey(v1), deletedAt: date)]
        let theirs = with(v1, "age", .integer(40))
        let applied = SyncPlan.apply([incoming(theirs, revision: 2)], to: start, at: date)
        XCTAssertEqual(applied.state.records, [survey(theirs)])
        XCTAssertEqual(applied.broughtBack, [id])
        XCTAssertEqual(applied.state.deleted, [])
        XCTAssertEqual(applied.state.ledger.conflicts[id]?.fields, [
            FieldConflict(path: SyncFieldPath(), base: .dictionary(v1), mine: nil, theirs: .dictionary(theirs)),
        ])
    }

    func testADeleteHereGoesOutAsATombstoneOfItsBaseRevision() {
        var start = state(mine: v1)
        start.records = []
        XCTAssertEqual(SyncPlan.outgoing(from: start, device: "a"), [
            OutgoingChange(id: id, answers: v1, deleted: true, baseRevision: SyncRevision(1), review: nil, device: "a"),
        ])
        // The same version coming back while deleted here changes nothing: the delete stands.
        let applied = SyncPlan.apply([incoming(v1, revision: 1)], to: start, at: date)
        XCTAssertEqual(applied.state, start)
    }

    func testNewSurveysOnEitherSide() {
        let other = IncomingVersion(id: "uuid:bo", answers: ["firstName": .string("Bo")], revision: SyncRevision(7),
                                    formID: "hh", formVersion: "3")
        let applied = SyncPlan.apply([other], to: SyncState(records: [survey(v1)]), at: date)
        XCTAssertEqual(applied.state.records.last?.values,
                       ["firstName": .string("Bo"), "formID": .string("hh"), "formVersion": .string("3"), "instanceID": .string("uuid:bo")])
        let out = SyncPlan.outgoing(from: applied.state, device: "a")
        XCTAssertEqual(out.map(\.id), [id], "only the survey the other side does not have")
        XCTAssertNil(out.first?.baseRevision)
    }

    func testApplyingTheSameInputTwiceChangesNothing() {
        let inputs: [[IncomingVersion]] = [
            [incoming(with(v1, "age", .integer(31)), revision: 2)],
            [incoming(with(v1, "age", .integer(32)), revision: 2)],
            [incoming(v1, revision: 2, deleted: true)],
            [IncomingVersion(id: "uuid:new", answers: ["x": .integer(1)], revision: nil)],
        ]
        for mine in [v1, with(v1, "age", .integer(33)), with(v1, "phone", .string("9"))] {
            for input in inputs {
                let once = SyncPlan.apply(input, to: state(mine: mine), at: date).state
                let twice = SyncPlan.apply(input, to: once, at: date)
                XCTAssertEqual(twice.state, once, "\(mine) \(input)")
                XCTAssertEqual(twice.events, [], "\(mine) \(input)")
            }
        }
    }

    func testAcknowledgingMakesTheSentVersionTheBase() {
        var start = state(mine: with(v1, "age", .integer(31)))
        start.ledger.reviews[id] = SyncReview(.hasIssues, comment: "age?")
        let out = SyncPlan.outgoing(from: start, device: "a")
        XCTAssertEqual(out.map(\.review), [.edited], "a fix of a survey sent back goes out as edited")
        SyncPlan.acknowledge(out[0], revision: SyncRevision(9), in: &start.ledger)
        XCTAssertEqual(start.ledger.bases[id], SyncLedger.Version(answers: with(v1, "age", .integer(31)), revision: SyncRevision(9)))
        XCTAssertEqual(start.ledger.reviews[id], SyncReview(.edited))
        XCTAssertEqual(SyncPlan.outgoing(from: start, device: "a"), [])
    }

    func testAReviewThatComesInIsKept() {
        var version = incoming(v1, revision: 1)
        version.review = SyncReview(.hasIssues, comment: "check the age")
        let applied = SyncPlan.apply([version], to: state(mine: v1), at: date)
        XCTAssertEqual(applied.state.ledger.reviews[id], SyncReview(.hasIssues, comment: "check the age"))
        XCTAssertEqual(applied.state.records, [survey(v1)])
    }

    func testTheDeviceIDCanBeNamed() {
        XCTAssertEqual(SyncDevice.current(environment: ["SURVEY_DEVICE": "laptop-3"]), "laptop-3")
        XCTAssertTrue(SyncDevice.current(environment: [:]).hasPrefix("survey:"))
    }
}
