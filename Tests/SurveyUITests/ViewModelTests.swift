import XCTest
@testable import SurveyUI

/// Views take what they draw: each is drawn here from hand-made data, no `AppState`.
final class ViewModelTests: XCTestCase {
    func testDocumentInfoDrawsOnlyTheFactsItIsGiven() {
        var grid = CellGrid(size: Size(width: 30, height: 5))
        DocumentInfoView(facts: [("Name", "a"), ("Not in this form version", "x: 1")])
            .draw(into: &grid, in: grid.bounds)
        XCTAssertEqual(grid.lines, [
            "  Document info               ",
            "                              ",
            "  Name         a              ",
            "  Not in this form version    ",
            "               x: 1           ",
        ])
    }
}
