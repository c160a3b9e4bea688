import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
@testable import SurveyStorage
import SurveyTestSupport

/// Issue 28: a sync that only pulls reads the ledger in part (`PartialLedger`): the entries of
/// the surveys that come, not every survey's. Each test runs the same history on two laptops
/// of one team, one reading its ledger in part and its twin reading it whole, and asks that
/// both end with the same surveys and the same ledger, where the part meets the rest: edits,
/// deletes and new surveys, a roster, a conflict kept from before, a supervisor's review, a
/// merge of a change keyed here (`survey pull`), a pull larger than a part holds, another login.
final class PartialLedgerSyncTests: DatabaseTestCase {
    private var ana = "", bruno = ""
    private var a: DocumentStore!

    private func household(_ i: Int, members: Int = 2) -> Record {
        survey("uuid:h\(i)", ["head": .string("Head \(i)"), "village": .string("Mathare"), "size": .integer(members),
                              "notes": .string(i % 4 == 0 ? "two lines\n\tof notes" : "none"),
                              "members": .array((0..<members).map { .dictionary(["name": .string("M\($0) of \(i)"), "age": .integer(20 + $0)]) })])
    }

    /// Ana's laptop with `count` households pushed, and Bruno's two twins that pulled them and
    /// synced again with nothing to do (so the next sync of each only pulls).
    private func team(_ count: Int = 40) throws -> (DocumentStore, DocumentStore) {
        try initialize()
        ana = try loginRole("ana", in: "survey_enumerator")
        bruno = try loginRole("bruno", in: "survey_enumerator")
        a = try laptop((0..<count).map { household($0) })
        XCTAssertEqual(try sync(a, "Field", as: ana, device: "A").pushed, count)
        let twins = (try laptop(), try laptop())
        for b in [twins.0, twins.1] {
            XCTAssertEqual(try sync(b, "Field", as: bruno, device: "B").pulled, count)
            XCTAssertEqual(try sync(b, "Field", as: bruno, device: "B").message, "Synced “Field”: 0 in, 0 out")
        }
        return twins
    }

    /// The same sync of each twin, `inPart` reading its ledger in part, `whole` whole; both
    /// results, after checking which read which way.
    private func syncTwins(_ inPart: DocumentStore, _ whole: DocumentStore, as role: String? = nil, push: Bool = true,
                           file: StaticString = #filePath, line: UInt = #line) throws -> (DocumentSync.Result, DocumentSync.Result) {
        let role = role ?? bruno
        let before = SyncLedger.timesReadInPart
        let first = try sync(inPart, "Field", as: role, device: "B", push: push)
        XCTAssertEqual(SyncLedger.timesReadInPart, before + 1, "the sync read its ledger in part", file: file, line: line)
        DocumentStore.ledgerReadInPartFrom = .max
        defer { DocumentStore.ledgerReadInPartFrom = 0 }
        let second = try sync(whole, "Field", as: role, device: "B", push: push)
        XCTAssertEqual(SyncLedger.timesReadInPart, before + 1, "its twin read its ledger whole", file: file, line: line)
        XCTAssertEqual(first.message, second.message, file: file, line: line)
        return (first, second)
    }

    /// Both twins hold the same surveys, deleted surveys and ledger (the time of sync aside).
    private func assertTwinsAgree(_ x: DocumentStore, _ y: DocumentStore, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try records(x, "Field"), try records(y, "Field"), "the surveys", file: file, line: line)
        XCTAssertEqual(try x.deletedRecords(for: "Field").map(\.record), try y.deletedRecords(for: "Field").map(\.record),
                       file: file, line: line)
        var (lx, ly) = (try x.syncLedger(for: "Field"), try y.syncLedger(for: "Field"))
        XCTAssertFalse(lx.isPartial || ly.isPartial)
        (lx.lastSync, ly.lastSync) = (nil, nil)
        XCTAssertEqual(lx.bases.dictionary, ly.bases.dictionary, "the bases", file: file, line: line)
        XCTAssertEqual(lx.owners.dictionary, ly.owners.dictionary, "the owners", file: file, line: line)
        XCTAssertEqual(lx.conflicts.dictionary, ly.conflicts.dictionary, "the conflicts", file: file, line: line)
        XCTAssertEqual(lx.reviews.dictionary, ly.reviews.dictionary, "the reviews", file: file, line: line)
        XCTAssertEqual(lx, ly, "the rest of the ledger", file: file, line: line)
    }

    func testEditsDeletesAndNewSurveysPulledInPartLeaveWhatAWholeReadLeaves() throws {
        let (b1, b2) = try team()
        try edit(a, "Field", "uuid:h3") { $0["head"] = .string("New head") }
        try edit(a, "Field", "uuid:h8") { record in
            guard case .array(var members)? = record["members"] else { return }
            members.append(.dictionary(["name": .string("Baby"), "age": .integer(0)]))
            record["members"] = .array(members)
            record["size"] = .integer(3)
        }
        var document = try a.load("Field").get()
        document.records.removeAll { $0.instanceID == "uuid:h12" }
        document.records.append(household(100, members: 4))
        _ = try a.save(document, as: "Field")
        try sync(a, "Field", as: ana, device: "A")

        let (pulled, _) = try syncTwins(b1, b2)
        XCTAssertEqual(pulled.pulled, 4)
        try assertTwinsAgree(b1, b2)
        XCTAssertEqual(try answer(b1, "uuid:h3", "head"), .string("New head"))
        XCTAssertNil(try records(b1, "Field").first { $0.instanceID == "uuid:h12" })
        XCTAssertEqual(try b1.syncLedger(for: "Field").owners["uuid:h100"], ana)
        // And each goes on as one: Bruno's next edit of Ana's survey is still hers.
        XCTAssertEqual(try sync(b1, "Field", as: bruno, device: "B").message, "Synced “Field”: 0 in, 0 out")
    }

    func testAConflictKeptFromBeforeMeetsANewVersionOfItsSurveyPulledInPart() throws {
        let (b1, b2) = try team()
        // Bruno's laptops are supervisors' here in all but name: a change to Ana's survey is
        // kept as a conflict with hers (it is her survey), the same on both twins.
        for b in [b1, b2] { try edit(b, "Field", "uuid:h5") { $0["village"] = .string("Kibera") } }
        try edit(a, "Field", "uuid:h5") { $0["village"] = .string("Korogocho") }
        try sync(a, "Field", as: ana, device: "A")
        for b in [b1, b2] {
            let kept = try sync(b, "Field", as: bruno, device: "B")
            XCTAssertEqual(kept.conflicts, ["uuid:h5"])
            try sync(b, "Field", as: bruno, device: "B")
        }
        // Ana changes the survey again, and another: Bruno's twins only pull.
        try edit(a, "Field", "uuid:h5") { $0["head"] = .string("Another head") }
        try edit(a, "Field", "uuid:h6") { $0["head"] = .string("Sixth") }
        try sync(a, "Field", as: ana, device: "A")
        let (first, second) = try syncTwins(b1, b2)
        XCTAssertEqual(first.conflicts, second.conflicts)
        try assertTwinsAgree(b1, b2)
        XCTAssertNotNil(try b1.syncLedger(for: "Field").conflicts["uuid:h5"], "the conflict is still there to settle")
    }

    func testASupervisorsReviewPulledInPartIsKept() throws {
        let (b1, b2) = try team()
        let carla = try supervisor("carla")
        XCTAssertTrue(try carla.setReview("uuid:h9", state: .hasIssues, comment: "ages?\nthe second member"))
        XCTAssertTrue(try carla.setReview("uuid:h10", state: .approved, comment: nil))
        _ = try syncTwins(b1, b2)
        try assertTwinsAgree(b1, b2)
        XCTAssertEqual(try b1.syncLedger(for: "Field").reviews["uuid:h9"]?.state, .hasIssues)
    }

    func testAPullOfAChangeKeyedHereMergesItInPartAsWhole() throws {
        let (b1, b2) = try team()
        // Bruno's own survey, pulled by Ana, changed on both sides; `survey pull` on his twins.
        for b in [b1, b2] {
            var document = try b.load("Field").get()
            document.records.append(household(200))
            _ = try b.save(document, as: "Field")
        }
        try sync(b1, "Field", as: bruno, device: "B")
        try sync(b2, "Field", as: bruno, device: "B2")
        try sync(a, "Field", as: ana, device: "A")
        for b in [b1, b2] {
            try edit(b, "Field", "uuid:h200") { $0["village"] = .string("Kibera") }
            try edit(b, "Field", "uuid:h2") { $0["notes"] = .string("kept here") }
        }
        try edit(a, "Field", "uuid:h2") { $0["head"] = .string("Changed by Ana") }
        try sync(a, "Field", as: ana, device: "A")
        _ = try syncTwins(b1, b2, push: false)
        try assertTwinsAgree(b1, b2)
        XCTAssertEqual(try answer(b1, "uuid:h2", "head"), .string("Changed by Ana"))
        XCTAssertEqual(try answer(b1, "uuid:h2", "notes"), .string("kept here"), "Bruno's change, kept, waits to go")
    }

    func testAPullLargerThanAPartHoldsIsMadeWholeOnTheWay() throws {
        let count = SyncLedger.mostReadInPart + 500
        let (b1, b2) = try team(count)
        var document = try a.load("Field").get()
        for i in document.records.indices { document.records[i]["village"] = .string("Kibera") }
        _ = try a.save(document, as: "Field")
        XCTAssertEqual(try sync(a, "Field", as: ana, device: "A").pushed, count)
        let madeWhole = SyncLedger.timesMadeWhole
        let (pulled, _) = try syncTwins(b1, b2)
        XCTAssertEqual(pulled.pulled, count)
        XCTAssertGreaterThan(SyncLedger.timesMadeWhole, madeWhole, "the part was made whole past its limit")
        try assertTwinsAgree(b1, b2)
    }

    func testASyncAsAnotherLoginMakesThePartWholeToLearnOwners() throws {
        let (b1, b2) = try team()
        try edit(a, "Field", "uuid:h1") { $0["head"] = .string("One") }
        try sync(a, "Field", as: ana, device: "A")
        let carla = try loginRole("carla", in: "survey_enumerator")
        let madeWhole = SyncLedger.timesMadeWhole
        _ = try syncTwins(b1, b2, as: carla)
        XCTAssertGreaterThan(SyncLedger.timesMadeWhole, madeWhole)
        try assertTwinsAgree(b1, b2)
        XCTAssertEqual(try b1.syncLedger(for: "Field").role, carla)
    }
}
