import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// `/` search, F6 sections and `s` sort, through the real key table.
final class FindAndOrderTests: XCTestCase {
    private func people() -> [Record] {
        var records = [record("Ana", "Lima", address: "Rua 1"), record("Björn", "Umeå"),
                       record("Chidi", "Okonkwo"), record("Zoë", "Östberg"), record("美咲", "山田"),
                       record("ana", "Alves", age: 30), record("Bob", "lima", age: 12)]
        for i in records.indices { records[i].values[Record.instanceIDKey] = .string("uuid:\(i)") }
        return records
    }

    private func titles(_ s: AppState) -> [String] {
        (0..<s.list.projection.count).map { s.records[s.list.projection.record(atPosition: $0)].listTitle }
    }

    func testTypingNarrowsTheListAtOnceIgnoringCaseAccentsAndWordOrder() {
        var s = makeState(people())
        XCTAssertEqual(s.inputMode, .listPane)
        s.press(.character("/"))
        XCTAssertEqual(s.inputMode, .filtering)
        s.type("umea")
        XCTAssertEqual(titles(s), ["Umeå, Björn"])
        XCTAssertEqual(s.shown, .record(1), "the form follows the first match")
        s.press(.backspace, .backspace, .backspace, .backspace)
        s.type("ana lima")
        XCTAssertEqual(titles(s), ["Lima, Ana"], "words in any order, each somewhere")
        s.press(.backspace, .backspace, .backspace, .backspace, .backspace)
        XCTAssertEqual(titles(s), ["Lima, Ana", "Alves, ana"])
        let screen = Screen.render(s).lines
        XCTAssertTrue(screen[1].contains("Surveys (2 of 7)"), screen[1])
        XCTAssertTrue(screen[2].contains("/ ana"), screen[2])
        s.press(.enter)
        XCTAssertEqual(s.inputMode, .listPane, "Enter keeps the filter and goes to the list")
        XCTAssertEqual(s.list.filter.text, "ana")
        XCTAssertEqual(s.positionTitle, "1 of 2", "N of M counts the filtered rows")
        s.press(.enter, .right)
        XCTAssertEqual(s.shown, .record(5), "→ walks the filtered rows")
        s.press(.right)
        XCTAssertEqual(s.statusText, "Already at the last record")
        s.press(.character("/"), .escape)
        XCTAssertEqual(s.list.projection.count, 7, "Esc clears it")
        XCTAssertEqual(s.shown, .record(5), "and keeps the record")
    }

    func testAnEmptyResultSaysSoAndARecordEditedOutOfTheFilterStays() {
        var s = makeState(people())
        s.press(.character("/"))
        s.type("zzz")
        XCTAssertEqual(s.list.projection.count, 0)
        XCTAssertTrue(Screen.render(s).lines.contains { $0.contains("No surveys match “zzz”") })
        s.press(.enter)
        XCTAssertEqual(s.statusText, "No surveys match “zzz”: / changes the filter, Esc on it clears it")
        // A filter on "lima"; Bob's last name edited away from it: he stays until the filter changes.
        s.press(.character("/"))
        for _ in 0..<3 { s.press(.backspace) }
        s.type("lima")
        s.press(.enter, .down, .enter)            // Bob, to the form
        XCTAssertEqual(s.shown, .record(6))
        s.press(.down, .enter)                    // Last name
        for _ in 0..<4 { s.press(.backspace) }
        s.type("Silva")
        s.press(.enter, .escape)                  // kept; Esc stops on the next field
        XCTAssertEqual(titles(s), ["Lima, Ana", "Silva, Bob"], "edited out of the filter, still listed")
        s.press(.character("/"), .backspace, .enter)
        XCTAssertEqual(titles(s), ["Lima, Ana"], "gone once the filter changes")
    }

    func testSectionsGroupByTheFoldedInitialAndTheHighlightSkipsHeaders() {
        var s = makeState(people())
        s.press(.function(6))
        XCTAssertEqual(titles(s), ["Alves, ana", "Lima, Ana", "lima, Bob", "Okonkwo, Chidi", "Östberg, Zoë",
                                   "Umeå, Björn", "山田, 美咲"])
        XCTAssertEqual(s.list.projection.headerRows.map { if case .header(let h) = s.list.projection.row($0) { return h } else { return "?" } },
                       ["A", "L", "O", "U", "#"], "Ö files under O, CJK under #")
        s.press(.home)
        XCTAssertEqual(s.shown, .record(5), "the first record, not its header")
        s.press(.down)
        XCTAssertEqual(s.shown, .record(0), "↓ skips the L header")
        s.press(.pageDown)
        XCTAssertEqual(s.shown, .record(2), "PgDn: the next section")
        s.press(.pageUp)
        XCTAssertEqual(s.shown, .record(0), "PgUp: the previous section")
        s.press(.enter, .right, .right)
        XCTAssertEqual(s.shown, .record(2), "→ crosses section boundaries in the order shown")
        XCTAssertEqual(s.positionTitle, "4 of 7")
        let screen = Screen.render(s).lines
        XCTAssertTrue(screen.contains { $0.hasPrefix(" O ") || $0.hasPrefix(" O│") || $0.contains(" O  ") }, screen.joined(separator: "\n"))
        s.press(.function(6))
        XCTAssertEqual(titles(s).first, "Lima, Ana", "F6 again: entry order")
    }

    func testSortKeysCycle() {
        var s = makeState(people())
        s.press(.character("s"))
        XCTAssertEqual(s.statusText, "Sorted by last name")
        XCTAssertEqual(titles(s).prefix(3), ["Alves, ana", "Lima, Ana", "lima, Bob"])
        s.press(.character("s"))
        XCTAssertEqual(s.statusText, "Sorted by first name")
        XCTAssertEqual(titles(s).prefix(4), ["Alves, ana", "Lima, Ana", "Umeå, Björn", "lima, Bob"], "ties broken by the last name")
        s.press(.character("s"))
        XCTAssertEqual(s.statusText, "Sorted by age")
        XCTAssertEqual(titles(s).prefix(2), ["lima, Bob", "Alves, ana"], "youngest first, no age last")
        s.press(.character("s"))
        XCTAssertEqual(s.statusText, "Sorted by entry order")
        XCTAssertEqual(titles(s).first, "Lima, Ana")
    }

    func testScreensOfTheFilteredListAndOfSections() {
        var wide = makeState(people(), width: 120, height: 40)
        wide.press(.character("/"))
        wide.type("ana")
        assertScreen(Screen.render(wide), named: "filtering-120x40")
        wide.press(.enter)
        assertScreen(Screen.render(wide), named: "filtered-120x40")
        var narrow = makeState(people(), width: 60, height: 20)
        narrow.press(.function(6), .function(2))
        assertScreen(Screen.render(narrow), named: "sections-popover-60x20")
        narrow.press(.escape, .character("/"))
        narrow.type("lima")
        assertScreen(Screen.render(narrow), named: "filtering-popover-60x20")
        var sections = makeState(people(), width: 120, height: 40)
        sections.press(.function(6), .end)
        assertScreen(Screen.render(sections), named: "sections-120x40")
    }

    /// Typing further searches only what the list showed; the result must be the same as
    /// filtering from scratch, in every order, with edits in between.
    func testNarrowingAsYouTypeGivesWhatAFreshFilterGives() {
        for order in [ListOrder(), ListOrder(key: .firstName), ListOrder(sections: true)] {
            var s = makeState(people())
            s.list.restore(order, records: s.records)
            s.press(.character("/"))
            for c in "li a" {
                s.type(String(c))
                let fresh = ListProjection(records: s.records, filter: RecordFilter(s.list.filterInput!.text), order: order)
                XCTAssertEqual((0..<s.list.projection.count).map { s.list.projection.record(atPosition: $0) },
                               (0..<fresh.count).map { fresh.record(atPosition: $0) }, "“\(s.list.filterInput!.text)” in \(order)")
            }
        }
    }
}

/// Find, sections and the delete question at every size down to nothing: nothing drawn
/// outside the screen, the cursor always on it, the keys still doing what they say.
final class FindAtEverySizeTests: XCTestCase {
    func testFilteringSectionsAndDeletingRenderAtEverySize() {
        var records = sampleRecords(extra: 30)
        for i in records.indices { records[i].values[Record.instanceIDKey] = .string("uuid:\(i)") }
        for (w, h) in [(120, 40), (80, 24), (60, 20), (40, 12), (30, 10), (24, 9), (23, 8), (10, 3), (1, 1), (0, 0)] {
            var s = makeState(records, width: 120, height: 40)
            s.press(.function(6))
            s.press(.character("/"))
            s.type("sample1")
            s.send(.system(.resized(Size(width: w, height: h))))
            var grid = Screen.render(s)
            XCTAssertEqual(grid.lines.count, h)
            if let c = grid.cursor { XCTAssertTrue(grid.bounds.contains(c), "cursor inside at \(w)x\(h)") }
            s.send(.system(.resized(Size(width: 120, height: 40))))
            XCTAssertEqual(s.list.projection.count, 10, "Sample10…19 at \(w)x\(h)")
            s.press(.enter)
            s.send(.system(.resized(Size(width: w, height: h))))
            // In the list (on the form Del clears an answer): collapsed, the list pops up first.
            if !s.isSplit, s.layout.kind != .tooSmall { s.send(.app(.showList)) }
            if let action = KeyMap.action(for: .key(.delete), in: s) { _ = s.send(action) }   // as the terminal delivers it
            grid = Screen.render(s)
            XCTAssertEqual(grid.lines.count, h)
            if w >= 24 && h >= 9 {
                XCTAssertEqual(s.pendingRecordDelete != nil, true, "asked at \(w)x\(h)")
                let screen = grid.lines.joined()
                XCTAssertTrue(screen.contains("? y/n") || (screen.contains("Delete") && screen.contains("y Delete")),
                              "the question, or at least its keys, on screen at \(w)x\(h):\n\(grid.lines.joined(separator: "\n"))")
            } else {
                XCTAssertNil(s.pendingRecordDelete, "nothing is asked blind at \(w)x\(h)")
            }
        }
    }

    func testShrinkingWhileTypingOnTheFindLineKeepsItOnScreen() {
        var s = makeState(sampleRecords(extra: 5), width: 120, height: 40)
        s.press(.character("/"))
        s.type("sam")
        s.send(.system(.resized(Size(width: 60, height: 20))))
        XCTAssertEqual(s.popover, .list, "collapsed: the line moves into the list popover")
        XCTAssertEqual(s.inputMode, .filtering)
        XCTAssertTrue(Screen.render(s).lines.contains { $0.contains("/ sam") })
        s.send(.system(.resized(Size(width: 120, height: 40))))
        XCTAssertNil(s.popover)
        XCTAssertEqual(s.screen.focus, .list)
        XCTAssertTrue(Screen.render(s).lines.contains { $0.contains("/ sam") })
    }

    func testClosingAnotherPopoverWhileFindingReturnsToTheFindLine() {
        var s = makeState(sampleRecords(extra: 5), width: 60, height: 20)
        s.press(.character("/"))
        s.type("sam")
        s.press(.function(3))
        XCTAssertEqual(s.popover, .documents)
        s.press(.escape)
        XCTAssertEqual(s.popover, .list)
        XCTAssertEqual(s.inputMode, .filtering)
        s.press(.function(1), .escape)
        XCTAssertEqual(s.popover, .list, "help over the find line goes back to it")
    }
}

/// On a large list the `/` index is built in the background: typing on the `/` line never
/// waits for it, the list shows every survey and the status line says why meanwhile, and the
/// list narrows to what was typed once the index comes (`Program` hands it over: BackgroundWorkTests).
final class BackgroundIndexTests: XCTestCase {
    private func largeList() -> [Record] {
        (0..<SurveyListState.backgroundIndexThreshold).map { i in
            record(i == 12_345 ? "Zoë" : "Person\(i)", i % 2 == 0 ? "Lima" : "Umeå")
        }
    }

    func testTypingBeforeTheIndexShowsEverySurveyThenNarrowsWhenItComes() {
        var s = makeState(largeList())
        let effects = s.send(.list(.beginFilter))
        XCTAssertEqual(effects, [.buildSearchIndex])
        s.type("zoe")
        XCTAssertEqual(s.list.activeFilter.text, "zoe", "what was typed is on the / line at once")
        XCTAssertEqual(s.list.projection.count, SurveyListState.backgroundIndexThreshold, "every survey, until the index comes")
        XCTAssertEqual(s.indexingRemark?.text, "Indexing \(counted(20_000, "survey")) for search…")
        XCTAssertTrue(Screen.render(s).lines.contains { $0.contains("Indexing") }, Screen.render(s).lines.joined(separator: "\n"))
        XCTAssertFalse(s.list.buildsIndexInBackground(for: 20_000), "one build at a time")

        _ = s.send(.outcome(.search(.indexBuilt(SearchIndex(records: s.records)))))
        XCTAssertEqual(s.list.projection.count, 1)
        XCTAssertEqual(s.records[s.list.projection.record(atPosition: 0)].listTitle, "Umeå, Zoë")
        XCTAssertFalse(Screen.render(s).lines.contains { $0.contains("Indexing") })
        s.press(.escape)
        XCTAssertEqual(s.send(.list(.beginFilter)), [], "the index is kept: no second build")
    }

    /// The index comes having searched every survey for what was typed by the time it was
    /// built: the list is what a fresh filter gives, whether the text typed since extends
    /// that one, is it, or went another way (then the search is made again), sorted or not.
    func testAnIndexThatSearchedAheadGivesWhatAFreshFilterGives() {
        func titles(_ s: AppState) -> [String] {
            (0..<s.list.projection.count).map { s.records[s.list.projection.record(atPosition: $0)].listTitle }
        }
        for (ahead, typed, sorted) in [("zo", "zo", false), ("z", "zoe", false), ("x", "zoe", false), ("z", "zoe", true), ("zoe", "zo", false),
                                      ("l", "lima 12", false), ("lima", "lima", true)] {
            var s = makeState(largeList())
            if sorted { s.press(.character("s")) }
            XCTAssertEqual(s.send(.list(.beginFilter)), [.buildSearchIndex])
            s.type(typed)
            let index = SearchIndex(records: s.records)
            index.searchAhead(for: ahead)
            _ = s.send(.outcome(.search(.indexBuilt(index))))
            var fresh = makeState(largeList())
            if sorted { fresh.press(.character("s")) }
            _ = fresh.send(.list(.beginFilter))
            _ = fresh.send(.outcome(.search(.indexBuilt(SearchIndex(records: fresh.records)))))
            fresh.type(typed)
            XCTAssertEqual(titles(s), titles(fresh), "searched ahead for \(ahead), typed \(typed)\(sorted ? ", sorted" : "")")
            XCTAssertGreaterThan(titles(s).count, 0)
            s.press(.backspace)
            fresh.press(.backspace)
            XCTAssertEqual(titles(s), titles(fresh), "and after a Backspace")
        }
    }

    func testAnIndexForAnotherDocumentIsDropped() {
        var s = makeState(largeList())
        let stale = SearchIndex(records: RecordList([record("Zoë", "Other")]))
        _ = s.send(.outcome(.search(.indexBuilt(stale))))
        XCTAssertEqual(s.send(.list(.beginFilter)), [.buildSearchIndex], "none was asked for, so none was taken")
    }

    func testSmallListsAreIndexedAtOnce() {
        var s = makeState(sampleRecords(extra: 100))
        XCTAssertEqual(s.send(.list(.beginFilter)), [])
        s.type("doris")
        XCTAssertEqual(s.list.projection.count, 1)
    }
}

/// Issue 30: `/` finds a survey by any answer, its rosters' members included: a household
/// by a member's name, a plot by a stem's measure; never by an id.
final class FindByMemberTests: XCTestCase {
    func testAHouseholdIsFoundByAMembersName() throws {
        func household(_ id: String, _ village: String, _ names: [String]) -> Record {
            Record(["instanceID": .string(id), "village": .string(village),
                    "member": .array(names.enumerated().map { i, name in
                        .dictionary(["name": .string(name), "age": .integer(20 + i),
                                     "instanceID": .string("uuid:member-\(id)-\(i)")])
                    })])
        }
        let records = [household("uuid:h1", "Kibera", ["Ana Lima", "Bo"]), household("uuid:h2", "Mathare", ["Zoë Ørsted"]),
                       household("uuid:h3", "Kawangware", [])]
        var s = try rosterState(records)
        s.screen.moveFocus(to: .list)
        s.press(.character("/"))
        s.type("zoe")
        XCTAssertEqual((0..<s.list.projection.count).map { s.list.projection.record(atPosition: $0) }, [1],
                       "a member's name, accents ignored")
        s.press(.backspace, .backspace, .backspace)
        s.type("21")
        XCTAssertEqual((0..<s.list.projection.count).map { s.list.projection.record(atPosition: $0) }, [0], "a member's age")
        s.press(.backspace, .backspace)
        s.type("member-uuid")
        XCTAssertEqual(s.list.projection.count, 0, "members' ids are not searched")
    }
}
