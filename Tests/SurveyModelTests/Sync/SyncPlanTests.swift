import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

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

    /// Two surveys of one id in a document (a merge's leftovers): what comes in lands on the
    /// first, as it always did, the applier's index built from the last survey to the first.
    func testAVersionOfAnIDHeldTwiceLandsOnTheFirst() {
        let second = with(v1, "phone", .string("second"))
        var start = state(mine: v1)
        start.records.append(survey(second))
        start.records.append(survey(["firstName": .string("Bo")], id: "uuid:bo"))
        let theirs = with(v1, "age", .integer(31))
        let applied = SyncPlan.apply([incoming(theirs, revision: 2)], to: start, at: date)
        XCTAssertEqual(applied.state.records, [survey(theirs), survey(second), survey(["firstName": .string("Bo")], id: "uuid:bo")])
        XCTAssertEqual(applied.events, [SyncEvent(.fastForwarded, id)])
    }

    /// A pull hands its answers over packed: the id is taken out and the form's id and version
    /// put in only when missing, as from a dictionary, and a survey new here is the same record.
    func testAVersionFromPackedAnswersIsTheVersionFromTheirDictionary() {
        let cases: [([String: PropertyValue], String?, String?)] = [
            (v1, nil, nil), (v1, "household", "3"), (with(v1, Record.instanceIDKey, .string("uuid:other")), "household", nil),
            (with(with(v1, "formID", .string("kept")), "formVersion", .string("7")), "household", "3"), ([:], "", ""),
        ]
        for (answers, formID, formVersion) in cases {
            let packed = IncomingVersion(id: id, packed: Record(answers), revision: SyncRevision(4), formID: formID, formVersion: formVersion)
            let fromDictionary = IncomingVersion(id: id, answers: answers, revision: SyncRevision(4), formID: formID, formVersion: formVersion)
            XCTAssertEqual(packed, fromDictionary, "\(answers)")
            XCTAssertTrue(packed.packed.hasIdenticalBytes(fromDictionary.packed), "\(answers)")
            let added = SyncPlan.apply([packed], to: SyncState(records: []), at: date)
            XCTAssertEqual(added.state.records, [survey(fromDictionary.answers)])
            XCTAssertEqual(added.state.ledger.bases[id], SyncLedger.Version(answers: fromDictionary.answers, revision: SyncRevision(4)))
        }
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

    /// "Mine" is what the survey holds when the conflict is settled: a correction keyed since
    /// the pull stays and goes out, and so does a member corrected at a place another member's
    /// delete has moved (the value the pull found is never written over either).
    func testKeepingMineKeepsWhatTheSurveyHoldsNowNotWhatThePullFound() throws {
        let mine = with(v1, "age", .integer(31))
        let theirs = with(v1, "age", .integer(32))
        let applied = SyncPlan.apply([incoming(theirs, revision: 2)], to: state(mine: mine), at: date)
        var corrected = applied.state
        corrected.records[0]["age"] = .integer(33)
        // What c (F4) and survey conflicts show as mine is what m and --mine keep.
        XCTAssertEqual(SyncSummary(corrected).conflicts.map(\.mine), [.integer(33)])
        XCTAssertEqual(corrected.ledger.conflictList(holding: corrected.records).map(\.field.mine), [.integer(33)])
        XCTAssertEqual(corrected.ledger.conflictList.map(\.field.mine), [.integer(31)], "the ledger keeps what the pull found")
        let kept = try SyncPlan.resolve(id: id, path: SyncFieldPath([.key("age")]), by: .mine, in: corrected, at: date)
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(kept.state.ledger.conflicts, [:])
        XCTAssertEqual(kept.state.records, [survey(with(v1, "age", .integer(33)))], "the correction, not the 31 the pull found")
        XCTAssertEqual(SyncPlan.outgoing(from: kept.state, device: "a").map(\.answers), [with(v1, "age", .integer(33))])
        XCTAssertEqual(SyncPlan.outgoing(from: kept.state, device: "a").map(\.baseRevision), [SyncRevision(2)])

        // A member's answer in conflict, then the member before it deleted here: its place now
        // holds the next member, whose answer mine leaves as it is.
        let ana: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(30)])
        let bo: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(31)])
        let cy: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(3)])
        var ledger = SyncLedger()
        ledger.bases[id] = SyncLedger.Version(answers: with(v1, "member", .array([ana, bo, cy])), revision: SyncRevision(1))
        let boHere: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(32)])
        let boThere: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(33)])
        let start = SyncState(records: [survey(with(v1, "member", .array([ana, boHere, cy])))], ledger: ledger)
        let clash = SyncPlan.apply([incoming(with(v1, "member", .array([ana, boThere, cy])), revision: 2)], to: start, at: date)
        XCTAssertEqual(clash.state.ledger.conflictList.map(\.field.path.description), ["member[2]/age"])
        var moved = clash.state
        moved.records[0]["member"] = .array([boHere, cy])
        let keptMember = try SyncPlan.resolve(id: id, path: nil, by: .mine, in: moved, at: date)
        XCTAssertEqual(keptMember.state.records.first?["member"], .array([boHere, cy]), "Cy keeps her age")
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

    /// Issue 27, item 7: a roster in conflict (its members moved on both sides) is never
    /// replaced by typed text; it is kept whole, mine or theirs; and the listing tells the two
    /// sides apart by their members, the changed ones marked.
    func testARosterConflictIsResolvedWholeNeverByATypedValueAndShowsWhatDiffers() throws {
        let ana: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(30)])
        let bo: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(31)])
        let cy: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(3)])
        let cyOlder: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(4)])
        let base = with(v1, "member", .array([ana, bo, cy]))
        var ledger = SyncLedger()
        ledger.bases[id] = SyncLedger.Version(answers: base, revision: SyncRevision(1))
        let start = SyncState(records: [survey(with(v1, "member", .array([cy, ana, bo])))], ledger: ledger)
        let applied = SyncPlan.apply([incoming(with(v1, "member", .array([bo, ana, cyOlder])), revision: 2)], to: start, at: date)
        let conflict = try XCTUnwrap(applied.state.ledger.conflictList.first?.field)
        XCTAssertEqual(conflict.path, SyncFieldPath([.key("member")]), "moved on both sides: one conflict on the roster")
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: conflict.path, by: .value(.string("Bo")), in: applied.state, at: date)) {
            XCTAssertTrue("\($0)".contains("is a roster"), "\($0)")
        }
        XCTAssertEqual(ConflictListing.cellText(conflict.mine, wholeSurvey: false, base: conflict.base), "3: Cy, Ana, Bo")
        XCTAssertEqual(ConflictListing.cellText(conflict.theirs, wholeSurvey: false, base: conflict.base), "3: Bo, Ana, Cy*")
        XCTAssertEqual(ConflictListing.cellText(conflict.base, wholeSurvey: false), "3: Ana, Bo, Cy")
        let theirs = try SyncPlan.resolve(id: id, path: conflict.path, by: .theirs, in: applied.state, at: date)
        XCTAssertEqual(theirs.state.records.first?["member"], .array([bo, ana, cyOlder]))
        let mine = try SyncPlan.resolve(id: id, path: conflict.path, by: .mine, in: applied.state, at: date)
        XCTAssertEqual(mine.state.records.first?["member"], .array([cy, ana, bo]))
    }

    /// Issue 28: a member deleted there and edited here is a conflict on that member
    /// (`member[1]`), kept as edited; taking the delete removes that member alone, and a
    /// conflict on a later member, now one place earlier, is still settled on its person.
    func testAMemberDeletedThereAndEditedHereIsResolvedOnThatMemberAndLaterPathsFollow() throws {
        let ana: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(30)])
        let anaOlder: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(41)])
        let bo: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(31)])
        let cy: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(3)])
        let cyMine: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(4)])
        let cyTheirs: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(5)])
        var ledger = SyncLedger()
        ledger.bases[id] = SyncLedger.Version(answers: with(v1, "member", .array([ana, bo, cy])), revision: SyncRevision(1))
        let start = SyncState(records: [survey(with(v1, "member", .array([anaOlder, bo, cyMine])))], ledger: ledger)
        let applied = SyncPlan.apply([incoming(with(v1, "member", .array([bo, cyTheirs])), revision: 2)], to: start, at: date)
        XCTAssertEqual(applied.state.ledger.conflictList.map(\.field), [
            FieldConflict(path: SyncFieldPath([.key("member"), .index(0)]), base: ana, mine: anaOlder, theirs: nil),
            FieldConflict(path: SyncFieldPath([.key("member"), .index(2), .key("age")]), base: .integer(3), mine: .integer(4), theirs: .integer(5)),
        ])
        XCTAssertEqual(applied.state.records.first?["member"], .array([anaOlder, bo, cyMine]))
        let member = SyncFieldPath([.key("member"), .index(0)])
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: member, by: .value(.string("Ana")), in: applied.state, at: date)) {
            XCTAssertTrue("\($0)".contains("is a member"), "\($0)")
        }
        XCTAssertEqual(ConflictListing.cellText(anaOlder, wholeSurvey: false, member: true), #"{ "age": 41, "name": "Ana" }"#)
        XCTAssertEqual(ConflictListing.cellText(nil, wholeSurvey: false, member: true), "(deleted)")

        // Taking the delete: Ana leaves; Cy's conflict is now member[2]/age, and lands on Cy.
        let gone = try SyncPlan.resolve(id: id, path: member, by: .theirs, in: applied.state, at: date)
        XCTAssertEqual(gone.state.records.first?["member"], .array([bo, cyMine]))
        XCTAssertEqual(gone.deletedMembers, [DeletedMemberEntry(answers: ["name": .string("Ana"), "age": .integer(41)], survey: id,
                                                                roster: "member[1]", deletedAt: date)], "kept, as ^D keeps one")
        XCTAssertEqual(gone.state.ledger.conflictList.map(\.field.path.description), ["member[2]/age"])
        let settled = try SyncPlan.resolve(id: id, path: SyncFieldPath(text: "member[2]/age"), by: .theirs, in: gone.state, at: date)
        XCTAssertEqual(settled.state.records.first?["member"], .array([bo, cyTheirs]))
        XCTAssertEqual(settled.state.ledger.conflicts, [:])
        XCTAssertEqual(SyncPlan.outgoing(from: settled.state, device: "a"), [], "theirs taken everywhere: nothing to send")
        // All at once, the same.
        let all = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: applied.state, at: date)
        XCTAssertEqual(all.state.records.first?["member"], .array([bo, cyTheirs]))
        XCTAssertEqual(all.count, 2)
        // Keeping the edit: Ana stays, and goes out as an edit of their version.
        let kept = try SyncPlan.resolve(id: id, path: nil, by: .mine, in: applied.state, at: date)
        XCTAssertEqual(kept.state.records.first?["member"], .array([anaOlder, bo, cyMine]))
        XCTAssertEqual(SyncPlan.outgoing(from: kept.state, device: "a").map(\.baseRevision), [SyncRevision(2)])
        // Ana corrected in the app since: still Ana, so taking the delete removes her.
        var corrected = applied.state
        corrected.records[0]["member"] = .array([.dictionary(["name": .string("Ana"), "age": .integer(42)]), bo, cyMine])
        let correctedGone = try SyncPlan.resolve(id: id, path: member, by: .theirs, in: corrected, at: date)
        XCTAssertEqual(correctedGone.state.records.first?["member"], .array([bo, cyMine]))
        // Member 1 is someone else by now (Ana deleted in the app): taking the delete removes
        // nobody (Bo stays), and says why; keeping the survey as it is settles it, Ana gone.
        var changed = applied.state
        changed.records[0]["member"] = .array([bo, cyMine])
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: member, by: .theirs, in: changed, at: date)) {
            XCTAssertTrue("\($0)".contains("member[1] of uuid:ana is a member no longer in the survey here"), "\($0)")
        }
        let leftGone = try SyncPlan.resolve(id: id, path: member, by: .mine, in: changed, at: date)
        XCTAssertEqual(leftGone.state.records.first?["member"], .array([bo, cyMine]))
        XCTAssertEqual(leftGone.deletedMembers, [], "nobody removed: Ana was deleted in the app")
        XCTAssertEqual(leftGone.state.ledger.conflictList.map(\.field.path.description), ["member[3]/age"],
                       "named by its place when the pull found it, and found by who the member is")
        let cySettled = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: leftGone.state, at: date)
        XCTAssertEqual(cySettled.state.records.first?["member"], .array([bo, cyTheirs]))
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
    }

    /// Unnamed, a laptop is its host and an id of its own installation, kept: two laptops imaged
    /// alike (one host name) are still two devices, so neither takes the other's change of a
    /// survey for its own push (TeamCrossingTests runs that against the server).
    func testUnnamedLaptopsSharingAHostNameAreTwoDevices() throws {
        // As the program sets it at its start (`main`).
        let hook = SyncDevice.installationID
        SyncDevice.installationID = DeviceInstallation.id(environment:)
        defer { SyncDevice.installationID = hook }
        let homes = (0..<2).map { _ in FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)") }
        defer { for home in homes { try? FileManager.default.removeItem(at: home) } }
        let first = SyncDevice.current(environment: ["XDG_STATE_HOME": homes[0].path])
        let second = SyncDevice.current(environment: ["XDG_STATE_HOME": homes[1].path])
        let host = ProcessInfo.processInfo.hostName
        XCTAssertTrue(first.hasPrefix("survey:\(host):"), first)
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(SyncDevice.current(environment: ["XDG_STATE_HOME": homes[0].path]), first, "kept, the same at every sync")
        let kept = try String(contentsOf: homes[0].appendingPathComponent("survey/device-id"), encoding: .utf8)
        XCTAssertEqual("survey:\(host):" + kept.trimmingCharacters(in: .newlines), first)
        // A file that is not an id is not taken (nor written over): the host name alone then.
        try Data("../../etc\n".utf8).write(to: homes[1].appendingPathComponent("survey/device-id"))
        XCTAssertEqual(SyncDevice.current(environment: ["XDG_STATE_HOME": homes[1].path]), "survey:\(host)")
    }
}
