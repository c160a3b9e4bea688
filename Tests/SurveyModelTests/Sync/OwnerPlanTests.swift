import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Whose survey it is, as plain values (issue 28): a change to another role's survey is kept
/// as a conflict, never lost and never sent; only theirs settles it; a merge notes whose the
/// surveys it brings are, never guessing about a survey this laptop has; the shell's delete
/// and undelete refuse another's survey.
final class OwnerPlanTests: TemporaryFolderTestCase {
    private let base: [String: PropertyValue] = ["name": .string("Ana"), "age": .integer(34)]

    private func survey(_ id: String, _ answers: [String: PropertyValue]) -> Record {
        var values = answers
        values[Record.instanceIDKey] = .string(id)
        return Record(values)
    }

    /// Bruno's laptop: Ana's survey at revision 3, and whatever it holds now.
    private func state(_ records: [Record], baseDeleted: Bool = false) -> SyncState {
        var ledger = SyncLedger()
        ledger.role = "bruno"
        ledger.owners["uuid:s"] = "ana"
        ledger.bases["uuid:s"] = SyncLedger.Version(answers: base, revision: SyncRevision(3), deleted: baseDeleted)
        return SyncState(records: records, ledger: ledger)
    }

    private func holding(_ state: inout SyncState) -> [OthersChange] {
        let changes = SyncPlan.outgoing(from: state, device: "B").map { ($0, state.ledger.othersOwner(of: $0.id)!) }
        return SyncPlan.holdOthersChanges(changes, in: &state)
    }

    func testAnEditIsKeptAsAConflictOnEachAnswerItChangedAndOnlyTheirsSettlesIt() throws {
        var edited = base
        edited["age"] = .integer(43)
        edited["village"] = .string("Kibera")
        var s = state([survey("uuid:s", edited)])
        XCTAssertEqual(holding(&s), [OthersChange(id: "uuid:s", owner: "ana", fate: .keptAsConflict)])
        XCTAssertEqual(s.records.map(\.answers), [edited], "Bruno's answers stay in the survey")
        XCTAssertEqual(s.ledger.conflicts["uuid:s"]?.fields, [
            FieldConflict(path: SyncFieldPath([.key("age")]), base: .integer(34), mine: .integer(43), theirs: .integer(34)),
            FieldConflict(path: SyncFieldPath([.key("village")]), base: nil, mine: .string("Kibera"), theirs: nil),
        ])
        XCTAssertEqual(SyncPlan.outgoing(from: s, device: "B"), [], "a conflict is never sent")
        for choice in [SyncPlan.Choice.mine, .value(.integer(50))] {
            XCTAssertThrowsError(try SyncPlan.resolve(id: "uuid:s", path: SyncFieldPath([.key("age")]), by: choice, in: s, at: Date())) { error in
                XCTAssertEqual((error as? DocumentError)?.message, "uuid:s keeps the server's answers: it is ana's survey "
                               + "(only ana changes it; a supervisor reviews it); take theirs (--theirs)")
            }
        }
        let settled = try SyncPlan.resolve(id: "uuid:s", path: nil, by: .theirs, in: s, at: Date()).state
        XCTAssertEqual(settled.records.map(\.answers), [base])
        XCTAssertEqual(SyncPlan.outgoing(from: settled, device: "B"), [])
        XCTAssertNil(settled.ledger.conflicts["uuid:s"])
    }

    func testADeleteBringsTheSurveyBackAndABringingBackIsAConflictOnTheWholeSurvey() throws {
        var deletedHere = state([])
        XCTAssertEqual(holding(&deletedHere).map(\.fate), [.keptAsConflict])
        XCTAssertEqual(deletedHere.records.map(\.answers), [base], "back, as the server has it")
        XCTAssertEqual(deletedHere.ledger.conflicts["uuid:s"]?.fields.map(\.path), [SyncFieldPath()])
        let kept = try SyncPlan.resolve(id: "uuid:s", path: nil, by: .theirs, in: deletedHere, at: Date())
        XCTAssertEqual(kept.state.records.map(\.answers), [base])
        XCTAssertEqual(SyncPlan.outgoing(from: kept.state, device: "B"), [])

        // Ana deleted it on the server; Bruno's laptop brought it back.
        var broughtBack = state([survey("uuid:s", base)], baseDeleted: true)
        XCTAssertEqual(holding(&broughtBack).map(\.fate), [.keptAsConflict])
        let gone = try SyncPlan.resolve(id: "uuid:s", path: nil, by: .theirs, in: broughtBack, at: Date())
        XCTAssertEqual(gone.state.records, [])
        XCTAssertEqual(gone.movedToDeleted.map(\.answers), [base])
        XCTAssertEqual(SyncPlan.outgoing(from: gone.state, device: "B"), [])
    }

    /// A survey merged from another copy that the server does not have (a digest revision, or
    /// none) is left alone: nothing here changes, and it is not sent.
    func testASurveyTheServerDoesNotHaveIsLeftForItsLaptop() {
        var ledger = SyncLedger()
        ledger.role = "ana"
        ledger.owners["uuid:b"] = "bruno"
        ledger.bases["uuid:b"] = SyncLedger.Version(answers: base, revision: SyncRevision.content(of: base))
        ledger.owners["uuid:c"] = ""
        var s = SyncState(records: [survey("uuid:b", ["name": .string("changed")]), survey("uuid:c", base)], ledger: ledger)
        let before = s
        XCTAssertEqual(holding(&s), [OthersChange(id: "uuid:b", owner: "bruno", fate: .leftForItsLaptop),
                                     OthersChange(id: "uuid:c", owner: "", fate: .leftForItsLaptop)])
        XCTAssertEqual(s, before)
        XCTAssertEqual(OthersChange(id: "uuid:c", owner: "", fate: .leftForItsLaptop).line,
                       "uuid:c: not sent: it is another laptop's survey (merged from its copy: that laptop changes it and sends it); "
                       + "it was merged from another laptop's copy, which sends it")
    }

    func testOnlyAnotherRolesSurveyIsAnothers() {
        var ledger = SyncLedger()
        ledger.owners = ["uuid:mine": "ana", "uuid:hers": "carla", "uuid:merged": ""]
        XCTAssertEqual(ledger.othersSurveys, ["uuid:mine": "ana", "uuid:hers": "carla", "uuid:merged": ""], "no role yet: none is known to be mine")
        ledger.role = "ana"
        XCTAssertEqual(ledger.othersSurveys, ["uuid:hers": "carla", "uuid:merged": ""])
        XCTAssertNil(ledger.othersOwner(of: "uuid:mine"))
        XCTAssertNil(ledger.othersOwner(of: "uuid:new"), "a survey no server has heard of is this laptop's")
        XCTAssertEqual(ledger.othersOwner(of: "uuid:hers"), "carla")
        XCTAssertEqual(ledger.othersOwner(of: "uuid:mine", as: "carla"), "ana")
    }

    /// Two USB merges: from a copy that never synced (its surveys are "another laptop's"), and
    /// from one that did (they are its role's, and the owners it heard from the server come
    /// too); a survey this laptop has keeps no guessed owner.
    func testAMergeNotesWhoseTheSurveysItBringsAre() throws {
        try store.save(SurveyDocument(records: [survey("uuid:mine", base)]), as: "Field")
        let stick = folder.appendingPathComponent("stick")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        let other = DocumentStore(folder: stick)
        try other.save(SurveyDocument(records: [survey("uuid:mine", base), survey("uuid:b1", ["name": .string("Bo")])]), as: "Field")
        _ = try store.mergeOtherCopies([other.url(for: "Field")], into: "Field", write: true, at: Date())
        XCTAssertEqual(try store.syncLedger(for: "Field").owners, ["uuid:b1": ""])
        XCTAssertEqual(try store.syncLedger(for: "Field").othersOwner(of: "uuid:b1"), "")
        XCTAssertNil(try store.syncLedger(for: "Field").othersOwner(of: "uuid:mine"))

        var theirs = SyncLedger()
        theirs.role = "bruno"
        theirs.owners = ["uuid:mine": "", "uuid:c1": "carla", "uuid:b1": ""]
        theirs.bases["uuid:c1"] = SyncLedger.Version(answers: ["name": .string("Cy")], revision: SyncRevision(7))
        try other.save(SurveyDocument(records: [survey("uuid:mine", base), survey("uuid:b1", ["name": .string("Bo")]),
                                                survey("uuid:b2", ["name": .string("Bea")]), survey("uuid:c1", ["name": .string("Cy")])]),
                       as: "Field")
        try other.writeLedger(theirs, for: "Field")
        _ = try store.mergeOtherCopies([other.url(for: "Field")], into: "Field", write: true, at: Date())
        XCTAssertEqual(try store.syncLedger(for: "Field").owners, ["uuid:b1": "", "uuid:b2": "bruno", "uuid:c1": "carla"])
    }

    /// `survey delete` and `survey undelete` (the store's calls) refuse another's survey; an
    /// undelete of one deleted only here is a return to what the server has, and goes ahead.
    func testDeleteAndUndeleteRefuseAnothersSurvey() throws {
        try store.save(SurveyDocument(records: [survey("uuid:s", base), survey("uuid:gone", base)]), as: "Field")
        var ledger = state([]).ledger
        ledger.owners["uuid:gone"] = "ana"
        ledger.bases["uuid:gone"] = SyncLedger.Version(answers: base, revision: SyncRevision(5), deleted: true)
        try store.writeLedger(ledger, for: "Field")
        XCTAssertThrowsError(try store.deleteSurvey(id: "uuid:s", from: "Field", at: Date())) { error in
            XCTAssertEqual((error as? DocumentError)?.message,
                           "uuid:s is not deleted: it is ana's survey (only ana changes it; a supervisor reviews it)")
        }
        // Deleted here before this fix (through the file), brought back: allowed.
        var document = try store.load("Field").get()
        let record = document.records.remove(at: 0)
        try store.save(document, as: "Field")
        try store.appendDeleted([record], for: "Field", at: Date())
        XCTAssertEqual(try store.undelete(id: "uuid:s", from: "Field").instanceID, "uuid:s")
        // Ana deleted it on the server: bringing it back is hers to do.
        document = try store.load("Field").get()
        let gone = try XCTUnwrap(document.records.firstIndex { $0.instanceID == "uuid:gone" })
        try store.appendDeleted([document.records.remove(at: gone)], for: "Field", at: Date())
        try store.save(document, as: "Field")
        XCTAssertThrowsError(try store.undelete(id: "uuid:gone", from: "Field")) { error in
            XCTAssertEqual((error as? DocumentError)?.message, "uuid:gone is not brought back: it is ana's survey "
                           + "(only ana changes it; a supervisor reviews it), and it is deleted on the server")
        }
    }
}
