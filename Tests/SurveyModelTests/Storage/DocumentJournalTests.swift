import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The write-ahead journal of large documents: what is appended is read back exactly, a
/// torn last entry is ignored, the file is locked by its writer, and replaying entries (even
/// twice) turns the `.plist` into what was committed.
final class DocumentJournalTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func person(_ first: String, id: String, phone: String = "") -> Record {
        Record(["firstName": .string(first), "lastName": .string("L"), "phone": .string(phone), Record.instanceIDKey: .string(id)])
    }

    func testEntriesAreReadBackExactlyWhateverTheyHold() throws {
        let url = folder.appendingPathComponent(".Doc.journal")
        let journal = try XCTUnwrap(try DocumentJournal.open(at: url, in: .live))
        var odd = person("Zoë 山田 😀", id: "uuid:1")
        odd.values["age"] = .integer(42)
        odd.values["height"] = .real(1.75)
        odd.values["tags"] = .array([.string("a"), .bool(true)])
        odd.values["blob"] = .data(Data([0, 1, 2, 255]))
        odd.values["when"] = .date(Date(timeIntervalSince1970: 1_700_000_000))
        odd.values["notes"] = .dictionary(["k": .string("v\nline")])
        try journal.append([.put(index: 0, record: odd), .delete(index: 3, id: "uuid:gone")])
        try journal.append([.put(index: 7, record: person("Bo", id: "uuid:2"))])
        XCTAssertEqual(DocumentJournal.entries(at: url),
                       [.put(index: 0, record: odd), .delete(index: 3, id: "uuid:gone"), .put(index: 7, record: person("Bo", id: "uuid:2"))])
    }

    func testATornLastEntryIsLeftOutAndAForeignFileIsNotAJournal() throws {
        let url = folder.appendingPathComponent(".Doc.journal")
        let journal = try XCTUnwrap(try DocumentJournal.open(at: url, in: .live))
        try journal.append([.put(index: 0, record: person("Ann", id: "uuid:1"))])
        let whole = try Data(contentsOf: url)
        try journal.append([.put(index: 1, record: person("Bob", id: "uuid:2"))])
        let both = try Data(contentsOf: url)
        // A crash in the middle of the second entry: any cut of it leaves the first.
        for cut in stride(from: whole.count, to: both.count, by: 7) {
            try both.prefix(cut).write(to: url)
            XCTAssertEqual(DocumentJournal.entries(at: url), [.put(index: 0, record: person("Ann", id: "uuid:1"))], "cut at \(cut)")
        }
        try Data("<?xml version=\"1.0\"?><plist/>".utf8).write(to: url)
        XCTAssertNil(DocumentJournal.entries(at: url))
    }

    func testTheWriterHoldsTheJournalSoNoOneElseReplaysOrAppendsToIt() throws {
        let url = folder.appendingPathComponent(".Doc.journal")
        let journal = try XCTUnwrap(try DocumentJournal.open(at: url, in: .live))
        XCTAssertTrue(DocumentJournal.isHeldElsewhere(at: url))
        XCTAssertNil(try DocumentJournal.open(at: url, in: .live), "a second writer is refused")
        journal.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        XCTAssertFalse(DocumentJournal.isHeldElsewhere(at: url))
    }

    func testEntriesSinceAnOlderVersionReplayIntoTheNewOneEvenTwice() throws {
        let a = person("Ann", id: "uuid:a"), b = person("Bob", id: "uuid:b"), c = person("Cy", id: "uuid:c")
        let old = SurveyDocument(records: [a, b, c])
        // Edited in place and one added at the end: one entry each, in order.
        var edited = old
        edited.records[1].values["phone"] = .string("555")
        edited.records.append(person("Di", id: "uuid:d"))
        let entries = edited.journalEntries(since: old)
        XCTAssertEqual(entries, [.put(index: 1, record: edited.records[1]), .put(index: 3, record: edited.records[3])])
        var replayed = old
        replayed.replay(entries)
        XCTAssertEqual(replayed, edited)
        replayed.replay(entries)
        XCTAssertEqual(replayed, edited, "replaying what the file already holds changes nothing")
        // A delete and an undo putting it back in its place: by id.
        var deleted = edited
        deleted.records.remove(at: 0)
        var again = edited
        again.replay(deleted.journalEntries(since: edited))
        XCTAssertEqual(again, deleted)
        again.replay(edited.journalEntries(since: deleted))
        XCTAssertEqual(again, edited, "Ann back in first place")
    }

    /// Whatever the change (edits, adds, deletes, surveys put back, several at once), over a
    /// document of several chunks, its entries turn the version before into the one after.
    func testEntriesOfAnyChangeReplayIntoIt() throws {
        var random = SplitMix(seed: 11)
        var serial = 0
        func fresh() -> Record {
            serial += 1
            return person("P\(serial)", id: "uuid:\(serial)")
        }
        var document = SurveyDocument(records: (0..<3_000).map { _ in fresh() })
        for step in 0..<200 {
            var next = document
            for _ in 0..<(1 + random.next(below: 3)) {
                switch random.next(below: 5) {
                case 0: next.records.append(fresh())
                case 1 where !next.records.isEmpty: next.records.remove(at: random.next(below: next.records.count))
                case 2: next.records.insert(fresh(), at: random.next(below: next.records.count + 1))
                case 3 where !next.records.isEmpty:
                    next.records[random.next(below: next.records.count)].values["phone"] = .string("\(step)")
                default: break
                }
            }
            var replayed = document
            replayed.replay(next.journalEntries(since: document))
            XCTAssertEqual(replayed, next, "step \(step)")
            if replayed != next { return }
            document = next
        }
    }
}
