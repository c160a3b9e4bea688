import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// A large document shown before all of it is read (the UI core): the first rows and how far
/// the reading is are on screen, the list can be browsed, every change to the document is
/// refused with the reason and leaves the state as it was (typed text included), and the end
/// of the reading keeps the highlight, the focus and what is being typed.
final class LoadingTests: XCTestCase {
    /// Twelve surveys with ids, of which the first `shown` are read.
    private func all() -> [Record] {
        sampleRecords(extra: 10).enumerated().map { i, r in
            var r = r
            r.values[Record.instanceIDKey] = .string("uuid:r\(i)")
            return r
        }
    }

    private func loading(_ shown: Int = 8, width: Int = 120, height: Int = 40, percent: Int = 43,
                         place: SessionPlace? = nil) -> AppState {
        var state = makeState(Array(all().prefix(shown)), width: width, height: height)
        // As the runner launches it (`LoadOutcome.launched`).
        _ = state.send(.outcome(.loading(.launched(Launch(folder: state.environment.documentFolder, device: state.environment.device,
                                                          place: place, loadingPercent: percent, journalMessage: nil)))))
        return state
    }

    private var rest: [Record] { Array(all().dropFirst(8)) }

    func testThePartReadShowsItsFirstRowsAndHowFarTheReadingIs() {
        for (width, height) in [(80, 24), (40, 12)] {
            var state = loading(width: width, height: height)
            let lines = Screen.render(state).lines
            XCTAssertTrue(lines[0].contains("1 of 8…"), "\(width)x\(height): \(lines[0])")
            XCTAssertTrue(lines.contains { $0.contains("Loading… 43%: 8 surveys so far") }, "\(width)x\(height)\n" + lines.joined(separator: "\n"))
            assertScreen(Screen.render(state), named: "loading-\(width)x\(height)")
            // Browsing works over what is read.
            state.send(.form(.nextRecord))
            XCTAssertEqual(state.shown, .record(1))
        }
        let state = loading(width: 80, height: 24)
        XCTAssertTrue(Screen.render(state).lines[1].contains("Surveys (8…)"), Screen.render(state).lines[1])
    }

    func testACommittedFieldIsRefusedAndStaysTyped() {
        var state = loading()
        state.press(.enter, .enter)           // the form, then edit First name
        state.type("ny")
        let effects = state.press(.enter)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(state.statusText, "Still loading… (43%): changes are saved once the whole document is read")
        XCTAssertEqual(Array(state.records), Array(all().prefix(8)), "the document is unchanged")
        XCTAssertEqual(state.editing?.text, "Johnny", "what was typed stays, to be kept once loaded")

        state.send(.outcome(.loading(.partLoaded(rest, percent: 100))))
        state.send(.outcome(.loading(.ended(.complete))))
        XCTAssertNil(state.session.loading)
        XCTAssertNil(state.status, "the refusal goes with the loading")
        XCTAssertEqual(state.editing?.text, "Johnny")
        XCTAssertTrue(state.press(.enter).contains(.saveDocument), "now it is kept")
        XCTAssertEqual(state.records[0].values["firstName"], .string("Johnny"))
    }

    func testAddDeleteUndoSortAndFindWaitButTheNewFormIsItsOwnFile() {
        var state = loading()
        state.press(.control("n"))
        let typed = state.type("Grace") + state.press(.enter)
        XCTAssertTrue(typed.contains(.saveDraft), "the New form is saved to its own file")
        XCTAssertFalse(typed.contains(where: \.changesDocument))
        XCTAssertEqual(state.draft.values["firstName"], .string("Grace"))

        // [ Add ]: refused, the New form kept.
        state.press(.escape)
        while state.formItem != .add { state.press(.tab) }
        XCTAssertEqual(state.press(.enter), [])
        XCTAssertEqual(state.recordCount, 8)
        XCTAssertEqual(state.draft.values["firstName"], .string("Grace"))
        XCTAssertTrue(state.statusText?.hasPrefix("Still loading… (43%)") == true)

        // Delete: asked, then refused when confirmed.
        var list = loading()
        list.press(.character("d"))
        XCTAssertNotNil(list.pendingRecordDelete)
        XCTAssertEqual(list.press(.character("y")), [])
        XCTAssertNil(list.pendingRecordDelete)
        XCTAssertEqual(list.recordCount, 8)

        for key: Key in [.character("s"), .character("/"), .function(6)] {
            var other = loading()
            XCTAssertEqual(other.press(key), [], "\(key)")
            XCTAssertEqual(other.statusText, "Still loading… (43%): finding and sorting work once the whole document is read")
            XCTAssertEqual(other.list.order, ListOrder())
            XCTAssertNil(other.list.filterInput)
        }
    }

    func testEveryEffectOnTheDocumentOrItsFileIsRefused() {
        var state = loading()
        for action: Action in [.documents(.manager(.newDocument)), .documents(.manager(.restoreDeleted)), .records(.undo), .records(.redo)] {
            let before = state.records
            XCTAssertFalse(state.send(action).contains(where: \.changesDocument), "\(action)")
            XCTAssertEqual(state.records, before)
        }
    }

    func testTheEndKeepsTheHighlightFocusAndTyping() {
        var state = loading()
        state.press(.down, .down, .down)
        XCTAssertEqual(state.list.rows.cursor, 3)
        state.send(.outcome(.loading(.partLoaded(Array(rest.prefix(2)), percent: 90))))
        XCTAssertEqual(state.recordCount, 10)
        XCTAssertEqual(state.session.loading?.percent, 90)
        state.press(.enter, .enter)
        state.type("x")
        state.send(.outcome(.loading(.ended(.complete))))
        XCTAssertEqual(state.list.rows.cursor, 3)
        XCTAssertEqual(state.screen.focus, .form)
        XCTAssertEqual(state.editing?.text, "Person4x")
        XCTAssertTrue(Screen.render(state).lines[0].contains("4 of 10 "), Screen.render(state).lines[0])
    }

    func testAWholeReadThatReplacesThePartKeepsTheSameRecord() {
        var state = loading()
        state.press(.down, .down)
        var whole = SurveyDocument(records: all())
        whole.records.insert(record("Early", "Bird"), at: 0)   // as if read afresh, one more first
        state.send(.outcome(.loading(.ended(.replaced(whole)))))
        XCTAssertEqual(state.records, whole.records)
        XCTAssertEqual(state.list.rows.cursor, 3, "the same survey, found by its id")
    }

    func testAFileThatTurnsOutUnreadableIsShownAsAWholeLoadShowsIt() {
        var state = loading()
        state.press(.enter, .enter)
        state.type("ny")
        state.send(.outcome(.loading(.ended(.failed("Field Day.plist: not a property list: bad tag")))))
        XCTAssertNil(state.document)
        XCTAssertEqual(state.session.loadError, "Field Day.plist: not a property list: bad tag")
        XCTAssertEqual(state.inputMode, .unreadable)
        XCTAssertNil(state.editing)
        XCTAssertEqual(state.statusText, "“Johnny” was not kept: Field Day.plist turned out unreadable")
        let unreadable = AppState(documentName: "Field Day", loaded: .failure(DocumentError("Field Day.plist: not a property list: bad tag")),
                                  size: Size(width: 120, height: 40), environment: .forTests)
        XCTAssertEqual(Screen.render(state).lines.dropLast(2), Screen.render(unreadable).lines.dropLast(2))
    }

    func testTheRememberedRecordIsShownOnceItIsRead() {
        let place = SessionPlace(record: 10, recordID: "uuid:r10")
        var state = loading(place: place)
        XCTAssertEqual(state.shown, .record(0), "not read yet")
        state.send(.outcome(.loading(.partLoaded(Array(rest.prefix(2)), percent: 80))))
        XCTAssertEqual(state.shown, .record(0))
        state.send(.outcome(.loading(.partLoaded(Array(rest.dropFirst(2)), percent: 100))))
        XCTAssertEqual(state.shown, .record(10), "found by its id as it arrived")

        // Moved meanwhile: the user's place wins.
        var moved = loading(place: place)
        moved.press(.down)
        moved.send(.outcome(.loading(.partLoaded(rest, percent: 100))))
        moved.send(.outcome(.loading(.ended(.complete))))
        XCTAssertEqual(moved.shown, .record(1))

        // A remembered record among the first read is shown at once.
        XCTAssertEqual(loading(place: SessionPlace(record: 5, recordID: "uuid:r5")).shown, .record(5))
    }
}
