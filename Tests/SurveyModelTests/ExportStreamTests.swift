import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `survey list` and `export` write a document as they read it (`RecordBatchReader` and
/// `ExportStream`). The bytes must be exactly those of the whole-document path
/// (`csvText`, `jsonText`, `propertyListData`), whatever the batches, and the records those
/// `loadWithJournal` gives.
final class ExportStreamTests: TemporaryFolderTestCase {
    /// A document plistlib writes with every odd thing a survey may hold: every property-list
    /// type, nested containers, empty surveys, text with quotes, commas, CR LF, tabs, U+2028,
    /// accents, CJK and emoji, unknown keys (one not ASCII), ages that are text or reals,
    /// a few ids.
    static let oddDocument = #"""
        import datetime, plistlib, sys
        records = []
        for i in range(int(sys.argv[2])):
            r = {"firstName": f"Ana {i}", "lastName": "Lima"}
            if i % 7 == 0: r["address"] = 'Rua 1, "Porto"\r\nsecond line'
            if i % 11 == 0: r["phone"] = "555\t01 \u2028 x"
            if i % 5 == 0: r["age"] = i
            elif i % 5 == 1: r["age"] = "thirty"
            elif i % 5 == 2: r["age"] = 41.5
            if i % 13 == 0: r["tags"] = ["a", {"b": [1, 2.5, True]}, [], {}]
            if i % 17 == 0: r["when"] = datetime.datetime(2024, 3, 5, 9, 7, 0)
            if i % 19 == 0: r["blob"] = b"\x00\x01binary"
            if i % 23 == 0: r["flag"] = False
            if i % 29 == 0: r["zo\u00eb \u540d"] = "\u00fc & <b>"
            if i % 31 == 0: r["instanceID"] = f"uuid:{i:032x}"
            if i % 41 == 0: r["firstName"] = "\u00c9mile \u592a\u90ce \U0001F600"
            if i % 43 == 0: r["lastName"] = "del\x7f c1\x85\x9f \\ end"
            if i % 37 == 0: r = {}
            records.append(r)
        with open(sys.argv[1], "wb") as f:
            plistlib.dump(records, f, fmt=plistlib.FMT_XML, sort_keys=True)
        """#

    private func writeOddDocument(_ name: String, count: Int) throws {
        _ = try TestSupport.python(Self.oddDocument, [store.url(for: name).path, String(count)])
    }

    /// The stream's bytes, read and written in batches of `batch`.
    private func streamed(_ name: String, _ format: ExportStream.Format, questionnaire: Questionnaire = .standard,
                          firstBatch: Int, batch: Int) throws -> [UInt8] {
        let reader = try RecordBatchReader(store: store, name: name, firstBatch: firstBatch, batchSize: batch)
        var unknownKeys: [String] = []
        var batches: [[Record]] = []
        while let next = try reader.next() { batches.append(next) }
        if ExportStream.needsEverySurveyFirst(format, questionnaire: questionnaire) {
            unknownKeys = questionnaire.unknownRecordKeys(in: batches.flatMap { $0 })
        }
        var stream = ExportStream(format, questionnaire: questionnaire, unknownKeys: unknownKeys)
        var out: [UInt8] = []
        stream.start(into: &out)
        for next in batches { stream.append(next, into: &out) }
        stream.end(into: &out)
        return out
    }

    private func assertStreamIsTheWholePath(_ name: String, questionnaire: Questionnaire = .standard,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        let whole = try store.loadWithJournal(name).get()
        let expected: [(ExportStream.Format, [UInt8])] = [
            (.csv, Array(whole.csvText(questionnaire: questionnaire).utf8)),
            (.json, Array(whole.jsonText(questionnaire: questionnaire).utf8)),
            (.propertyList, Array(try whole.propertyListData())),
        ]
        for (first, batch) in [(1, 1), (2, 3), (1_000, 8_192)] {
            let reader = try RecordBatchReader(store: store, name: name, firstBatch: first, batchSize: batch)
            var records: [Record] = []
            while let next = try reader.next() {
                XCTAssertFalse(next.isEmpty, "no empty batch", file: file, line: line)
                records += next
            }
            XCTAssertEqual(records, Array(whole.records), "records, batches of \(batch)", file: file, line: line)
            XCTAssertEqual(reader.handedOver, whole.records.count, file: file, line: line)
            for (format, bytes) in expected {
                let got = try streamed(name, format, questionnaire: questionnaire, firstBatch: first, batch: batch)
                XCTAssertEqual(String(decoding: got, as: UTF8.self), String(decoding: bytes, as: UTF8.self),
                               "\(format), batches of \(batch)", file: file, line: line)
            }
        }
    }

    func testOddValuesStreamAsTheWholeDocumentIsWritten() throws {
        try writeOddDocument("Odd", count: 120)
        XCTAssertNotNil(try DocumentFileReader.scannedRecords(store.filePath(for: "Odd")).get(),
                        "plistlib's layout is the scanner's: the file is streamed, not read whole")
        try assertStreamIsTheWholePath("Odd")
        try assertStreamIsTheWholePath("Odd", questionnaire: FormRecordsTests.questionnaire())
    }

    func testFixturesEmptyAndOneSurveyDocuments() throws {
        for fixture in ["plistlib-unicode.plist", "seed-serialized.xml"] {
            try FileManager.default.copyItem(at: TestSupport.fixtureURL(fixture), to: store.url(for: "Fixture"))
            try assertStreamIsTheWholePath("Fixture")
            try FileManager.default.removeItem(at: store.url(for: "Fixture"))
        }
        try store.save(SurveyDocument(), as: "Empty")
        try assertStreamIsTheWholePath("Empty")
        try Data().write(to: store.url(for: "Zero"))
        try assertStreamIsTheWholePath("Zero")
        try store.save(SurveyDocument(records: [.sample()]), as: "One")
        try assertStreamIsTheWholePath("One")
    }

    /// Read whole, then handed over in batches: a binary property list, and a document with
    /// a journal beside it (its changes replayed, as `list` has always shown them).
    func testDocumentsTheScannerLeavesAloneStreamTheSame() throws {
        try writeOddDocument("Odd", count: 40)
        let binary = try PropertyListSerialization.data(
            fromPropertyList: try PropertyListSerialization.propertyList(from: Data(contentsOf: store.url(for: "Odd")), format: nil),
            format: .binary, options: 0)
        try binary.write(to: store.url(for: "Binary"))
        try assertStreamIsTheWholePath("Binary")
        let reader = try RecordBatchReader(store: store, name: "Binary", batchSize: 7)
        XCTAssertEqual(reader.knownCount, 40)
        XCTAssertEqual(try reader.next()?.count, 7)
    }

    /// The file damaged after its first surveys: those are handed over before the damage is
    /// read, and then the reading fails with `load`'s message. (The command line has then
    /// written the first rows: the document is read as it is written out.)
    func testTheFirstBatchComesBeforeTheRestIsRead() throws {
        try store.save(SurveyDocument(records: (0..<50).map { Record.sample(first: "P\($0)") }), as: "Torn")
        let url = store.url(for: "Torn")
        var bytes = try Data(contentsOf: url)
        bytes = bytes.prefix(bytes.count * 3 / 4) + Data("<dict><key>oops".utf8)
        try bytes.write(to: url)
        guard case .failure(let expected) = store.load("Torn") else { return XCTFail("the damage is found") }

        let reader = try RecordBatchReader(store: store, name: "Torn", firstBatch: 10, batchSize: 10)
        XCTAssertEqual(try reader.next()?.map { $0.text(forKey: "firstName") }, (0..<10).map { "P\($0)" })
        XCTAssertNil(reader.knownCount, "the end is not known yet")
        var handed = 10
        do {
            while let batch = try reader.next() { handed += batch.count }
            XCTFail("the damage stops the reading")
        } catch let error as DocumentError {
            XCTAssertEqual(error, expected)
        }
        XCTAssertLessThan(handed, 50)
    }

    /// The `list` table sizes its `#` column by the count, estimated from the first batch.
    func testTheCountIsEstimatedFromTheFirstBatch() throws {
        try store.save(SurveyDocument(records: (0..<2_000).map { Record.sample(first: "P\($0)") }), as: "Big")
        let reader = try RecordBatchReader(store: store, name: "Big", firstBatch: 100)
        XCTAssertNil(reader.knownCount)
        XCTAssertGreaterThanOrEqual(reader.estimatedCount, 1_900)
        XCTAssertLessThan(reader.estimatedCount, 2_300)
    }
}
