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

    func testOnlyTheLatestJobsResultIsHandedOver() throws {
        var s = makeState(people(2_000))
        s.list.useWindow(SearchWindow(threshold: 100, limit: 10, budget: 100))
        s.press(.character("/"))
        let first = try unfinished("a", in: &s)
        let second = try unfinished("n", in: &s)
        let finisher = SearchFinisher()
        finisher.want(first)
        finisher.want(second)
        finisher.waitUntilIdle()
        let done = try XCTUnwrap(finisher.take())
        XCTAssertEqual(done.generation, second.generation)
        XCTAssertNil(finisher.take(), "handed over once")
        XCTAssertFalse(finisher.isBusy)
        _ = s.send(.outcome(.searchFinished(done)))
        XCTAssertFalse(s.list.isMatching)
        XCTAssertEqual(s.list.projection.count, s.records.filter { RecordFilter("an").matches($0) }.count)

        // Nothing wanted any more (the query was cleared): nothing is handed over.
        let third = try unfinished("a", in: &s)
        finisher.want(third)
        finisher.want(nil)
        finisher.waitUntilIdle()
        XCTAssertNil(finisher.take())
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
