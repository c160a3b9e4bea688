import XCTest
import SurveyModel
@testable import SurveyUI

/// Titles kept between frames must never be stale: a changed survey, another survey at the
/// same row, or another width makes the title again.
final class ListTitlesTests: XCTestCase {
    private func person(_ first: String, _ last: String) -> Record {
        Record(["firstName": .string(first), "lastName": .string(last)])
    }

    func testAKeptTitleIsReusedOnlyForTheSameSurveyAtTheSameWidth() {
        let titles = ListTitles()
        var made = 0
        let ana = person("Ana", "Lima")
        func title(_ record: Record, _ limit: Int) -> String {
            titles.title(of: 0, record: record, limit: limit) { made += 1; return record.listTitle(limit: limit) }
        }
        XCTAssertEqual(title(ana, 30), "Lima, Ana")
        XCTAssertEqual(title(ana, 30), "Lima, Ana")
        XCTAssertEqual(made, 1, "the same survey at the same width: kept")
        var edited = ana
        edited.values["lastName"] = .string("Lopes")
        XCTAssertEqual(title(edited, 30), "Lopes, Ana")
        XCTAssertEqual(title(person("Ana", "Lima"), 30), "Lima, Ana", "equal answers in other storage: made again")
        XCTAssertEqual(title(edited, 3), "Lop, Ana")
        XCTAssertEqual(made, 4)
    }

    func testTheListShowsAnEditedNameAtOnce() {
        var state = AppState(documentName: "Field",
                             loaded: .success(SurveyDocument(records: [person("Ana", "Lima"), person("Bo", "Ng")])),
                             draft: Record(), size: Size(width: 80, height: 24), environment: .forTests)
        XCTAssertTrue(Screen.render(state).lines.joined(separator: "\n").contains("Lima, Ana"))
        state.document?.records[0].values["lastName"] = .string("Lopes")
        let screen = Screen.render(state).lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("Lopes, Ana"))
        XCTAssertFalse(screen.contains("Lima, Ana"))
    }
}
