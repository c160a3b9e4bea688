import Foundation
import XCTest
@testable import SurveyValues

/// What a push sends as the reason of an edit (`ChangeReasons`): the reasons kept pending with
/// the history's new ones, each once and in order, cleaned and cut as the server checks them.
final class ChangeReasonsTests: XCTestCase {
    private func entry(_ survey: String, _ seconds: Double, _ reason: String?) -> EditHistoryEntry {
        EditHistoryEntry(survey: survey, at: Date(timeIntervalSince1970: seconds), by: "ana", changes: [], reason: reason)
    }

    func testReasonsAddedToThosePendingEachOnceInOrder() {
        let entries = [entry("a", 20, "misread the paper"), entry("b", 21, nil),
                       entry("a", 22, "misread the paper"), entry("a", 23, " brought back revision 2 "), entry("c", 24, "  ")]
        XCTAssertEqual(ChangeReasons.adding(entries, to: [:]), ["a": "misread the paper; brought back revision 2"])
        XCTAssertEqual(ChangeReasons.adding(entries, to: ["a": "refused as stale", "d": "kept"]),
                       ["a": "refused as stale; misread the paper; brought back revision 2", "d": "kept"])
        XCTAssertEqual(ChangeReasons.adding(entries.prefix(1), to: ["a": "misread the paper"]), ["a": "misread the paper"])
    }

    /// Control characters become spaces; the cut counts code points as PostgreSQL's
    /// `char_length` does, so an emoji with a skin tone never takes a reason past the limit.
    func testCleanedAndCutAsTheServerChecks() {
        XCTAssertEqual(ChangeReasons.cleaned("a\u{0}b\u{7}c\td\ne\u{7F}"), "a b c\td\ne")
        let long = String(repeating: "👍🏽", count: 600)
        let cut = ChangeReasons.cut(long)
        XCTAssertEqual(cut.unicodeScalars.count, ChangeReasons.maximumLength)
        XCTAssertTrue(cut.hasSuffix("…"))
        XCTAssertEqual(ChangeReasons.cut("short"), "short")
    }
}
