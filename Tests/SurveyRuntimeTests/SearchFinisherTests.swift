import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// A `/` search a key left unfinished is finished off the main thread and handed over as an
/// action; only the latest query's result ever is.
final class SearchFinisherTests: XCTestCase {
    private func people(_ count: Int) -> [Record] {
        (0..<count).map { i in
            Record(["firstName": .string(i % 3 == 0 ? "Ana" : "Bob"), "lastName": .string("Lima \(i)"),
                    Record.instanceIDKey: .string("uuid:\(i)")])
        }
    }

    private func unfinished(_ text: String, in s: inout AppState) throws -> SearchJob {
        s.type(text)
        return try XCTUnwrap(s.list.searchToFinish, "“\(s.list.activeFilter.text)” is left to finish")
    }

    /// The list asks for each new search as an effect, and says when none is wanted any more:
    /// the runtime watches no state (issue 29).
    func testTheListAsksForEachSearchAsAnEffect() throws {
        var s = makeState(people(2_000))
        s.list.useWindow(SearchWindow(threshold: 100, limit: 10, budget: 100))
        s.press(.character("/"))
        let afterA = s.type("a")
        let first = try XCTUnwrap(s.list.searchToFinish)
        XCTAssertEqual(afterA.last, .finishSearch(first))
        let afterN = s.type("n")
        let second = try XCTUnwrap(s.list.searchToFinish)
        XCTAssertFalse(second.isSame(as: first))
        XCTAssertEqual(afterN.last, .finishSearch(second), "a newer query replaces the search under way")
        XCTAssertEqual(s.press(.left).filter { if case .finishSearch = $0 { true } else { false } }, [],
                       "a key that leaves the search as it was asks for nothing")
        let cleared = s.press(.escape)
        XCTAssertNil(s.list.searchToFinish)
        XCTAssertEqual(cleared.last, .cancelSearch, "nothing waited for: the search under way stops")
    }

    /// Two searches asked for one after the other: only the latest's result is handed over,
    /// once; a cancelled one hands over nothing.
    func testOnlyTheLatestSearchesResultIsHandedOver() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-finisher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: people(10)), as: "Small")
        var program = Program(store: store, documentName: "Small", size: Size(width: 120, height: 40))
        program.finishBackgroundWork()

        var s = makeState(people(2_000))
        s.list.useWindow(SearchWindow(threshold: 100, limit: 10, budget: 100))
        s.press(.character("/"))
        let first = try unfinished("a", in: &s)
        let second = try unfinished("n", in: &s)
        program.finishSearch(first)
        program.finishSearch(second)
        program.jobs.waitUntilIdle(.search)
        let mail = program.mailbox.take()
        XCTAssertEqual(mail.map(\.kind), [.searchFinished], "handed over once")
        guard case .searchFinished(let done) = mail.first else { return XCTFail("\(mail)") }
        XCTAssertEqual(done.generation, second.generation)
        XCTAssertFalse(program.jobs.isBusy(.search))
        _ = s.send(.outcome(.search(.finished(done))))
        XCTAssertFalse(s.list.isMatching)
        XCTAssertEqual(s.list.projection.count, s.records.filter { RecordFilter("an").matches($0) }.count)

        // Nothing wanted any more (the query was cleared): nothing is handed over, even when
        // the search had finished before the cancel.
        let third = try unfinished("a", in: &s)
        program.finishSearch(third)
        program.jobs.waitUntilIdle(.search)
        program.jobs.cancel(.search)
        XCTAssertEqual(program.mailbox.take().map(\.kind), [])
    }

    /// Through the program: a Backspace that widens a query past the window shows the first
    /// matches, and the rest comes from the background with the count.
    func testTheProgramFinishesAWideSearchInTheBackground() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-finisher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DocumentStore(folder: folder)
        let count = SearchWindow().threshold + 10_000
        try store.save(SurveyDocument(records: people(count)), as: "Big")
        var program = Program(store: store, documentName: "Big", size: Size(width: 120, height: 40))
        program.press(.character("/"))
        program.type("ana")
        program.finishBackgroundWork()
        XCTAssertEqual(program.state.list.projection.count, (count + 2) / 3)
        program.press(.backspace)
        XCTAssertTrue(program.state.list.isMatching, "“an” among every survey is left to the background")
        XCTAssertTrue(program.isAwaitedSoon)
        XCTAssertTrue(program.state.list.projection.count > 0)
        program.finishBackgroundWork()
        XCTAssertFalse(program.state.list.isMatching)
        XCTAssertEqual(program.state.list.projection.count, (count + 2) / 3)
        XCTAssertFalse(program.isAwaitedSoon)
    }
}
