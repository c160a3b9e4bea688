import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// A hostile review of the hunt's fixes (merge 7663b3b): the team pull settling merged
/// surveys' calculations (c95797c), `--mine` keeping the survey's answer (0aee689), a survey
/// whose id is in another dataset (570755c) and a renamed formless document keeping its
/// team's dataset (0585378), through the throwaway PostgreSQL and `DocumentSync`.
final class FixReviewTests: DatabaseTestCase {
    private func serverAnswer(_ key: String) throws -> String {
        try server.psql("SELECT answers->>'\(key)' FROM survey.surveys WHERE instance_id = 'uuid:s1'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - A calculation that depends on an answer in conflict

    /// Was wrong before the review of the hunt's fixes: the pull settles a survey in conflict too (Questionnaire+SettlingMerges.swift:
    /// 27-31, from DocumentSync.swift:375-379): its calculations are computed from the answers
    /// the document holds, which for the answer in conflict is still mine (a = 7), and the
    /// calculations' own clash (total 6 there, 8 here) is dropped from the conflict. `--theirs`
    /// then writes only a = 5 (SyncPlan+Resolve.swift:84, nothing computes the form again:
    /// DocumentStore+SyncCommands.swift:39-51), so B stores a = 5 with total 8 and twice 14 (the
    /// form's for a = 7) and sends them: every laptop and the server hold a wrong total. Before
    /// c95797c, total and twice were in the conflict and --theirs took them with a.
    func testTakingTheirsForAnAnswerInConflictLeavesNoCalculationOfMine() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["a": .integer(1), "b": .integer(1), "total": .string("2"), "twice": .string("2")])])
        let b = try laptop()
        try attachSums(to: a)
        try attachSums(to: b)
        try sync(a, "Field", as: ana, device: "A")
        try sync(b, "Field", as: ana, device: "B")

        try edit(a, "Field", "uuid:s1", sums(5, 1))       // total 6, twice 10
        try edit(b, "Field", "uuid:s1", sums(7, 1))       // total 8, twice 14
        try sync(a, "Field", as: ana, device: "A")
        XCTAssertEqual(try sync(b, "Field", as: ana, device: "B").conflicts, ["uuid:s1"], "a changed on both")
        _ = try b.resolveConflict(id: "uuid:s1", path: nil, by: .theirs, in: "Field", at: Date())
        XCTAssertEqual(try answer(b, "uuid:s1", "a"), .integer(5))
        XCTAssertEqual(try answer(b, "uuid:s1", "total"), .string("6"), "the total for a = 5, b = 1, not mine's 8")
        XCTAssertEqual(try answer(b, "uuid:s1", "twice"), .string("10"), "twice a = 5, not mine's 14")
        try sync(b, "Field", as: ana, device: "B")
        XCTAssertEqual(try serverAnswer("total"), "6", "the server holds a total for its a")
    }

    /// Was wrong before the review of the hunt's fixes: the same with a value typed (`survey resolve --value`, the app's v): a = 9
    /// is stored beside total 8 (mine's), which goes out.
    func testAValueTypedForAnAnswerInConflictLeavesNoCalculationOfMine() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["a": .integer(1), "b": .integer(1), "total": .string("2"), "twice": .string("2")])])
        let b = try laptop()
        try attachSums(to: a)
        try attachSums(to: b)
        try sync(a, "Field", as: ana, device: "A")
        try sync(b, "Field", as: ana, device: "B")
        try edit(a, "Field", "uuid:s1", sums(5, 1))
        try edit(b, "Field", "uuid:s1", sums(7, 1))
        try sync(a, "Field", as: ana, device: "A")
        try sync(b, "Field", as: ana, device: "B")
        _ = try b.resolveConflict(id: "uuid:s1", path: SyncFieldPath([.key("a")]), by: .value(.integer(9)), in: "Field", at: Date())
        XCTAssertEqual(try answer(b, "uuid:s1", "total"), .string("10"), "the total for a = 9, b = 1")
    }

    // MARK: - A formless document pushed only, then renamed

    /// Was wrong before the review of the hunt's fixes: 0585378 keeps a renamed formless document with its team only through the
    /// ledger's `pullDataset` (DocumentSync.swift:125, 512-515), which only a pull sets
    /// (`SyncLedger.pull(from:)`, DocumentSync.swift:367-368). A laptop that only ever ran
    /// `survey push` (pull: false) has none, so after `survey docs rename Field "Field 2"` its
    /// dataset is "Field 2": its next sync's edit of s1 goes out with dataset = 'Field 2', and
    /// the server's UPDATE moves s1 out of the team's dataset (SurveyServer+Push.swift:71,
    /// `SET dataset = u.dataset`). B never receives A's edit; B's own edit of s1 is then
    /// refused as stale at every sync ("sync again"), and no pull of "Field" ever brings the
    /// version it is stale against: B is stuck on that survey.
    func testADocumentOnlyEverPushedThenRenamedStillTradesEditsWithItsTeam() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["name": .string("Ana"), "age": .integer(30)])])
        let b = try laptop()
        XCTAssertEqual(try sync(a, "Field", as: ana, device: "A", pull: false).pushed, 1, "survey push")
        try sync(b, "Field", as: ana, device: "B")
        XCTAssertEqual(try answer(b, "uuid:s1", "age"), .integer(30))

        XCTAssertEqual(try a.rename("Field", to: "Field 2", at: Date()), "Field 2")
        try edit(a, "Field 2", "uuid:s1") { $0["age"] = .integer(31) }
        try sync(a, "Field 2", as: ana, device: "A")
        try sync(b, "Field", as: ana, device: "B")
        XCTAssertEqual(try server.psql("SELECT string_agg(DISTINCT dataset, ',') FROM survey.surveys", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "Field", "the team's survey stays in its dataset")
        XCTAssertEqual(try answer(b, "uuid:s1", "age"), .integer(31), "A's edit reached B")

        try edit(b, "Field", "uuid:s1") { $0["phone"] = .string("555") }
        let second = try sync(b, "Field", as: ana, device: "B")
        XCTAssertEqual(second.refused, [], "B's edit is taken, not refused as stale at every sync")
    }

    // MARK: - A new survey whose push was cut off, then the dataset changed

    /// A pushes with `survey push` (never a pull) and the push is cut off after the server kept
    /// its first batch, before A heard; A then renames the document. Its next push finds its
    /// own surveys in the team's dataset (the dataset was written before the first push), not
    /// copies in another: none is named a copy to delete, and all go or are acknowledged.
    /// (Before, a laptop that never pulled had no dataset but its name: renamed, it sent its
    /// own stored surveys as new under the new name, and each was named a copy to delete.)
    func testAnOwnPushWhoseAcknowledgementWasLostIsNotNamedACopyToDeleteAfterARename() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let postgres = server!
        let batch = SurveyServer.pushBatchSize, total = batch + batch / 5
        let a = try laptop((0..<total).map { survey("uuid:k\($0)", ["name": .string("Person \($0)")]) })
        XCTAssertThrowsError(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", pull: false,
                                                  at: { Date() }, progress: { progress in
            if progress.contains("\(batch) of \(total) out") {
                _ = try? postgres.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(ana)'")
            }
        }))
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "\(batch)")
        XCTAssertEqual(try a.syncLedger(for: "Field").bases.count, 0, "A never heard")
        XCTAssertEqual(try a.rename("Field", to: "Field 2", at: Date()), "Field 2")
        let again = try sync(a, "Field 2", as: ana, device: "A", pull: false)
        XCTAssertEqual(again.notSent, [], "A's own surveys, stored, are not named copies to delete")
        XCTAssertEqual(again.pushed, total)
        XCTAssertEqual(try server.psql("SELECT count(*) || ' ' || string_agg(DISTINCT dataset, ',') FROM survey.surveys", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "\(total) Field")
    }
}
