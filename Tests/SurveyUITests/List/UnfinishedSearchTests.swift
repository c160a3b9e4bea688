import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// A `/` search among many surveys finds the first screenfuls during the key and leaves the
/// rest to the runtime (`SurveyListState.searchToFinish`). Whatever is typed, Backspaces
/// included, and whether or not a finished search came in between, the list must show a
/// prefix of exactly what filtering every survey one by one gives, in order, and all of it
/// (with the count in the title) once nothing is left to finish.
final class UnfinishedSearchTests: XCTestCase {
    private struct Generator {
        var state: UInt64
        mutating func next(below bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private let words = ["ana", "anabel", "Ñandú", "bob", "Bea", "abba", "cab", "baca", "nab"]

    private func records(_ count: Int, _ g: inout Generator) -> [Record] {
        (0..<count).map { i in
            Record(["firstName": .string(words[g.next(below: words.count)]),
                    "lastName": .string(words[g.next(below: words.count)] + " \(g.next(below: 30))"),
                    "age": .integer(g.next(below: 6)), Record.instanceIDKey: .string("uuid:\(i)")])
        }
    }

    private func shown(_ s: AppState) -> [Int] {
        (0..<s.list.projection.count).map { s.list.projection.record(atPosition: $0) }
    }

    private func bruteForce(_ s: AppState) -> [Int] {
        let filter = s.list.activeFilter
        return s.records.indices.filter { filter.matches(s.records[$0]) }
    }

    /// The whole result in the list's order, made afresh without an index.
    private func fresh(_ s: AppState) -> [Int] {
        let fresh = ListProjection(records: s.records, filter: s.list.activeFilter, order: s.list.order)
        return (0..<fresh.count).map { fresh.record(atPosition: $0) }
    }

    /// A small window, so that lists of a few hundred surveys leave searches unfinished.
    private func state(_ records: [Record]) -> AppState {
        var s = makeState(records)
        s.list.useWindow(SearchWindow(threshold: 20, limit: 5, budget: 40))
        return s
    }

    /// The finished search, as the runtime would hand it over.
    private func finish(_ s: inout AppState) {
        guard let job = s.list.searchToFinish else { return }
        let done = try! XCTUnwrap(job.run { false })
        _ = s.send(.outcome(.search(.finished(done))))
    }

    func testWhatIsShownIsAlwaysAPrefixOfTheWholeResultAndAllOfItWhenFinished() {
        var g = Generator(state: 20)
        var unfinished = 0, sortedUnfinished = 0
        let orders = [ListOrder(), ListOrder(key: .firstName), ListOrder(key: .age), ListOrder(sections: true)]
        for round in 0..<40 {
            var s = state(records(300 + g.next(below: 200), &g))
            s.list.restore(orders[round % orders.count], records: s.records)
            s.press(.character("/"))
            for step in 0..<14 {
                let text = s.list.filterInput?.text ?? ""
                switch g.next(below: 10) {
                case 0..<3 where !text.isEmpty: s.press(.backspace)
                case 3: s.type(" ")
                default: s.type(String(Array("abcn")[g.next(below: 4)]))
                }
                XCTAssertNotNil(s.list.filterInput, "still typing on the / line")
                let expected = fresh(s)
                if s.list.order == ListOrder() { XCTAssertEqual(expected, bruteForce(s)) }
                let label = "round \(round) (\(s.list.order.memoryWord)), step \(step): “\(s.list.activeFilter.text)”"
                if s.list.isMatching {
                    unfinished += 1
                    if s.list.order != ListOrder() { sortedUnfinished += 1 }
                    XCTAssertEqual(shown(s), Array(expected.prefix(s.list.projection.count)), label)
                    XCTAssertTrue(Screen.render(s).lines.contains { $0.contains("Surveys (matching… of \(s.recordCount))") }, label)
                    // Sometimes the next key comes before the rest does.
                    if g.next(below: 2) == 0 { finish(&s) }
                }
                if !s.list.isMatching {
                    XCTAssertEqual(shown(s), expected, label)
                    if !s.list.activeFilter.isEmpty {
                        XCTAssertTrue(Screen.render(s).lines.contains { $0.contains("Surveys (\(expected.count) of \(s.recordCount))") }, label)
                    }
                }
                if let position = s.list.projection.position(ofRecord: s.list.rows.cursor) {
                    XCTAssertEqual(s.list.projection.record(atPosition: position), s.list.rows.cursor, label)
                }
            }
        }
        XCTAssertGreaterThan(unfinished, 50, "the small window left searches to finish")
        XCTAssertGreaterThan(sortedUnfinished, 10, "in sorted lists too")
    }

    /// Surveys edited under the filter stay listed (pinned) whether or not the search finished.
    func testAKeptSurveyStaysInAnUnfinishedSearch() {
        var g = Generator(state: 7)
        var s = state(records(400, &g))
        let kept = try! XCTUnwrap(s.records.indices.last { !RecordFilter("bob").matches(s.records[$0]) })
        s.list.select(kept)
        s.press(.character("/"))
        s.type("bob")
        XCTAssertTrue(s.list.isMatching)
        s.list.pinWhileFiltered(s.records[kept].instanceID ?? "none")
        s.list.refresh(s.records)
        s.list.refresh(s.records)
        finish(&s)
        let filter = s.list.activeFilter
        XCTAssertEqual(shown(s), s.records.indices.filter { $0 == kept || filter.matches(s.records[$0]) })
    }

    /// A result for an older query, or another list, is not taken: only the latest one is.
    func testOnlyTheLatestSearchIsTaken() throws {
        var g = Generator(state: 3)
        var s = state(records(400, &g))
        s.press(.character("/"))
        s.type("a")
        let first = try XCTUnwrap(s.list.searchToFinish)
        s.type("b")
        let second = try XCTUnwrap(s.list.searchToFinish)
        _ = s.send(.outcome(.search(.finished(try XCTUnwrap(first.run { false })))))
        XCTAssertTrue(s.list.isMatching, "the older query's result is dropped")
        XCTAssertEqual(shown(s), Array(bruteForce(s).prefix(s.list.projection.count)))
        XCTAssertNil(first.run { true }, "a cancelled job stops")
        _ = s.send(.outcome(.search(.finished(try XCTUnwrap(second.run { false })))))
        XCTAssertFalse(s.list.isMatching)
        XCTAssertEqual(shown(s), bruteForce(s))

        var other = state(records(400, &g))
        other.press(.character("/"))
        other.type("b")
        let job = try XCTUnwrap(other.list.searchToFinish)
        var another = state(records(400, &g))
        another.press(.character("/"))
        another.type("b")
        _ = another.send(.outcome(.search(.finished(try XCTUnwrap(job.run { false })))))
        XCTAssertTrue(another.list.isMatching, "a search of another list is dropped")
    }

    /// Backspace to a text whose whole result is known shows it at once, with nothing to
    /// finish (only results of up to an eighth of the surveys are kept).
    func testBackspaceToAFinishedTextSearchesNothing() {
        var g = Generator(state: 11)
        var s = state(records(400, &g))
        s.press(.character("/"))
        s.type("abba 22")
        XCTAssertTrue(s.list.isMatching)
        finish(&s)
        let found = shown(s)
        XCTAssertEqual(found, bruteForce(s))
        XCTAssertLessThanOrEqual(found.count, 50)
        s.type("1")
        finish(&s)
        s.press(.backspace)
        XCTAssertFalse(s.list.isMatching, "“abba 22” was searched to the end before")
        XCTAssertEqual(shown(s), found)
    }
}
