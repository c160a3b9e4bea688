import Foundation
import XCTest
@testable import SurveyDatabase
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage
import SurveyTestSupport

/// Whose survey it is (issue 28): the server lets only a survey's owner change it, so a laptop
/// never sends a change to a teammate's survey (it would be refused at every sync, "sync
/// again", and the laptops would stay different): a change made before is kept as a conflict
/// and nothing is lost; the shell refuses to make one; and a survey merged from another
/// laptop's copy goes to the server from that laptop, so its owner is the one who made it.
final class OwnerTests: DatabaseTestCase {
    private func records(_ store: DocumentStore) throws -> [Record] { Array(try store.load("Field").get().records) }

    private func serverOwner(_ id: String) throws -> String {
        try server.psql("SELECT owner FROM survey.surveys WHERE instance_id = '\(id)'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func serverName(_ id: String) throws -> String {
        try server.psql("SELECT answers->>'name' FROM survey.surveys WHERE instance_id = '\(id)'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Bruno's laptop changed Ana's survey before survey knew whose it was. The old sync sent
    /// it, was refused ("not taken by the server (sync again)") at every sync, and the two
    /// laptops stayed different. Now it is never sent: it is kept as a conflict against Ana's
    /// version, Bruno's answer still in the survey; `--mine` is refused, `--theirs` leaves it
    /// as Ana has it, and the laptops agree.
    func testAnEditOfATeammatesSurveyIsKeptAsAConflictNotRefusedAtEverySync() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["name": .string("Ana"), "age": .integer(34)])])
        let b = try laptop()
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        try edit(b, "uuid:s1") { $0["age"] = .integer(43) }

        let first = try sync(b, as: bruno, device: "B")
        XCTAssertEqual(first.refused, [], "never sent, so never refused")
        XCTAssertEqual(first.pushed, 0)
        XCTAssertEqual(first.conflicts, ["uuid:s1"])
        XCTAssertTrue(first.message.contains("1 not taken: it is \(ana)'s survey (kept as a conflict: survey conflicts)"), first.message)
        XCTAssertFalse(first.message.contains("sync again"), first.message)
        XCTAssertEqual(first.othersChanges, [OthersChange(id: "uuid:s1", owner: ana, fate: .keptAsConflict)])
        XCTAssertEqual(try records(b).first?["age"], .integer(43), "Bruno's answer is not lost")
        let conflict = try XCTUnwrap(try b.syncLedger(for: "Field").conflicts["uuid:s1"])
        XCTAssertEqual(conflict.fields, [FieldConflict(path: SyncFieldPath([.key("age")]), base: .integer(34),
                                                       mine: .integer(43), theirs: .integer(34))])

        // A second sync sends nothing and refuses nothing: no "sync again" for ever.
        let second = try sync(b, as: bruno, device: "B")
        XCTAssertEqual([second.pushed, second.refused.count], [0, 0])
        XCTAssertEqual(second.conflicts, ["uuid:s1"])

        XCTAssertThrowsError(try b.resolveConflict(id: "uuid:s1", path: nil, by: .mine, in: "Field", at: Date())) { error in
            XCTAssertEqual((error as? DocumentError)?.message,
                           "uuid:s1 keeps the server's answers: it is \(ana)'s survey (only \(ana) changes it; a supervisor reviews it); take theirs (--theirs)")
        }
        XCTAssertEqual(try b.resolveConflict(id: "uuid:s1", path: nil, by: .theirs, in: "Field", at: Date()), 1)
        let settled = try sync(b, as: bruno, device: "B")
        XCTAssertEqual([settled.pushed, settled.refused.count, settled.conflicts.count], [0, 0, 0])
        XCTAssertEqual(try records(b).map(\.values), try records(a).map(\.values), "the laptops agree")
        XCTAssertEqual(try serverOwner("uuid:s1"), ana)
    }

    /// The server refused a change the ledger did not know was another's (a ledger from
    /// before owners were kept, pushed alone): the refusal names the owner, and the change is
    /// kept as a conflict from then on.
    func testARefusalNamesTheOwnerAndKeepsTheChange() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["name": .string("Ana")])])
        let b = try laptop()
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        var ledger = try b.syncLedger(for: "Field")
        ledger.owners = [:]          // as a ledger written before this fix
        ledger.role = nil
        try b.writeLedger(ledger, for: "Field")
        // Learned again at the next sync, once, for the whole ledger.
        let pushOnly = try DocumentSync.run(store: b, document: "Field", target: target(as: bruno), device: "B", pull: false, at: { Date() })
        XCTAssertEqual(pushOnly.pushed, 0)
        XCTAssertEqual(try b.syncLedger(for: "Field").owners, ["uuid:s1": ana])
        XCTAssertEqual(try b.syncLedger(for: "Field").role, bruno)

        // The server's refusal itself: the ledger does not know the owner when the edit goes.
        ledger.owners = [:]
        ledger.role = bruno          // a role, so the owners are not looked up first
        try b.writeLedger(ledger, for: "Field")
        try edit(b, "uuid:s1") { $0["name"] = .string("Bruno was here") }
        let refused = try DocumentSync.run(store: b, document: "Field", target: target(as: bruno), device: "B", pull: false, at: { Date() })
        XCTAssertEqual(refused.refused, [])
        XCTAssertEqual(refused.othersChanges, [OthersChange(id: "uuid:s1", owner: ana, fate: .keptAsConflict)])
        XCTAssertTrue(refused.message.contains("not taken: it is \(ana)'s survey"), refused.message)
        XCTAssertEqual(try b.syncLedger(for: "Field").owners, ["uuid:s1": ana])
        XCTAssertEqual(try records(b).first?["name"], .string("Bruno was here"))
        XCTAssertEqual(try serverName("uuid:s1"), "Ana")
    }

    /// The role is noted before anything else: a sync cut off after the owners came (here
    /// the server refusing the push whole) never leaves the laptop's own survey looking like
    /// another's.
    func testASyncCutOffLeavesTheLaptopsOwnSurveysItsOwn() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptop([survey("uuid:a1", ["name": .string("Ana")])])
        try sync(a, as: ana, device: "A")
        var ledger = try a.syncLedger(for: "Field")
        ledger.owners = [:]          // as a ledger written before this fix
        ledger.role = nil
        try a.writeLedger(ledger, for: "Field")
        var document = try a.load("Field").get()
        document.records.append(survey("uuid:a2", ["name": .string("Ana again")]))
        _ = try a.save(document, as: "Field")
        try server.psql("REVOKE INSERT ON survey.surveys FROM survey_enumerator", database: database)
        XCTAssertThrowsError(try sync(a, as: ana, device: "A"))
        let after = try a.syncLedger(for: "Field")
        XCTAssertEqual(after.owners, ["uuid:a1": ana])
        XCTAssertEqual(after.role, ana)
        XCTAssertEqual(after.othersSurveys, [:])
    }

    /// A delete of a teammate's survey made before: the survey comes back as the server has
    /// it, with a conflict on the whole survey, and nothing is sent.
    func testADeleteOfATeammatesSurveyBringsItBackAsAConflict() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["name": .string("Ana")]), survey("uuid:s2", ["name": .string("Bo")])])
        let b = try laptop()
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        // The shell refuses it now ...
        XCTAssertThrowsError(try b.deleteSurvey(id: "uuid:s1", from: "Field", at: Date())) { error in
            XCTAssertEqual((error as? DocumentError)?.message,
                           "uuid:s1 is not deleted: it is \(ana)'s survey (only \(ana) changes it; a supervisor reviews it)")
        }
        // ... but one made before this fix is in the file.
        var document = try b.load("Field").get()
        document.records.removeAll { $0.instanceID == "uuid:s1" }
        _ = try b.save(document, as: "Field")
        let result = try sync(b, as: bruno, device: "B")
        XCTAssertEqual([result.pushed, result.refused.count], [0, 0])
        XCTAssertEqual(result.conflicts, ["uuid:s1"])
        XCTAssertEqual(try records(b).first { $0.instanceID == "uuid:s1" }?["name"], .string("Ana"))
        XCTAssertEqual(try b.syncLedger(for: "Field").conflicts["uuid:s1"]?.fields.map(\.path), [SyncFieldPath()])
        XCTAssertEqual(try b.resolveConflict(id: "uuid:s1", path: nil, by: .theirs, in: "Field", at: Date()), 1)
        let settled = try sync(b, as: bruno, device: "B")
        XCTAssertEqual([settled.pushed, settled.refused.count, settled.conflicts.count], [0, 0, 0])
        XCTAssertEqual(try server.psql("SELECT deleted FROM survey.surveys WHERE instance_id = 'uuid:s1'", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "f")
    }

    /// Issue 28: Ana's laptop merged Bruno's copy by USB stick and synced first; the old sync
    /// sent Bruno's new survey (Ana had touched it) as new, and the server made Ana its owner,
    /// so Bruno could never change his own survey again. A survey merged from another copy
    /// that this laptop did not make goes from its own laptop: Bruno owns it.
    func testAUSBMergeNeverMakesATeammateTheServerOwner() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptop([survey("uuid:a1", ["name": .string("Ana's")])])
        let b = try laptop()
        try sync(b, as: bruno, device: "B")          // Bruno's laptop has synced once: it knows its role
        var document = try b.load("Field").get()
        document.records.append(survey("uuid:b1", ["name": .string("Bruno's"), "age": .integer(30)]))
        _ = try b.save(document, as: "Field")

        let merged = try a.mergeOtherCopies([b.url(for: "Field")], into: "Field", write: true, at: Date())
        XCTAssertEqual(merged.events.map(\.kind), [.added])
        XCTAssertEqual(try a.syncLedger(for: "Field").othersOwner(of: "uuid:b1"), bruno)
        // Ana's laptop changed it (before this fix the app let it; a merge's calculations can).
        try edit(a, "uuid:b1") { $0["age"] = .integer(31) }
        let first = try sync(a, as: ana, device: "A")
        XCTAssertEqual(first.pushed, 1, "Ana's own survey only")
        XCTAssertEqual(first.othersChanges, [OthersChange(id: "uuid:b1", owner: bruno, fate: .leftForItsLaptop)])
        XCTAssertTrue(first.message.contains("1 merged from \(bruno)'s copy not sent (that laptop sends it)"), first.message)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys WHERE instance_id = 'uuid:b1'", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "0")

        let fromBruno = try sync(b, as: bruno, device: "B")
        XCTAssertEqual(fromBruno.pushed, 1)
        XCTAssertEqual(fromBruno.refused, [])
        XCTAssertEqual(try serverOwner("uuid:b1"), bruno)
        XCTAssertEqual(try serverOwner("uuid:a1"), ana)

        // Ana's change is not lost: a conflict against Bruno's version, once the server has it.
        let after = try sync(a, as: ana, device: "A")
        XCTAssertEqual([after.pushed, after.refused.count], [0, 0])
        XCTAssertEqual(after.othersChanges, [OthersChange(id: "uuid:b1", owner: bruno, fate: .keptAsConflict)])
        XCTAssertEqual(try records(a).first { $0.instanceID == "uuid:b1" }?["age"], .integer(31))
        XCTAssertEqual(try serverOwner("uuid:b1"), bruno)
    }

    /// The laptop mirrors what the server lets a supervisor do: review, never change answers.
    /// Every synced survey is another's on a supervisor's laptop, and the shell refuses to
    /// delete one there.
    func testASupervisorsLaptopChangesNoSurvey() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        let a = try laptop([survey("uuid:s1", ["name": .string("Ana")])])
        try sync(a, as: ana, device: "A")
        let s = try laptop()
        try sync(s, as: sofia, device: "S")
        let ledger = try s.syncLedger(for: "Field")
        XCTAssertEqual(ledger.role, sofia)
        XCTAssertEqual(ledger.othersSurveys, ["uuid:s1": ana])
        XCTAssertThrowsError(try s.deleteSurvey(id: "uuid:s1", from: "Field", at: Date()))
        XCTAssertEqual(try a.syncLedger(for: "Field").othersSurveys, [:], "Ana's own survey is hers to change")
    }
}
