import XCTest
import SurveyModel
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
}
