import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
@testable import SurveyStorage
import SurveyTestSupport

/// A hostile review of the ledger's journal (1864bf7), through the team's database: every
/// commit of a few surveys takes the journal here (`DatabaseTestCase` lowers its size to 0).
final class LedgerJournalReviewDBTests: DatabaseTestCase {
    /// Was lost before the review of the journal (1864bf7): `DocumentSync.run` takes "nothing waited to be sent" from the last sync's
    /// mark when the document, the ledger file and the deleted surveys are still the mark's
    /// (DocumentSync.swift:112-113), without the ledger's journal. A `survey resolve` keeping
    /// mine, made while the sync asks the server whether anything came (the mark was current at
    /// :99), now appends to the journal and leaves the ledger's file as it was, so the sync looks
    /// for nothing to send (`nothingToLookFor`), pushes nothing, and writes a mark saying nothing
    /// is left to send: every later sync takes the quick path and the resolution never goes out.
    /// Before the journal, the resolve rewrote the ledger's file, and :113 saw it.
    func testAResolveMadeWhileASyncAsksTheServerStillGoesOut() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["age": .integer(34)])])
        let b = try laptop()
        try sync(a, as: ana, device: "A")
        try sync(b, as: ana, device: "B")
        // The same answer changed on both: a conflict on B, which sends nothing meanwhile.
        try edit(a, "uuid:s1") { $0["age"] = .integer(40) }
        try edit(b, "uuid:s1") { $0["age"] = .integer(41) }
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try sync(b, as: ana, device: "B").conflicts, ["uuid:s1"])
        XCTAssertEqual(b.currentSyncMark(for: "Field")?.nothingToSend, true, "B's mark: nothing to send")
        // A new survey from A, so B's next sync finds something and is a whole one.
        var document = try a.load("Field").get()
        document.records.append(survey("uuid:s2", ["age": .integer(7)]))
        _ = try a.save(document, as: "Field")
        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 1)

        // B's quick look at the server waits (the table is held); meanwhile B's person keeps B's
        // answer (`survey resolve`, or F4 then m, in another window).
        let holder = try DatabaseConnection(target())
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE survey.surveys IN ACCESS EXCLUSIVE MODE")
        var resolved = false
        let during = try DocumentSync.run(store: b, document: "Field", target: target(as: ana), device: "B", at: { Date() },
                                          waiting: { _ in
                                              guard !resolved else { return }
                                              resolved = true
                                              XCTAssertEqual(try? b.resolveConflict(id: "uuid:s1", path: nil, by: .mine, in: "Field",
                                                                                    at: Date()), 1)
                                              _ = try? holder.execute("COMMIT")
                                          })
        holder.close()
        XCTAssertTrue(resolved, "the resolve ran while the sync waited")
        XCTAssertEqual(during.pulled, 1)
        XCTAssertEqual(try b.syncLedger(for: "Field").conflicts.count, 0)

        // However many syncs follow, B's kept answer must reach the server.
        let after = try sync(b, as: ana, device: "B")
        XCTAssertEqual(during.pushed + after.pushed, 1, "the resolution was never sent")
        XCTAssertEqual(try server.psql("SELECT answers->>'age' FROM survey.surveys WHERE instance_id = 'uuid:s1'", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "41")
    }
}
