import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `TextFolding` against Foundation's `folding(options:locale:)` (ICU-backed here: tests link
/// full Foundation), which search, sort and document names used before survey dropped it.
final class TextFoldingTests: XCTestCase {
    /// Every scalar of the first two planes, alone: the tables and the rule together.
    func testEveryScalarFoldsAsFoundationFolds() {
        var mismatches: [String] = []
        for value in 0...0x1FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            let cases: [(String, String, String)] = [
                ("case", TextFolding.caseFolded(text), text.folding(options: [.caseInsensitive], locale: nil)),
                ("case+diacritics", TextFolding.folded(text),
                 text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)),
                ("case+diacritics+width", TextFolding.folded(text, width: true),
                 text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)),
            ]
            // Case folding alone may differ in composition (Foundation decomposes `ǰ`), which
            // every caller composes or compares canonically; the full folds must match exactly.
            for (name, ours, foundation) in cases
            where name == "case" ? ours != foundation : !ours.unicodeScalars.elementsEqual(foundation.unicodeScalars) {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true)) \(name): \(ours.debugDescription) ≠ \(foundation.debugDescription)")
            }
        }
        XCTAssertEqual(mismatches.count, 0, mismatches.prefix(20).joined(separator: "\n"))
    }

    func testWordsFoldAsFoundationFoldsThem() {
        let words = ["Ångström", "Straße", "e\u{301}te\u{301}", "\u{301}accent first", "ÉCOLE", "Ｆｕｌｌｗｉｄｔｈ",
                     "ǅemal", "İstanbul", "ΣΊΣΥΦΟΣ", "한국어", "Zoë Ünal-Øvergaard", "ﬁnance", "naïve café"]
        for word in words {
            XCTAssertEqual(TextFolding.folded(word), word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), word)
            XCTAssertEqual(TextFolding.folded(word, width: true),
                           word.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil), word)
            XCTAssertEqual(TextFolding.composed(word), word.precomposedStringWithCanonicalMapping, word)
            XCTAssertEqual(TextFolding.composed(word).unicodeScalars.count, word.precomposedStringWithCanonicalMapping.unicodeScalars.count)
        }
    }

    func testCaselessNumericOrderAsFoundationCompares() {
        let names = ["Untitled 10", "untitled 2", "Untitled 2", "Untitled", "Farm 007", "farm 7", "Farm 8", "Ärger", "arger", "b", "A"]
        for a in names {
            for b in names {
                let foundation = a.compare(b, options: [.caseInsensitive, .numeric])
                let ours = a.compareIgnoringCaseNumerically(b)
                let expected: Bool? = foundation == .orderedSame ? nil : foundation == .orderedAscending
                XCTAssertEqual(ours, expected, "\(a) vs \(b)")
            }
        }
    }

    func testScalarSearchAndReplace() {
        XCTAssertEqual("a.tmp-1.tmp-2".lastRange(of: ".tmp-").map { "a.tmp-1.tmp-2"[$0.lowerBound...] }, ".tmp-2")
        XCTAssertNil("abc".lastRange(of: "x"))
        XCTAssertEqual("x\"\u{301}y".replacingEvery("\"", with: "\"\""), "x\"\"\u{301}y")
        XCTAssertEqual("it's".replacingEvery("'", with: "'\\''"), "it'\\''s")
        XCTAssertTrue("STRASSE".equalsIgnoringCase("straße"))
        XCTAssertEqual(String(printf: "%.1f KB (%d bytes)", 1.25, 1280), String(format: "%.1f KB (%d bytes)", 1.25, 1280))
        XCTAssertEqual(String(printf: "%04d%02X", 7, UInt8(0xAB)), String(format: "%04d%02X", 7, UInt8(0xAB)))
    }
}
