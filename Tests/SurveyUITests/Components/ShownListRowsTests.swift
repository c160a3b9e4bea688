import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// The titles of the list rows on screen are worked out by `update` and only read by drawing
/// (`ShownListRows`): never stale (a changed survey, another survey at the same row, another
/// cut or width makes the title again), made for exactly the rows drawing shows, and nothing
/// written while drawing, so copies of a state drawn at once on several threads agree.
final class ShownListRowsTests: XCTestCase {
    private func person(_ first: String, _ last: String) -> Record {
        Record(["firstName": .string(first), "lastName": .string(last)])
    }

    func testARowsTitleAsDrawnCarriesTheTeamsAndTheIncompleteMarks() {
        // Issue 29: the rows' own (`shownTitle`), from the survey and the session alone.
        var session = DocumentSession(questionnaire: .standard, documentName: "Team")
        session.syncRead(SyncSummary(reviews: ["uuid:a": SyncReview(.approved)], othersSurveys: ["uuid:a": "ana"]))
        var ana = person("Ana", "Lima")
        ana.values[Record.instanceIDKey] = .string("uuid:a")
        let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 0), timeZone: .utc)
        let rows = ShownListRows()
        XCTAssertEqual(rows.shownTitle(of: 0, record: ana, session: session, clock: clock, limit: 30), "@ana ✓ Lima, Ana")
        XCTAssertNil(rows.shownTitleCells(of: 0, record: ana, session: session, limit: 30, width: 20), "marked: drawn as one text")
        var bo = person("Bo", "Kamau")
        bo.setIncomplete(true)
        XCTAssertEqual(rows.shownTitle(of: 1, record: bo, session: session, clock: clock, limit: 30), "… Kamau, Bo")
        XCTAssertNotNil(rows.shownTitleCells(of: 2, record: person("Cy", "Diaz"), session: session, limit: 30, width: 20))
    }

    func testAKeptTitleIsReusedOnlyForTheSameSurveyCutAndWidth() {
        var rows = ShownListRows()
        var made = 0
        let ana = person("Ana", "Lima")
        func title(_ record: Record, _ limit: Int, width: Int = 20) -> String? {
            rows.keepTitles([(0, record)], limit: limit, width: width) { made += 1; return $0.listTitle(limit: limit) }
            return rows.text(of: 0, record: record, limit: limit)
        }
        XCTAssertEqual(title(ana, 30), "Lima, Ana")
        XCTAssertEqual(title(ana, 30), "Lima, Ana")
        XCTAssertEqual(made, 1, "the same survey at the same cut and width: kept")
        var edited = ana
        edited.values["lastName"] = .string("Lopes")
        XCTAssertEqual(title(edited, 30), "Lopes, Ana")
        XCTAssertEqual(title(person("Ana", "Lima"), 30), "Lima, Ana", "equal answers in other storage: made again")
        XCTAssertEqual(title(edited, 3), "Lop, Ana")
        XCTAssertEqual(title(edited, 3, width: 5), "Lop, Ana")
        XCTAssertEqual(made, 5)
        XCTAssertEqual(rows.title(of: 0, record: edited, limit: 3, width: 5)?.cells?.count, 5, "laid out in 5 columns")
        XCTAssertNil(rows.title(of: 0, record: edited, limit: 3, width: 6), "another width is not this one")
        XCTAssertNil(rows.text(of: 1, record: edited, limit: 3), "another row is not this one")
    }

    /// Under a designer's form, whether a survey breaks a rule (the list's `⚠`) is judged once
    /// per survey shown, and again under another version of the form.
    func testARuleMarkIsJudgedOncePerSurveyAndFormVersion() {
        var rows = ShownListRows()
        var judged = 0
        let ana = person("Ana", "Lima"), bo = person("Bo", "Ng"), cy = person("Cy", "Ng")
        func keep(_ shown: [(index: Int, record: Record)], version: String = "1") {
            rows.keepMarks(shown, formID: "household", version: version) { judged += 1; return $0.values["lastName"] == .string("Ng") }
        }
        keep([(0, ana), (1, bo)])
        keep([(0, ana), (1, bo)])
        XCTAssertEqual(judged, 2, "each survey once")
        XCTAssertEqual(rows.breaks(0, record: ana, formID: "household", version: "1"), false)
        XCTAssertEqual(rows.breaks(1, record: bo, formID: "household", version: "1"), true)
        XCTAssertNil(rows.breaks(1, record: bo, formID: "household", version: "2"), "judged under version 1 only")
        keep([(1, bo), (2, cy)])
        XCTAssertEqual(judged, 3, "only the survey newly shown")
        XCTAssertEqual(rows.breaks(0, record: ana, formID: "household", version: "1"), false, "scrolled away, still kept")
        keep([(1, bo), (2, cy)], version: "2")
        XCTAssertEqual(judged, 5, "another version: judged again")
    }

    func testTheListShowsAnEditedNameAtOnce() {
        var state = AppState(documentName: "Field",
                             loaded: .success(SurveyDocument(records: [person("Ana", "Lima"), person("Bo", "Ng")])),
                             draft: Record(), size: Size(width: 80, height: 24), environment: .forTests)
        state.send(.system(.resized(Size(width: 80, height: 24))))
        XCTAssertTrue(Screen.render(state).lines.joined(separator: "\n").contains("Lima, Ana"))
        state.document?.records[0].values["lastName"] = .string("Lopes")
        let screen = Screen.render(state).lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("Lopes, Ana"), "drawn afresh: the kept title is of the survey before")
        XCTAssertFalse(screen.contains("Lima, Ana"))
    }

    /// After a key, every row drawn is kept, cut and laid out as drawing asks for it: a state
    /// whose kept titles are replaced by others draws those others on every row.
    func testAfterAKeyTheRowsOnScreenAreKeptAsDrawingAsksForThem() {
        for (width, height, keys) in [(120, 40, [Key.down]), (120, 40, [.end]), (70, 20, [.function(2), .end, .up]),
                                      (50, 16, [.function(2), .pageDown])] {
            var state = makeState(sampleRecords(extra: 60), width: width, height: height)
            if width >= 80 { state.press(.function(2)) }   // the list pane's focus (F2 below: the popover)
            for key in keys { state.press(key) }
            // The list's rows as drawn, its columns only (not the form beside it).
            let body = state.list.body(in: state.layout)
            func listRows(_ state: AppState) -> [String] {
                let grid = Screen.render(state)
                return (body.y..<body.maxY).map { y in (body.x..<body.maxX).map { grid[$0, y].text }.joined() }
            }
            let shown = listRows(state).filter { $0.contains("Sample") || $0.contains("Smith") || $0.contains("Jones") }.count
            XCTAssertGreaterThan(shown, 5)
            // Every title kept, as it was kept (row, survey, cut, width), made "KEPT" instead.
            var marked = ShownListRows()
            for (index, title) in state.shownListRows.titles {
                marked.keepTitles([(index, title.record)], limit: title.limit, width: title.width) { _ in "KEPT" }
            }
            state.shownListRows = marked
            let drawn = listRows(state)
            XCTAssertEqual(drawn.filter { $0.contains("KEPT") }.count, shown, "\(width)x\(height) \(keys): \(drawn.joined(separator: "\n"))")
            XCTAssertFalse(drawn.contains { $0.contains("Sample") }, "no row made its title again: \(drawn.joined(separator: "\n"))")
        }
    }

    /// Copies of one state drawn at once on several threads draw what a state with nothing
    /// kept draws (the kept titles were once a class written while drawing, with no lock: this
    /// crashed).
    func testCopiesOfOneStateDrawnOnSeveralThreadsAtOnceAgree() {
        let state = makeState(sampleRecords(extra: 2_000), width: 120, height: 40)
        let states = (0..<16).map { n -> AppState in
            var s = state
            s.shown = .record(n * 97 % 2_000)
            s.send(.system(.resized(Size(width: 100 + n % 5 * 7, height: 40))))
            return s
        }
        let expected = states.map { s -> CellGrid in
            var fresh = s
            fresh.caches = ViewCaches()
            fresh.shownListRows = ShownListRows()
            return Screen.render(fresh)
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<200 {
                let n = (thread * 4 + round) % 16
                XCTAssertEqual(Screen.render(states[n]), expected[n], "state \(n)")
            }
        }
    }
}
