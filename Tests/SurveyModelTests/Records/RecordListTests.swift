import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `RecordList` must behave exactly as an array of records would (it replaced one), whatever
/// the mix of changes, and versions of it must never see each other's changes.
final class RecordListTests: XCTestCase {
    private func record(_ n: Int) -> Record {
        Record(["firstName": .string("F\(n)"), "lastName": .string("L\(n)")])
    }

    private func assertSame(_ list: RecordList, _ array: [Record], _ context: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(list.count, array.count, context, file: file, line: line)
        XCTAssertEqual(Array(list), array, "iterating: " + context, file: file, line: line)
        XCTAssertEqual(list.indices.map { list[$0] }, array, "subscript: " + context, file: file, line: line)
    }

    func testRandomChangesMatchAnArray() {
        var random = SplitMix(seed: 42)
        var list = RecordList()
        var array: [Record] = []
        var serial = 0
        var versions: [(RecordList, [Record])] = []
        for step in 0..<3_000 {
            serial += 1
            switch random.next(below: 10) {
            case 0...3:
                list.append(record(serial)); array.append(record(serial))
            case 4:
                let i = random.next(below: array.count + 1)
                list.insert(record(serial), at: i); array.insert(record(serial), at: i)
            case 5 where !array.isEmpty:
                let i = random.next(below: array.count)
                XCTAssertEqual(list.remove(at: i), array.remove(at: i))
            case 6 where !array.isEmpty:
                let i = random.next(below: array.count)
                list[i].values["age"] = .integer(serial); array[i].values["age"] = .integer(serial)
            case 7 where !array.isEmpty:
                let i = random.next(below: array.count)
                list[i] = record(serial); array[i] = record(serial)
            case 8:
                let more = (0..<random.next(below: 300)).map { record(serial * 10_000 + $0) }
                list.append(contentsOf: more); array.append(contentsOf: more)
            default:
                // A version kept aside, as undo and the background writer keep them.
                versions.append((list, array))
            }
            if step % 500 == 0 { assertSame(list, array, "step \(step)") }
        }
        assertSame(list, array, "the end")
        for (n, (keptList, keptArray)) in versions.enumerated() where n % max(1, versions.count / 30) == 0 {
            assertSame(keptList, keptArray, "a version kept at \(n) saw later changes")
        }
    }

    func testInsertingIntoOneChunkSplitsItAndKeepsOrder() {
        var list = RecordList((0..<10).map(record))
        var array = (0..<10).map(record)
        for n in 0..<(3 * RecordList.chunkSize) {
            list.insert(record(1_000_000 + n), at: 5)
            array.insert(record(1_000_000 + n), at: 5)
        }
        assertSame(list, array, "one place")
        XCTAssertGreaterThan(list.chunks.count, 1, "a chunk past twice the size is split")
        XCTAssertTrue(list.chunks.allSatisfy { $0.records.count <= 2 * RecordList.chunkSize })
    }

    func testRangeChangesAndRemoveWhere() {
        var list = RecordList((0..<3_000).map(record))
        var array = (0..<3_000).map(record)
        list.replaceSubrange(100..<2_500, with: (0..<7).map { record(90_000 + $0) })
        array.replaceSubrange(100..<2_500, with: (0..<7).map { record(90_000 + $0) })
        assertSame(list, array, "replaceSubrange")
        list.removeAll { $0.values["firstName"] == .string("F7") }
        array.removeAll { $0.values["firstName"] == .string("F7") }
        assertSame(list, array, "removeAll(where:)")
        list.removeAll()
        XCTAssertTrue(list.isEmpty)
    }

    func testDifferingIndicesFindsEveryChangedSurveyAndSkipsSharedChunks() {
        let old = RecordList((0..<5_000).map(record))
        var new = old
        XCTAssertTrue(new.isSameStorage(as: old))
        XCTAssertEqual(new.differingIndices(from: old), [])
        new[17].values["age"] = .integer(3)
        new[4_999] = record(-1)
        new[2_048] = old[2_048]   // written back unchanged: the same survey
        XCTAssertFalse(new.isSameStorage(as: old))
        XCTAssertEqual(new.differingIndices(from: old), [17, 4_999])
        XCTAssertEqual(old.differingIndices(from: new), [17, 4_999])
        // Chunks not touched are still the very same objects in both versions.
        let shared = zip(new.chunks, old.chunks).filter { $0 === $1 }.count
        XCTAssertEqual(shared, new.chunks.count - 3, "only the chunks written to were copied")
        // After an insert the chunk boundaries no longer line up: still compared by position.
        var shifted = old
        shifted.insert(record(-2), at: 10)
        let naive = (0..<old.count).filter { shifted[$0] != old[$0] }
        XCTAssertEqual(shifted.differingIndices(from: old), naive)
        XCTAssertNotEqual(shifted, old)
        XCTAssertEqual(RecordList(Array(old)), old, "equal surveys in other storage are equal")
    }

    func testChangedStretchIsWhatADeleteOrAnInsertTouched() {
        let old = RecordList((0..<5_000).map(record))
        var deleted = old
        deleted.remove(at: 3_000)
        XCTAssertTrue(deleted.changedStretch(from: old) == (3_000, 1_999))
        var inserted = deleted
        inserted.insert(old[3_000], at: 3_000)
        XCTAssertTrue(inserted.changedStretch(from: deleted) == (3_000, 1_999))
        XCTAssertEqual(inserted, old)
        var edited = old
        edited[10].values["age"] = .integer(1)
        edited[4_000].values["age"] = .integer(1)
        XCTAssertTrue(edited.changedStretch(from: old) == (10, 999))
        XCTAssertTrue(old.changedStretch(from: old) == (5_000, 0))
        var appended = old
        appended.append(record(-1))
        XCTAssertTrue(appended.changedStretch(from: old) == (5_000, 0))
        XCTAssertTrue(RecordList().changedStretch(from: old) == (0, 0))
        // Prefix and suffix never overlap: a list of the same survey many times.
        let same = RecordList(Array(repeating: record(1), count: 10))
        var shorter = same
        shorter.removeLast()
        let (prefix, suffix) = shorter.changedStretch(from: same)
        XCTAssertEqual(prefix + suffix, 9)
    }

    func testUpdatingConcurrentlyChangesEverySurveyAtItsPositionAndNoCopy() {
        let original = RecordList((0..<10_000).map(record))
        var list = original
        let changed = list.updateConcurrently(parts: 4) { position, record in
            record.values["position"] = .integer(position)
            return position % 3 == 0
        }
        XCTAssertEqual(changed, 3_334, "what the workers said they changed, counted once")
        XCTAssertEqual(list.indices.map { list[$0].values["position"] }, list.indices.map { .integer($0) })
        XCTAssertTrue(original.allSatisfy { $0.values["position"] == nil }, "the copy kept before is untouched")
    }
}
