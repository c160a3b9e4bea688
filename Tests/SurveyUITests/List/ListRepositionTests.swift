import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// After a commit or an Add the list moves only the surveys that changed (see
/// `ListProjection.repositioned`); whatever the order, sections and filter, the list must be
/// exactly the one ordering everything afresh gives.
final class ListRepositionTests: XCTestCase {
    private struct Generator {
        var state: UInt64
        mutating func next(below bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private let lasts = ["Núñez", "nunez", "Öberg", "Oberg", "O'Brien", "山田", "", "  Lima ", "lima", "Zoë", "ßmith", "Ana"]
    private let firsts = ["José", "jose", "", "Ana", "美咲", "Émile"]

    private func record(_ g: inout Generator) -> Record {
        var values: [String: PropertyValue] = ["lastName": .string(lasts[g.next(below: lasts.count)]),
                                               "firstName": .string(firsts[g.next(below: firsts.count)])]
        if g.next(below: 3) > 0 { values["age"] = .integer(g.next(below: 5)) }
        values[Record.instanceIDKey] = .string("uuid:\(g.next(below: 40))")
        return Record(values)
    }

    func testEditsAddsAndDeletesGiveTheListAFreshSortGives() {
        let orders: [ListOrder] = [ListOrder(key: .lastName), ListOrder(key: .firstName), ListOrder(key: .age),
                                   ListOrder(sections: true), ListOrder(key: .entry)]
        for (n, order) in orders.enumerated() {
            for filterText in ["", "a", "lima"] {
                var g = Generator(state: UInt64(n * 31 + filterText.count))
                var records = RecordList((0..<300).map { _ in record(&g) })
                var list = SurveyListState(order: order)
                _ = list.openFilterLine(recordCount: 0)
                list.editFilterLine { $0 = TextInput(text: filterText) }
                list.keepFilterLine()
                // Surveys edited while the filter was on stay listed (some ids are shared: any of them).
                for id in ["uuid:1", "uuid:2", "uuid:3"] { list.pinWhileFiltered(id) }
                XCTAssertEqual(list.pinned.count, filterText.isEmpty ? 0 : 3)
                list.refresh(records)
                for step in 0..<60 {
                    switch g.next(below: 5) {
                    case 0: records.append(record(&g))
                    case 3: records.remove(at: g.next(below: records.count))
                    case 4: records.insert(record(&g), at: g.next(below: records.count + 1))
                    case 1: records[g.next(below: records.count)] = record(&g)
                    default:
                        for _ in 0..<3 { records[g.next(below: records.count)].values["lastName"] = .string(lasts[g.next(below: lasts.count)]) }
                    }
                    list.refresh(records)
                    let keep = Set(records.indices.filter { records[$0].instanceID.map(list.pinned.contains) ?? false })
                    let fresh = ListProjection(records: records, filter: list.filter, order: order, keep: keep, index: nil)
                    XCTAssertEqual(list.projection, fresh, "\(order) filter “\(filterText)” step \(step)")
                    if list.projection != fresh { return }
                }
            }
        }
    }

    /// The order of every survey a sort index keeps (what a wide `/` search in a sorted list
    /// walks) is, after edits put back in place and after adds and deletes, a fresh sort's.
    func testTheKeptOrderOfEverySurveyIsAFreshSorts() {
        for key in [ListOrder.Key.lastName, .firstName, .age] {
            var g = Generator(state: UInt64(key.rawValue.count))
            var records = RecordList((0..<300).map { _ in record(&g) })
            var index = SortIndex(records: records, key: key, names: .standard)
            XCTAssertEqual(index.sorted(), SortIndex(records: records, key: key, names: .standard).records.indices.sorted(by: index.precedes))
            for step in 0..<40 {
                switch g.next(below: 6) {
                case 0: records.append(record(&g))
                case 1: records.remove(at: g.next(below: records.count))
                default:
                    for _ in 0..<(1 + g.next(below: 3)) { records[g.next(below: records.count)] = record(&g) }
                }
                index = index.updated(for: records, key: key, names: .standard)
                let fresh = SortIndex(records: records, key: key, names: .standard)
                if g.next(below: 3) > 0 {
                    XCTAssertEqual(index.sorted(), records.indices.sorted(by: fresh.precedes), "\(key) step \(step)")
                }
            }
        }
    }

    func testSortingFoldsCaseAccentsAndSpacesAndPutsEmptyNamesLast() {
        let names = ["zoë", "Öberg", "  Lima", "", "lima", "Ana", "oberg", "Ábel"]
        let records = RecordList(names.map { Record(["lastName": .string($0)]) })
        let projection = ListProjection(records: records, filter: RecordFilter(""), order: ListOrder(key: .lastName), keep: [], index: nil)
        let sorted = (0..<projection.count).map { names[projection.record(atPosition: $0)] }
        XCTAssertEqual(sorted, ["Ábel", "Ana", "  Lima", "lima", "Öberg", "oberg", "zoë", ""])
    }
}
