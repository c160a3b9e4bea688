import XCTest
import SurveyValues
@testable import SurveyUI

/// The interview tree's own reducer (issue 29: a child reducer, as the picker's): each key
/// decided from the tree alone, and what it asks of the form as a value, with no `AppState`.
final class InterviewTreeReducerTests: XCTestCase {
    private func question(_ name: String, problem: String? = nil) -> InterviewTree.Row {
        InterviewTree.Row(kind: .question, depth: 0, label: name.capitalized, answer: "—", name: name, problem: problem, steps: [])
    }

    func testKeysNarrowAndMoveAndEnterAsksToGoToTheRow() {
        var tree = InterviewTree(rows: [question("name"), question("age", problem: "Required"), question("village")])
        XCTAssertEqual(tree.reduce(.move(1)), .stay)
        XCTAssertEqual(tree.reduce(.go), .go(question("age", problem: "Required")))
        XCTAssertEqual(tree.reduce(.type("v")), .stay)
        XCTAssertEqual(tree.highlightedRow?.name, "village")
        XCTAssertEqual(tree.reduce(.backspace), .stay)
        XCTAssertEqual(tree.reduce(.toggleProblems), .stay, "a problem is listed")
        XCTAssertEqual(tree.visible.map { tree[$0].name }, ["age"])
        XCTAssertEqual(tree.reduce(.type("z")), .stay)
        XCTAssertEqual(tree.reduce(.go), .stay, "nothing highlighted: nowhere to go")
    }

    func testProblemsAloneWithNoneSaysSo() {
        var tree = InterviewTree(rows: [question("name"), question("age")])
        XCTAssertEqual(tree.reduce(.toggleProblems), .tell("No problem: every answer here passes the form's rules"))
        XCTAssertEqual(tree.reduce(.toggleProblems), .stay, "everything again")
    }
}
