import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30: the key bar picks what matters in the mode. Inside a roster at 80 columns it
/// shows the member keys (they were cut while F2 and F3, the same everywhere, stayed); F1
/// and ^Q stay at every width.
final class RosterKeyBarTests: XCTestCase {
    func testTheRosterKeysShowAt80Columns() throws {
        let survey = Record(["instanceID": .string("uuid:aaaaaaaa-0000-4000-8000-000000000001"), "village": .string("K"),
                             "member": .array([.dictionary(["name": .string("Ana"), "age": .integer(3)])])])
        for width in [80, 100] {
            var s = try rosterState([survey], width: width, height: 24)
            s.showRecord(0)
            s.screen.moveFocus(to: .form)
            XCTAssertTrue(s.form.highlight(problemAt: AnswerPath([AnswerPath.Step(name: "member", index: 0)], "age"), in: s.formContext))
            XCTAssertEqual(s.inputMode, .rosterBrowsing)
            let bar = Screen.render(s).lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            for item in ["PgUp/PgDn Member", "^O Add member", "^D Del member", "F1 Help", "^Q Quit"] {
                XCTAssertTrue(bar.contains(item), "\(width) columns: \(item) missing from \(bar)")
            }
        }
        let narrow = KeyBar.fitting(KeyMap.barBindings(for: .rosterBrowsing), width: 20)
        XCTAssertTrue(narrow.contains { $0.keys.contains(.function(1)) } && narrow.contains { $0.keys.contains(.control("q")) })
    }
}
