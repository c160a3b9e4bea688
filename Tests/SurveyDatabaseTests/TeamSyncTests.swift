import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Two laptops (two document folders keying the same document) and a supervisor meeting in
/// one throwaway PostgreSQL through `DocumentSync`, what `survey sync` and the app's F9 run:
/// a new survey travels, edits of different answers merge, the same answer changed on both
/// is a conflict kept with both values, a delete travels and meets an edit as a conflict, a
/// supervisor's review comes back to the laptop, and a second sync changes nothing.
final class TeamSyncTests: DatabaseTestCase {
    private func records(_ store: DocumentStore) throws -> [Record] { Array(try store.load("Field").get().records) }

    func testTwoLaptopsAndASupervisorMeetInOneDatabase() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let boss = try loginRole("boss", in: "survey_supervisor")
        let a = try laptop([survey("uuid:s1", ["name": .string("Ana"), "age": .integer(34), "village": .string("Kibera")]),
                            survey("uuid:s2", ["name": .string("Bo"), "age": .integer(12)])])
        let b = try laptop()

        // A new survey travels, once.
        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 2)
        XCTAssertEqual(try sync(b, as: ana, device: "B").pulled, 2)
        XCTAssertEqual(try records(b).map { $0["name"] }, [.string("Ana"), .string("Bo")])

        // Different answers changed on each laptop merge.
        try edit(a, "uuid:s1") { $0["age"] = .integer(35) }
        try edit(b, "uuid:s1") { $0["village"] = .string("Mathare") }
        try sync(a, as: ana, device: "A")
        let merged = try sync(b, as: ana, device: "B")
        XCTAssertEqual(merged.conflicts, [])
        try sync(a, as: ana, device: "A")
        for store in [a, b] {
            let s1 = try XCTUnwrap(try records(store).first { $0.instanceID == "uuid:s1" })
            XCTAssertEqual(s1["age"], .integer(35))
            XCTAssertEqual(s1["village"], .string("Mathare"))
        }

        // The same answer changed on both: a conflict, both values kept, nothing overwritten.
        try edit(a, "uuid:s1") { $0["age"] = .integer(40) }
        try edit(b, "uuid:s1") { $0["age"] = .integer(41) }
        try sync(a, as: ana, device: "A")
        let clash = try sync(b, as: ana, device: "B")
        XCTAssertEqual(clash.conflicts, ["uuid:s1"])
        XCTAssertEqual(try records(b).first { $0.instanceID == "uuid:s1" }?["age"], .integer(41), "mine stays until resolved")
        let conflict = try XCTUnwrap(try b.syncLedger(for: "Field").conflicts["uuid:s1"]?.fields.first)
        XCTAssertEqual([conflict.mine, conflict.theirs], [.integer(41), .integer(40)])
        // Settled by keeping B's: it goes out as an edit, and A takes it.
        _ = try b.resolveConflict(id: "uuid:s1", path: conflict.path, by: .mine, in: "Field", at: Date())
        XCTAssertEqual(try sync(b, as: ana, device: "B").pushed, 1)
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try records(a).first { $0.instanceID == "uuid:s1" }?["age"], .integer(41))

        // A delete travels; it meets an edit as a conflict.
        _ = try a.deleteSurvey(id: "uuid:s2", from: "Field", at: Date())
        try edit(b, "uuid:s2") { $0["age"] = .integer(13) }
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try sync(b, as: ana, device: "B").conflicts, ["uuid:s2"])
        XCTAssertNotNil(try records(b).first { $0.instanceID == "uuid:s2" }, "the edited survey stays")

        // A supervisor's review reaches the laptop; the fix goes back as edited.
        XCTAssertTrue(try SurveyServer(target(as: boss)).setReview("uuid:s1", state: .hasIssues, comment: "age looks wrong"))
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try a.syncLedger(for: "Field").reviews["uuid:s1"], SyncReview(.hasIssues, comment: "age looks wrong"))
        try edit(a, "uuid:s1") { $0["age"] = .integer(42) }
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try server.psql("SELECT review_state FROM survey.surveys WHERE instance_id = 'uuid:s1'", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "edited")

        // Nothing changed: a sync moves nothing and leaves the files as they were.
        try sync(a, as: ana, device: "A")
        let before = try Data(contentsOf: a.folder.appendingPathComponent("Field.plist"))
        let again = try sync(a, as: ana, device: "A")
        XCTAssertEqual([again.pulled, again.pushed], [0, 0])
        XCTAssertEqual(try Data(contentsOf: a.folder.appendingPathComponent("Field.plist")), before)
    }

    /// Issue 28: a sync that begins with nothing to send (its mark says so) does not look
    /// over every survey after its pull, unless the pull merged a change or the document was
    /// written while it pulled: an answer keyed then (the app saving during F9) still goes out.
    func testAnAnswerKeyedWhileAPullRunsStillGoesOut() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptop([survey("uuid:s1", ["name": .string("Ana"), "age": .integer(34)]),
                            survey("uuid:s2", ["name": .string("Bo"), "age": .integer(12)])])
        let b = try laptop()
        try sync(a, as: ana, device: "A")
        try sync(b, as: ana, device: "B")
        try sync(b, as: ana, device: "B")                      // B's mark: nothing to send
        try edit(a, "uuid:s2") { $0["age"] = .integer(13) }
        try sync(a, as: ana, device: "A")
        // B pulls Bo's change; while it does, B's app saves an answer of Ana's.
        var keyed = false
        let result = try DocumentSync.run(store: b, document: "Field", target: target(as: ana), device: "B", at: { Date() }, progress: { _ in
            guard !keyed else { return }
            keyed = true
            try? self.edit(b, "uuid:s1") { $0["age"] = .integer(35) }
        })
        XCTAssertTrue(keyed, "the pull said how far it was")
        XCTAssertEqual(result.pushed, 1, "the answer keyed during the pull went out")
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try records(a).first { $0.instanceID == "uuid:s1" }?["age"], .integer(35))
        XCTAssertEqual(try records(b).first { $0.instanceID == "uuid:s2" }?["age"], .integer(13))
    }

    func testAnotherEnumeratorsSurveyIsRefusedAndNothingIsLost() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bob = try loginRole("bob", in: "survey_enumerator")
        let a = try laptop([survey("uuid:x", ["name": .string("Ana")])])
        try sync(a, as: ana, device: "A")
        // Bob's laptop holds a survey with the same id (copied by hand): the server refuses it.
        // Pushed alone, the server refuses it (row-level security: Ana's); with a pull first,
        // it is a conflict kept on Bob's laptop, and nothing goes out.
        let b = try laptop([survey("uuid:x", ["name": .string("Not Ana")])])
        let pushed = try DocumentSync.run(store: b, document: "Field", target: target(as: bob), device: "B", pull: false, at: { Date() })
        XCTAssertEqual(pushed.refused, ["uuid:x"])
        let synced = try sync(b, as: bob, device: "B")
        XCTAssertEqual(synced.conflicts, ["uuid:x"])
        XCTAssertEqual(synced.pushed, 0)
        XCTAssertEqual(try records(b).first?["name"], .string("Not Ana"), "kept on Bob's laptop")
        XCTAssertEqual(try server.psql("SELECT answers->>'name' FROM survey.surveys", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "Ana")
    }

    func testAPasswordNeverAppearsInTheLedgerOrAnError() throws {
        try initialize()
        let a = try laptop([survey("uuid:p", ["name": .string("Ana")])])
        let wrong = ConnectionString(server.connectionString(database: database, user: "nobody_here") + " password=s3cret-Pa55")
        XCTAssertThrowsError(try DocumentSync.run(store: a, document: "Field", target: wrong, device: "A", at: { Date() })) { error in
            let text = DocumentSync.describe(error, target: wrong)
            XCTAssertFalse(text.contains("s3cret-Pa55"), text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: a.syncURL(for: "Field").path), "nothing written")
    }
}

/// Forms travel as ODK Central publishes them: a supervisor publishes a version with its list
/// file, an enumerator's next sync attaches it (to a document named for the form, or keyed
/// with it), and a later version replaces it at the sync after.
final class FormTravelTests: DatabaseTestCase {
    private func form(version: String, extra: String = "") -> String {
        """
        survey,,,
        ,type,name,label
        ,text,name,Name
        ,select_one_from_file towns.csv,town,Town
        \(extra)
        settings,,,
        ,form_id,version,
        ,household,\(version),
        """
    }

    func testAPublishedFormReachesTheLaptopWithItsListFile() throws {
        try initialize()
        let boss = try loginRole("boss", in: "survey_supervisor")
        let ana = try loginRole("ana", in: "survey_enumerator")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let office = DocumentStore(folder: root.appendingPathComponent("office"))
        let laptop = DocumentStore(folder: root.appendingPathComponent("laptop"))
        for store in [office, laptop] {
            try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
            _ = try store.save(SurveyDocument(), as: "household")
        }
        let designer = root.appendingPathComponent("designer")
        try FileManager.default.createDirectory(at: designer, withIntermediateDirectories: true)
        try Data(form(version: "1").utf8).write(to: designer.appendingPathComponent("household.csv"))
        try Data("name,label\nkib,Kibera\nmat,Mathare\n".utf8).write(to: designer.appendingPathComponent("towns.csv"))
        _ = try office.attachForm(from: designer.appendingPathComponent("household.csv").path, to: "household", at: Date())

        XCTAssertThrowsError(try FormPublishing.publish(store: office, document: "household", target: target(as: ana)),
                             "an enumerator may not publish")
        XCTAssertEqual(try FormPublishing.publish(store: office, document: "household", target: target(as: boss)),
                       "Published household version 1 (1 list file): each laptop takes it at its next sync")
        let first = try DocumentSync.run(store: laptop, document: "household", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual(first.formTaken, "form household version 1 taken")
        let taken = try laptop.questionnaire(for: "household")
        XCTAssertEqual(taken.form?.version, "1")
        XCTAssertEqual(taken.fields.first { $0.key == "town" }.map { Set($0.choiceLabels.values) }, ["Kibera", "Mathare"])

        // A new version: the next sync takes it; the one after changes nothing.
        try Data(form(version: "2", extra: ",integer,age,Age").utf8).write(to: designer.appendingPathComponent("household.csv"))
        _ = try office.attachForm(from: designer.appendingPathComponent("household.csv").path, to: "household", at: Date())
        _ = try FormPublishing.publish(store: office, document: "household", target: target(as: boss))
        XCTAssertEqual(try DocumentSync.run(store: laptop, document: "household", target: target(as: ana), device: "A", at: { Date() }).formTaken,
                       "form household version 2 taken")
        XCTAssertTrue(try laptop.questionnaire(for: "household").fields.contains { $0.key == "age" })
        XCTAssertNil(try DocumentSync.run(store: laptop, document: "household", target: target(as: ana), device: "A", at: { Date() }).formTaken)
    }

    /// A form published when survey read its `=NOW()` version as Excel's day count is the
    /// same version as the file reads now (pyxform's `2022-04-11 16:26:28.971000`): the
    /// laptop takes it once, under the id it was published with, and not at every sync after.
    func testAVersionPublishedAsADayCountIsTakenOnce() throws {
        try initialize()
        let boss = try loginRole("boss", in: "survey_supervisor")
        let ana = try loginRole("ana", in: "survey_enumerator")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let biomass = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SurveyModelTests/Fixtures/forms/pyxform-suite/bug_example_xls--UCL_Biomass_Plot_Form-ecc08c78.xlsx")
        let server = try SurveyServer(target(as: boss))
        defer { server.connection.close() }
        XCTAssertTrue(try server.publish(PublishedForm(formID: "UCL_Biomass_Plot_Form", version: "44662.6850575292",
                                                       fileName: "Plots.form.xlsx", file: try Data(contentsOf: biomass))))
        let laptop = DocumentStore(folder: root.appendingPathComponent("laptop"))
        try FileManager.default.createDirectory(at: laptop.folder, withIntermediateDirectories: true)
        _ = try laptop.save(SurveyDocument(), as: "UCL_Biomass_Plot_Form")
        let first = try DocumentSync.run(store: laptop, document: "UCL_Biomass_Plot_Form", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual(first.formTaken, "form UCL_Biomass_Plot_Form version 44662.6850575292 taken")
        let form = try XCTUnwrap(try laptop.questionnaire(for: "UCL_Biomass_Plot_Form").form)
        XCTAssertEqual(form.formID, "UCL_Biomass_Plot_Form", "the id it was published with, not the scratch file's name")
        XCTAssertEqual(form.version, "2022-04-11 16:26:28.971000")
        XCTAssertNil(try DocumentSync.run(store: laptop, document: "UCL_Biomass_Plot_Form", target: target(as: ana), device: "A", at: { Date() }).formTaken)
    }
}

/// The app keeps saving while F9 runs: a commit whose snapshot another write overtook is
/// built again on the document as it is now, so neither the keyed answer nor the sync's
/// work is lost.
final class SyncCommitRetryTests: XCTestCase {
    func testACommitOvertakenByAnotherSaveIsBuiltAgainOnTheNewDocument() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("retry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DocumentStore(folder: folder)
        _ = try store.save(SurveyDocument(records: [Record(["instanceID": .string("uuid:a"), "name": .string("Ana")])]), as: "Field")
        var calls = 0
        var committed = try store.syncSnapshot(of: "Field")
        let retried = try DocumentSync.commit(store, "Field", &committed, at: { Date() }) { snapshot in
            calls += 1
            if calls == 1 {
                // The app saves a keyed answer between the snapshot and the commit.
                var document = try store.load("Field").get()
                document.records[0]["age"] = .integer(34)
                _ = try store.save(document, as: "Field")
            }
            var state = snapshot.state
            state.ledger = snapshot.lendLedger()
            state.ledger.pullCursor = 7
            return (state, [], true)
        }
        XCTAssertEqual(calls, 2)
        XCTAssertTrue(retried)
        XCTAssertEqual(committed.state.ledger.pullCursor, 7)
        XCTAssertEqual(try store.load("Field").get().records[0]["age"], .integer(34), "the keyed answer stays")
        XCTAssertEqual(try store.syncLedger(for: "Field").pullCursor, 7)
    }
}
