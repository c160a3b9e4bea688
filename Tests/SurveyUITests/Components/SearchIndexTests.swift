import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// The `/` index folds every survey's text from its packed bytes, on every processor for a
/// large list. It must hold exactly what folding each answer as a `String` gives, whichever
/// way it was built.
final class SearchIndexTests: XCTestCase {
    private let samples = ["Zoë", "ÉCOLE", "Ærøskøbing", "山田 太郎", "Ｆｕｌｌｗｉｄｔｈ", "🏙️ city", "e\u{301}", "İstanbul",
                           "Straße", "Ωμέγα", "Привет", "مرحبا", "ภาษาไทย", "", " spaced ", "a\tb\nc", "uuid:11111111-2222-3333-4444-555555555555"]

    func testFoldingBytesIsFoldingTheString() {
        var folding = SearchFolding()
        for text in samples {
            var viaBytes: [UInt8] = []
            var copy = text
            copy.withUTF8 { folding.fold(utf8: $0, into: &viaBytes) }
            var fresh = SearchFolding()
            XCTAssertEqual(viaBytes, fresh.fold(text), text)
        }
    }

    func testAnIndexBuiltInPartsIsTheIndexBuiltInOne() {
        let records = RecordList((0..<25_000).map { i in
            Record(["firstName": .string(samples[i % samples.count]), "lastName": .string("Name \(i)"),
                    "age": .integer(i % 97), "notes": .string(samples[(i * 7) % samples.count]),
                    Record.instanceIDKey: .string("uuid:0b6ba9bd-fd64-892c-8aee-\(String(format: "%012x", i))")])
        })
        let one = SearchIndex(records: records, processors: 1)
        let parts = SearchIndex(records: records, processors: 3)
        XCTAssertEqual(one.texts, parts.texts)
        var folding = SearchFolding()
        XCTAssertTrue(SearchIndex.contains(parts.texts[2], folding.fold("ÆRØSKØBING")), "a folded query finds a folded answer")
        XCTAssertFalse(parts.texts.contains { SearchIndex.contains($0, Array("0b6ba9bd".utf8)) }, "ids are not searched")
        XCTAssertTrue(SearchIndex.contains(parts.texts[16], Array("uuid:11111111".utf8)), "an id-like answer is")
    }

    /// A search over many candidates runs in parts on every processor: it finds exactly the
    /// surveys, in order, that searching them one by one finds, kept ones included.
    func testASearchInPartsFindsWhatOneByOneFinds() {
        let records = RecordList((0..<60_000).map { i in
            Record(["firstName": .string(samples[i % samples.count]), "lastName": .string("Name \(i)"),
                    "age": .integer(i % 97)])
        })
        let index = SearchIndex(records: records, processors: 2)
        let candidates = Array(stride(from: 0, to: records.count, by: 1))
        for query in [["zoe"], ["name", "7"], ["ωμεγα", "12"], ["nothing here"], ["e"]] {
            let words = index.foldQuery(query)
            let oneByOne = candidates.filter { index.matches($0, words: words) }
            XCTAssertEqual(index.matching(candidates, words: words, keep: [], processors: 3), oneByOne, "\(query)")
            XCTAssertEqual(index.matching(candidates, words: words, keep: [], processors: 1), oneByOne, "\(query)")
            let kept: Set<Int> = [5, 59_999]
            XCTAssertEqual(index.matching(candidates, words: words, keep: kept, processors: 3),
                           candidates.filter { kept.contains($0) || index.matches($0, words: words) }, "\(query) with kept surveys")
        }
    }

    /// Edited, added and deleted surveys are searched by their new text; the rest keep theirs.
    func testAnIndexUpdatedForChangesSearchesTheNewTexts() {
        var list = (0..<30_000).map { i in Record(["firstName": .string("Person \(i)")]) }
        let index = SearchIndex(records: RecordList(list), processors: 2)
        list[10] = Record(["firstName": .string("Zoë Edited")])
        list.insert(Record(["firstName": .string("Zoë Added")]), at: 20)
        list.remove(at: 100)
        let updated = index.updated(for: RecordList(list))
        XCTAssertEqual(updated.texts, SearchIndex(records: RecordList(list), processors: 1).texts)
        let words = updated.foldQuery(["zoe"])
        XCTAssertEqual(updated.matching(Array(list.indices), words: words, keep: []), [10, 20])
    }
}
