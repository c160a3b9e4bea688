import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// F9 and the conflicts' keys as the document's session decides them (issue 29: a child
/// reducer), with no `AppState` in sight.
final class DocumentSessionSyncReducerTests: XCTestCase {
    private func conflict(_ id: String, _ key: String) -> SyncSummary.Conflict {
        .init(id: id, path: SyncFieldPath([.key(key)]), mine: .string("a"), theirs: .string("b"))
    }

    private func session(document: SurveyDocument? = SurveyDocument(records: [])) -> DocumentSession {
        var session = DocumentSession(questionnaire: .standard, documentName: "Field Day")
        session.document = document
        return session
    }

    func testF9StartsOneSyncOfAReadableDocument() {
        var s = session()
        XCTAssertEqual(s.reduce(.start), .tell("Syncing “Field Day”…", effects: [.syncDocument]))
        XCTAssertEqual(s.syncing, "Field Day")
        XCTAssertEqual(s.reduce(.start), .tell("A sync of “Field Day” is already running"))
        var unread = session(document: nil)
        XCTAssertEqual(unread.reduce(.start), .warn("“Field Day” cannot be synced: it is not a readable file now"))
        XCTAssertNil(unread.syncing)
    }

    func testTheConflictsAreShownWalkedAndSettledAnotherRolesOnlyByTheirs() {
        var s = session()
        XCTAssertEqual(s.reduce(.showConflicts),
                       .tell("No conflicts: every survey agrees with the other side's", effects: [.readSyncSummary]),
                       "the ledger not read yet")
        s.syncRead(SyncSummary(conflicts: [conflict("uuid:a", "age"), conflict("uuid:b", "name")], othersSurveys: ["uuid:b": "ana"]))
        XCTAssertEqual(s.reduce(.showConflicts), .showConflicts(true))
        XCTAssertEqual(s.reduce(.moveConflict(5)), .none)
        XCTAssertEqual(s.conflictCursor, 1, "held at the last")
        guard case .warn(let refusal) = s.reduce(.resolve(keepMine: true)) else { return XCTFail("another role's survey") }
        XCTAssertTrue(refusal.hasPrefix("Not kept: "), refusal)
        XCTAssertEqual(s.reduce(.resolve(keepMine: false)),
                       .resolve(.resolveConflict(id: "uuid:b", path: SyncFieldPath([.key("name")]), keepMine: false)))
        _ = s.reduce(.start)
        XCTAssertEqual(s.reduce(.resolve(keepMine: false)), .warn("A sync is running: resolve when it is over"))
        XCTAssertEqual(s.reduce(.closeConflicts), .showConflicts(false))
    }
}
