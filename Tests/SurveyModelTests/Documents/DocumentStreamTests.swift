import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A large document opened for its first screen, the rest read in the background: the
/// records handed over, in order, with their derived ids, must be exactly what a whole load
/// gives; a file that goes wrong after the first records ends as a whole load of it ends;
/// and the files that are not streamed are read whole, as before.
final class DocumentStreamTests: TemporaryFolderTestCase {
    /// 600 surveys, every 7th with an id of its own, the rest (the original app's) without.
    private func writeDocument(_ name: String = "Big", count: Int = 600) throws -> SurveyDocument {
        var records: [Record] = []
        for i in 0..<count {
            var r = Record.sample(first: "Ana \(i)", last: i % 3 == 0 ? "Lima" : "Zoë 山田", age: i % 5 == 0 ? nil : i)
            if i % 7 == 0 { r.values[Record.instanceIDKey] = .string("uuid:own-\(i)") }
            if i % 11 == 0 { r.values["tags"] = .array([.string("a"), .integer(i)]) }
            records.append(r)
        }
        let document = SurveyDocument(records: records)
        try store.save(document, as: name)
        return document
    }

    /// What opening the document whole gives: the file, then ids derived for those without.
    private func wholeLoad(_ name: String = "Big") throws -> SurveyDocument {
        var document = try store.load(name).get()
        document.identifyRecordsFoundWithoutIDs()
        return document
    }

    /// The first records and the rest, read to the end.
    /// With `parts`, the rest is split into that many parts of at least `partBytes`.
    private func stream(_ name: String = "Big", first: Int = 50, batch: Int = 64, parts: Int = 1, partBytes: Int = 1_000)
        throws -> (first: SurveyDocument, rest: [Record], end: DocumentStream.End?, partsTaken: Int) {
        guard case .streaming(let shown, let rest) = store.openStreaming(name, from: 0, firstRecords: first, batchSize: batch,
                                                                           partBytes: partBytes, maximumParts: parts) else {
            XCTFail("not streamed")
            throw CancellationError()
        }
        rest.waitUntilDone()
        let part = rest.take()
        return (shown, part.records, part.end, rest.partsTaken)
    }

    func testReadInPartsTheDocumentIsTheSameAsReadInOne() throws {
        _ = try writeDocument()
        let whole = try wholeLoad()
        for parts in [2, 3, 7] {
            for batch in [1, 64, 10_000] {
                let read = try stream(batch: batch, parts: parts)
                XCTAssertEqual(read.end, .complete)
                XCTAssertEqual(read.partsTaken, parts - 1, "\(parts) parts, batches of \(batch)")
                XCTAssertEqual(Array(read.first.records) + read.rest, Array(whole.records), "\(parts) parts, batches of \(batch)")
            }
        }
        XCTAssertEqual(try stream(parts: 4, partBytes: 1 << 30).partsTaken, 0, "a file smaller than two parts is read in one")
    }

    /// A layout where `<dict>` one tab in is a value inside a survey: every place a part would
    /// start is inside a survey, so no part lines up and the file is read in one.
    func testPartsThatDoNotLineUpWithTheSurveysBeforeAreReadAgain() throws {
        let record = "<dict>\n<key>firstName</key>\n<string>Ana</string>\n<key>nested</key>\n\t<dict>\n\t<key>a</key>\n\t<string>b</string>\n\t</dict>\n</dict>\n"
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
            + String(repeating: record, count: 400) + "</array>\n</plist>\n"
        try Data(text.utf8).write(to: store.url(for: "Nested"))
        let whole = try wholeLoad("Nested")
        XCTAssertEqual(whole.records.count, 400)
        let read = try stream("Nested", parts: 4)
        XCTAssertEqual(read.end, .complete)
        XCTAssertEqual(read.partsTaken, 0)
        XCTAssertEqual(Array(read.first.records) + read.rest, Array(whole.records))
    }

    func testTheStreamedDocumentIsTheWholeLoadIdsIncluded() throws {
        _ = try writeDocument()
        let whole = try wholeLoad()
        let read = try stream()
        XCTAssertEqual(read.first.records.count, 50, "only the first records before the first frame")
        XCTAssertEqual(Array(read.first.records), Array(whole.records.prefix(50)), "their ids derived as a whole load derives them")
        XCTAssertEqual(read.end, .complete)
        XCTAssertEqual(Array(read.first.records) + read.rest, Array(whole.records))
        XCTAssertEqual(Set((Array(read.first.records) + read.rest).compactMap(\.instanceID)).count, 600, "every survey has its own id")
    }

    func testProgressGrowsToAHundredPercent() throws {
        _ = try writeDocument()
        guard case .streaming(_, let rest) = store.openStreaming("Big", from: 0, firstRecords: 60) else {
            return XCTFail("not streamed")
        }
        XCTAssertEqual(rest.percentRead, 10, "60 of 600 similar surveys are a tenth of the file")
        rest.waitUntilDone()
        XCTAssertEqual(rest.take().percent, 100)
    }

    func testACorruptTailEndsAsAWholeLoadEndsAndTheFileIsUntouched() throws {
        _ = try writeDocument()
        let url = store.url(for: "Big")
        var data = try Data(contentsOf: url)
        data = data.prefix(data.count * 3 / 4) + Data("<dict><key>x</key><oops></dict>\n</array>\n</plist>\n".utf8)
        try data.write(to: url)
        guard case .failure(let whole) = store.load("Big") else { return XCTFail("the damaged file loads") }

        for parts in [1, 3] {
            let read = try stream(parts: parts)
            XCTAssertEqual(read.first.records.count, 50, "the first screen is read before the damage is met")
            XCTAssertEqual(read.end, .failed(whole.message), "the same message as a whole load gives, \(parts) parts")
        }
        XCTAssertEqual(try Data(contentsOf: url), data, "nothing is written")
    }

    func testALayoutTheScannerLeavesToFoundationLaterInTheFileReplacesWhatWasShown() throws {
        _ = try writeDocument()
        let url = store.url(for: "Big")
        var text = try String(contentsOf: url, encoding: .utf8)
        // A comment between two surveys near the end: valid XML, read by Foundation.
        let last = try XCTUnwrap(text.range(of: "\t<dict>", options: .backwards))
        text.insert(contentsOf: "\t<!-- checked -->\n", at: last.lowerBound)
        try text.write(to: url, atomically: true, encoding: .utf8)
        let whole = try wholeLoad()
        XCTAssertEqual(whole.records.count, 600)

        for parts in [1, 3] {
            let read = try stream(parts: parts)
            XCTAssertEqual(read.end, .replaced(whole), "the whole file as Foundation reads it, ids derived, \(parts) parts")
        }
    }

    func testSmallForeignAndJournaledFilesAreReadWhole() throws {
        _ = try writeDocument()
        let size = try XCTUnwrap(store.fingerprint(of: "Big")).size
        guard case .whole(.success(let small)) = store.openStreaming("Big", from: Int(size) + 1, firstRecords: 50) else {
            return XCTFail("a file under the threshold is streamed")
        }
        XCTAssertEqual(small, try store.load("Big").get())

        guard case .whole(.success(let few)) = store.openStreaming("Big", from: 0, firstRecords: 601) else {
            return XCTFail("a document with fewer surveys than the first screen is streamed")
        }
        XCTAssertEqual(few.records.count, 600)

        // A binary property list is left to Foundation, whole.
        let binary = try PropertyListSerialization.data(fromPropertyList: [["firstName": "Ana"]], format: .binary, options: 0)
        try binary.write(to: store.url(for: "Binary"))
        guard case .whole(.success(let foreign)) = store.openStreaming("Binary", from: 0, firstRecords: 1) else {
            return XCTFail("a binary plist is streamed")
        }
        XCTAssertEqual(foreign.records, [Record(["firstName": .string("Ana")])])

        // A journal that holds changes: they are replayed on the whole document.
        let journal = try XCTUnwrap(try DocumentJournal.open(at: store.journalURL(for: "Big"), in: .live))
        let first = try store.load("Big").get().records[0]
        try journal.append([.put(index: 0, record: first)])
        guard case .whole = store.openStreaming("Big", from: 0, firstRecords: 50) else {
            return XCTFail("a document with a journal is streamed")
        }
        // Emptied (a live copy of survey keeps it open once its file caught up): no change
        // waits, so the file streams as usual.
        XCTAssertTrue(journal.clear())
        guard case .streaming = store.openStreaming("Big", from: 0, firstRecords: 50) else {
            return XCTFail("an emptied journal made the document be read whole")
        }
    }

    /// A part handed over at once has its ids derived on every processor: the same ids, at
    /// the same places, as one processor gives.
    func testIdsOfALargeRunAreTheSameOnManyProcessorsAsOnOne() {
        let records = (0..<20_000).map { i in
            i % 9 == 0 ? Record([Record.instanceIDKey: .string("own-\(i)")]) : Record(["firstName": .string("Ana \(i % 50)")])
        }
        var one = records, many = records
        Record.identifyFoundWithoutIDs(&one, from: 7, processors: 1)
        Record.identifyFoundWithoutIDs(&many, from: 7, processors: 3)
        XCTAssertEqual(one, many)
        XCTAssertEqual(many[9].instanceID, "own-9")
        XCTAssertEqual(many[10].instanceID, Record.derivedInstanceID(position: 17, of: records[10]))
        XCTAssertEqual(Set(many.compactMap(\.instanceID)).count, 20_000)
    }

    func testCancellingStopsTheReadingWithoutAnEnd() throws {
        _ = try writeDocument()
        guard case .streaming(_, let rest) = store.openStreaming("Big", from: 0, firstRecords: 50, batchSize: 1) else {
            return XCTFail("not streamed")
        }
        rest.cancel()
        rest.waitUntilDone()
        XCTAssertNil(rest.take().end)
    }
}
