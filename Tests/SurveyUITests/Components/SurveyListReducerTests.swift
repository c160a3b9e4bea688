import XCTest
import SurveyValues
@testable import SurveyUI

/// The survey list's own reducer (issue 29: a child reducer, as the picker's): moving,
/// finding, ordering and narrowing decided from the list and what it reads of the app, and
/// what it asks of the app as a value, with no `AppState` in sight.
final class SurveyListReducerTests: XCTestCase {
    private let records = RecordList([
        Record(["firstName": .string("Ana"), "lastName": .string("Lima"), Record.instanceIDKey: .string("uuid:a")]),
        Record(["firstName": .string("Bo"), "lastName": .string("Kamau"), Record.instanceIDKey: .string("uuid:b"),
                Record.incompleteKey: .bool(true)]),
        Record(["firstName": .string("Cy"), "lastName": .string("Diaz"), Record.instanceIDKey: .string("uuid:c")]),
    ])

    private func context(sentBack: Set<String> = [], syncRead: Bool = true) -> SurveyListState.Context {
        .init(records: records, height: 10, sentBack: { sentBack }, syncRead: syncRead)
    }

    private func listed() -> SurveyListState {
        var list = SurveyListState()
        list.refresh(records)
        return list
    }

    func testMovingAsksToShowARecordOfTheListAsShown() {
        var list = listed()
        XCTAssertEqual(list.reduce(.move(1), in: context()), .show(1))
        XCTAssertEqual(list.reduce(.toLast, in: context()), .show(2))
        XCTAssertEqual(list.reduce(.move(-5), in: context()), .show(0), "held at the first")
        // Sorted by last name: Diaz, Kamau, Lima; the highlight is still on the first record.
        XCTAssertEqual(list.reduce(.cycleSortKey, in: context()),
                       .changed(remark: "Sorted by last name", effects: [.rememberSession]))
        XCTAssertEqual(list.reduce(.move(-1), in: context()), .show(1), "Kamau, before Lima in the list")
        XCTAssertEqual(list.reduce(.toFirst, in: context()), .show(2))
        list.select(2)   // as the app does, showing it
        XCTAssertEqual(list.reduce(.move(1), in: context()), .show(1))
    }

    func testNarrowingSaysWhatItShowsAndAsksForTheLedgerWhenUnread() {
        var list = listed()
        XCTAssertEqual(list.reduce(.toggleSentBack, in: context(syncRead: false)),
                       .tell("No survey is sent back: a supervisor's “has issues” or “rejected” shows here after a sync (F9)",
                             effects: [.readSyncSummary]))
        XCTAssertNil(list.restriction)
        XCTAssertEqual(list.reduce(.toggleSentBack, in: context(sentBack: ["uuid:c"])),
                       .changed(remark: "1 survey sent back: the comment shows beside the questions it names; b shows all"))
        XCTAssertEqual(list.projection.count, 1)
        XCTAssertEqual(list.reduce(.toggleIncomplete, in: context()),
                       .changed(remark: "1 survey incomplete: Enter goes on keying one, [ Finish ] adds it; i shows all"))
        XCTAssertEqual(list.record(nearPosition: 0), 1, "Kamau, the incomplete one")
        XCTAssertEqual(list.reduce(.toggleIncomplete, in: context()), .changed(remark: "Showing all 3 surveys"))
        XCTAssertEqual(list.projection.count, 3)
    }

    func testTheFormsArrowsStepThroughTheListAsShownAndStopAtItsEnds() {
        var list = listed()
        XCTAssertEqual(list.step(by: 1, showingRecord: false, in: context()), .show(0), "from the New form: the highlighted one")
        XCTAssertEqual(list.step(by: 1, showingRecord: true, in: context()), .jump(1))
        XCTAssertEqual(list.step(by: -1, showingRecord: true, in: context()), .tell("Already at the first record"))
        // Sorted by last name: Diaz, Kamau, Lima; Lima (the first record) is last.
        _ = list.reduce(.cycleSortKey, in: context())
        XCTAssertEqual(list.step(by: 1, showingRecord: true, in: context()), .tell("Already at the last record"))
        XCTAssertEqual(list.step(by: -1, showingRecord: true, in: context()), .jump(1), "Kamau, before Lima as shown")
        XCTAssertEqual(SurveyListState().step(by: 1, showingRecord: false, in: .init(records: RecordList([]), height: 10,
                                                                                      sentBack: { [] }, syncRead: true)),
                       .tell("No surveys yet: fill in the form and press Add"))
    }

    func testTheKeptFilterNarrowsAndEscShowsAllAgain() {
        var list = listed()
        _ = list.openFilterLine(recordCount: records.count)
        list.editFilterLine { $0 = TextInput(text: "zz") }
        XCTAssertEqual(list.reduce(.commitFilter, in: context()),
                       .changed(remark: "No surveys match “zz”: / changes the filter, Esc on it clears it"))
        XCTAssertEqual(list.reduce(.commitFilter, in: context()), .none, "no / line open")
        XCTAssertEqual(list.reduce(.move(1), in: context()), .none, "nothing shown to move to")
        XCTAssertEqual(list.step(by: 1, showingRecord: true, in: context()),
                       .tell("No surveys match the filter: Esc on the / line clears it"))
        XCTAssertEqual(list.reduce(.clearFilter, in: context()), .changed(remark: "Showing all 3 surveys"))
        XCTAssertEqual(list.projection.count, 3)
    }

    func testTheIndexBuiltNarrowsTheListToWhatWasTypedMeanwhile() {
        let large = RecordList((0..<SurveyListState.backgroundIndexThreshold).map { i in
            Record(["firstName": .string(i == 12_345 ? "Zoë" : "Person\(i)"), "lastName": .string("Lima")])
        })
        var list = SurveyListState()
        list.refresh(large)
        XCTAssertTrue(list.openFilterLine(recordCount: large.count), "a list this large is indexed in the background")
        list.editFilterLine { $0 = TextInput(text: "zoe") }
        list.refresh(large)
        XCTAssertEqual(list.projection.count, large.count, "every survey, until the index comes")
        let context = SurveyListState.Context(records: large, height: 10, sentBack: { [] }, syncRead: true)
        XCTAssertEqual(list.reduce(.indexBuilt(SearchIndex(records: large)), in: context), .changed(remark: nil))
        XCTAssertEqual(list.projection.count, 1)
        XCTAssertEqual(list.record(nearPosition: 0), 12_345)
    }

    func testAFinishedSearchTheListDoesNotWaitForChangesNothing() {
        var list = listed()
        let before = list
        let stale = FinishedSearch(generation: 7, index: SearchIndex(records: records), matches: [0],
                                   projection: ListProjection(shown: [0], recordCount: records.count))
        XCTAssertEqual(list.reduce(.finished(stale), in: context()), .none)
        XCTAssertEqual(list.projection.count, before.projection.count)
    }

    func testANarrowedListFollowsTheSurveysASyncSendsBack() {
        var list = listed()
        XCTAssertEqual(list.sentBackChanged(in: context(sentBack: ["uuid:a"])), .none, "not narrowed: nothing to follow")
        XCTAssertEqual(list.projection.count, 3)
        _ = list.reduce(.toggleSentBack, in: context(sentBack: ["uuid:c"]))
        XCTAssertEqual(list.projection.count, 1)
        XCTAssertEqual(list.sentBackChanged(in: context(sentBack: ["uuid:a", "uuid:c"])), .changed(remark: nil))
        XCTAssertEqual(list.projection.count, 2, "Ana sent back too")
        XCTAssertEqual(list.sentBackChanged(in: context(sentBack: [])), .changed(remark: nil))
        XCTAssertEqual(list.projection.count, 0, "both fixed and sent")
    }
    func testAfterAChangeTheHighlightGoesToARecordShownAndStaysInView() {
        var list = listed()
        _ = list.openFilterLine(recordCount: records.count)
        list.editFilterLine { $0 = TextInput(text: "Cy") }
        _ = list.reduce(.commitFilter, in: context())
        XCTAssertEqual(list.rows.cursor, 0, "Ana, filtered out, until the app follows the change")
        list.followChange(in: context())
        XCTAssertEqual(list.rows.cursor, 2, "Cy, the first (and only) survey shown")
        list.followChange(in: context())
        XCTAssertEqual(list.rows.cursor, 2, "a record shown keeps the highlight")
    }

    func testTheHighlightIsKeptInViewAsLittleAsPossibleOrHalfAWindowJumping() {
        let many = RecordList((0..<30).map { Record(["firstName": .string("P\($0)")]) })
        let context = SurveyListState.Context(records: many, height: 10, sentBack: { [] }, syncRead: true)
        var list = SurveyListState()
        list.refresh(many)
        list.select(12)
        list.keepCursorInView(in: context)
        XCTAssertEqual(list.rows.scroll, 3, "row 12 the last of ten on screen")
        list.select(13)
        list.keepCursorInView(in: context, jumping: true)
        XCTAssertEqual(list.rows.scroll, 9, "half a window further")
        list.select(99)
        list.keepCursorInView(in: context)
        XCTAssertEqual(list.rows.cursor, 29, "held within the records")
        XCTAssertEqual(list.rows.scroll, 20)
    }

    func testAClickOnTheListsRowsFindsTheRecordDrawnThere() {
        let list = listed()
        let rows = Rect(x: 0, y: 5, width: 30, height: 10)
        XCTAssertEqual(list.record(at: Point(x: 3, y: 5), in: rows), 0)
        XCTAssertEqual(list.record(at: Point(x: 3, y: 7), in: rows), 2)
        XCTAssertNil(list.record(at: Point(x: 3, y: 8), in: rows), "below the last row")
    }
}
