import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The whitespace sets and the trimming and splitting done with them, against Foundation's
/// `CharacterSet` versions they replace.
final class WhitespaceTests: XCTestCase {
    func testSetsMatchFoundationsForEveryScalar() {
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(scalar.isHorizontalWhitespace, CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
            XCTAssertEqual(scalar.isLineBreak, CharacterSet.newlines.contains(scalar), "U+\(String(value, radix: 16))")
            XCTAssertEqual(scalar.isHorizontalWhitespace || scalar.isLineBreak,
                           CharacterSet.whitespacesAndNewlines.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }

    func testTrimmingAndSplittingMatchFoundation() {
        let texts = ["", " ", "  a b  ", "\t\u{3000}x\u{A0}", "\n a \r\n", " \u{301}x ", "a\r\nb\rc\u{2028}d\u{85}", "\n\n",
                     "| a | b |", "\u{2029}"]
        for text in texts {
            XCTAssertEqual(text.trimmingWhitespace(), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
            XCTAssertEqual(text.trimmingWhitespaceAndNewlines(), text.trimmingCharacters(in: .whitespacesAndNewlines), text.debugDescription)
            XCTAssertEqual(text.linesSeparatedByEachBreak(), text.components(separatedBy: .newlines), text.debugDescription)
            XCTAssertEqual(text.split(separator: "|", omittingEmptySubsequences: false).map(String.init),
                           text.components(separatedBy: "|"), text.debugDescription)
        }
    }

    func testPathComponentsMatchNSString() {
        // Not "a": NSString's deletingLastPathComponent crashes on it (Swift 6.3.1); ours gives "".
        XCTAssertEqual("a".pathRemovingLastComponent, "")
        for path in ["/a/b", "/a/b/", "/a", "/", "", "a/b", "//a//b//", "/a/b.plist"] {
            XCTAssertEqual(path.pathLastComponent, (path as NSString).lastPathComponent, path)
            XCTAssertEqual(path.pathRemovingLastComponent, (path as NSString).deletingLastPathComponent, path)
            XCTAssertEqual(path.pathAppending("x.plist"), (path as NSString).appendingPathComponent("x.plist"), path)
        }
    }
}
