import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
import SurveyUITestSupport

/// The team's database on screen (issue 19): F9 starts a sync and the keys stay live, F4
/// says what is unsent, when the last sync was and what is in conflict, `c` lists the
/// conflicts with both answers and `m`/`t` settle the highlighted one, what the sync
/// brought shows in the list at once, and a supervisor's verdict marks the survey. Drawn
/// at several sizes.
final class SyncScreenTests: XCTestCase {
    private func identified() -> [Record] {
        sampleRecords().enumerated().map { i, r in
            var r = r
            r[Record.instanceIDKey] = .string("uuid:\(i)")
            return r
        }
    }

    private let summary = SyncSummary(
        unsent: 2, lastSync: Date(timeIntervalSince1970: 1_796_032_800),
        conflicts: [SyncSummary.Conflict(id: "uuid:1", path: SyncFieldPath(text: "age")!, mine: .integer(41), theirs: .integer(40)),
                    SyncSummary.Conflict(id: "uuid:0", path: SyncFieldPath(text: "phone")!, mine: .string("555-1"), theirs: .string("555-2"))],
        reviews: ["uuid:0": SyncReview(.hasIssues, comment: "phone looks wrong")], setAside: 3)

    func testF9StartsOneSyncAndTheKeysStayLive() {
        var s = makeState(identified())
        XCTAssertEqual(s.press(.function(9)), [.syncDocument])
        XCTAssertEqual(s.statusText, "Syncing “Field Day”…")
        XCTAssertEqual(s.press(.function(9)), [], "one at a time")
        XCTAssertEqual(s.statusText, "A sync of “Field Day” is already running")
        s.press(.down)                                   // the list still answers
        s.send(.outcome(.sync(.progress(document: "Field Day", "Syncing “Field Day”: 500 of 1000 out…"))))
        XCTAssertEqual(s.statusText, "Syncing “Field Day”: 500 of 1000 out…")
        // What came in shows at once: a third survey.
        var brought = identified()
        brought.append(record("New", "Arrival"))
        s.send(.outcome(.sync(.finished(document: "Field Day", message: "Synced “Field Day”: 1 in, 0 out", isError: false,
                                      reloaded: SurveyDocument(records: brought), summary: summary))))
        XCTAssertEqual(s.recordCount, 3)
        XCTAssertTrue(s.screenText.contains("Arrival, New"), s.screenText)
        XCTAssertEqual(s.statusText, "Synced “Field Day”: 1 in, 0 out")
        XCTAssertNil(s.session.syncing)
        XCTAssertEqual(s.press(.function(9)), [.syncDocument], "and another may start")
    }

    func testF4SaysWhatIsUnsentAndTheReviewAndCListsTheConflicts() {
        var s = makeState(identified())
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", summary))))
        s.press(.enter)                                   // the first survey (reviewed) on the form
        s.press(.function(4))
        let info = s.screenText
        XCTAssertTrue(info.contains("2 changes not sent"), info)
        XCTAssertTrue(info.contains("2 conflicts: c shows them"), info)
        XCTAssertTrue(info.contains("Set aside    3 surveys on the server this laptop cannot keep"), info)
        XCTAssertTrue(info.contains("has issues: “phone looks wrong”"), info)
        s.press(.character("c"))
        XCTAssertEqual(s.inputMode, .conflicts)
        let list = s.screenText
        XCTAssertTrue(list.contains("Conflicts (2): m keeps mine, t takes theirs"), list)
        XCTAssertTrue(list.contains("mine:   41") && list.contains("theirs: 40"), list)
        XCTAssertTrue(list.contains("Jones, Doris · age"), list)
        s.press(.down)
        XCTAssertEqual(s.press(.character("t")), [.resolveConflict(id: "uuid:0", path: SyncFieldPath(text: "phone")!, keepMine: false)])
        s.press(.up)
        XCTAssertEqual(s.press(.character("m")), [.resolveConflict(id: "uuid:1", path: SyncFieldPath(text: "age")!, keepMine: true)])
        // The last one settled: back to F4.
        s.send(.outcome(.sync(.finished(document: "Field Day", message: "Kept yours for age: it goes out at the next sync",
                                      isError: false, reloaded: nil, summary: SyncSummary(unsent: 1)))))
        XCTAssertEqual(s.inputMode, .documentInfo)
        XCTAssertTrue(s.screenText.contains("1 change"), s.screenText)
        XCTAssertFalse(s.screenText.contains("conflicts: c shows them"), s.screenText)
    }

    /// Issue 28: a roster member deleted on one side and edited on the other is listed by
    /// its place, the deleted side said in words, and `t`/`m` settle that member.
    func testAMemberConflictIsListedByItsPlaceAndSettledByIt() {
        var s = makeState(identified())
        let tom: PropertyValue = .dictionary(["name": .string("Tom"), "age": .integer(10)])
        let member = SyncFieldPath(text: "member[2]")!
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", SyncSummary(conflicts: [
            SyncSummary.Conflict(id: "uuid:1", path: member, mine: nil, theirs: tom),
        ])))))
        s.press(.enter)
        s.press(.function(4))
        s.press(.character("c"))
        let list = s.screenText
        XCTAssertTrue(list.contains("Jones, Doris · member[2] (a member: deleted on one side, edited on the other)"), list)
        XCTAssertTrue(list.contains("mine:   (deleted)"), list)
        XCTAssertTrue(list.contains(#"theirs: { "age": 10, "name": "Tom" }"#), list)
        XCTAssertEqual(s.press(.character("t")), [.resolveConflict(id: "uuid:1", path: member, keepMine: false)])
    }

    func testAReviewedSurveyIsMarkedInTheList() {
        var s = makeState(identified())
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", summary))))
        XCTAssertTrue(s.screenText.contains("! Smith, John"), s.screenText)
        XCTAssertFalse(s.screenText.contains("! Jones"))
    }

    func testNoConflictsSaysSoAndNeverSyncedIsSaid() {
        var s = makeState(identified())
        s.press(.enter)
        s.press(.function(4))
        XCTAssertFalse(s.screenText.contains("Sync "), "one person's document: no sync line\n\(s.screenText)")
        XCTAssertEqual(s.press(.character("c")), [.readSyncSummary])
        XCTAssertEqual(s.statusText, "No conflicts: every survey agrees with the other side's")
        XCTAssertEqual(s.inputMode, .documentInfo)
    }

    func testTheConflictsDrawAtEverySize() {
        for (width, height) in [(120, 40), (80, 24), (60, 20), (40, 12), (24, 9)] {
            var s = makeState(identified(), width: width, height: height)
            s.send(.outcome(.sync(.summaryRead(document: "Field Day", summary))))
            s.press(.enter)
            s.press(.function(4))
            s.press(.character("c"))
            let screen = Screen.render(s)
            XCTAssertEqual(screen.lines.count, height)
            XCTAssertTrue(screen.lines.allSatisfy { TextWidth.width(of: $0) <= width }, "\(width)x\(height)")
            if height >= 20 { XCTAssertTrue(s.screenText.contains("theirs:"), "\(width)x\(height)\n\(s.screenText)") }
        }
    }

    /// A value from another laptop holding control characters cannot move the cursor.
    func testAHostileValueFromTheOtherSideStaysInItsCells() {
        var s = makeState(identified())
        let hostile = SyncSummary(unsent: 0, conflicts: [
            SyncSummary.Conflict(id: "uuid:1", path: SyncFieldPath(text: "age")!, mine: .string("ok"), theirs: .string("\u{1B}[2J\u{1B}[Hgone"))])
        s.send(.outcome(.sync(.summaryRead(document: "Field Day", hostile))))
        s.press(.enter)
        s.press(.function(4))
        s.press(.character("c"))
        XCTAssertFalse(s.screenText.contains("\u{1B}"), s.screenText)
    }
}
