import XCTest
@testable import SurveyUI

final class LayoutTests: XCTestCase {
    func testSplitAtEightyColumnsCollapsedBelow() {
        XCTAssertEqual(Layout(size: Size(width: 80, height: 24)).kind, .split)
        XCTAssertEqual(Layout(size: Size(width: 79, height: 24)).kind, .collapsed)
        XCTAssertEqual(Layout(size: Size(width: 100, height: 24), splitWidth: 101).kind, .collapsed)
        XCTAssertEqual(Layout(size: Size(width: 70, height: 24), splitWidth: 60).kind, .split)
        XCTAssertEqual(Layout(size: Size(width: 60, height: 24), splitWidth: 60).kind, .collapsed,
                       "a small --split-width never squeezes the form below 40 columns")
        XCTAssertEqual(Layout(size: Size(width: 30, height: 12), splitWidth: 10).kind, .collapsed)
    }

    func testListPaneIsAboutThirtyPercentClamped() {
        XCTAssertEqual(Layout(size: Size(width: 80, height: 24)).listPane?.width, 24)
        XCTAssertEqual(Layout(size: Size(width: 120, height: 40)).listPane?.width, 36)
        XCTAssertEqual(Layout(size: Size(width: 300, height: 40)).listPane?.width, 40)
    }

    func testPanesTileTheBodyWithoutOverlap() {
        for width in [80, 97, 120, 200] {
            let l = Layout(size: Size(width: width, height: 30))
            guard let list = l.listPane else { return XCTFail("split expected at \(width)") }
            XCTAssertEqual(list.maxX, l.form.x)
            XCTAssertEqual(l.form.maxX, width)
            XCTAssertEqual(l.titleBar.maxY, list.y)
            XCTAssertEqual(list.maxY, l.statusLine.y)
        }
    }

    func testTooSmallDownToNothing() {
        for (w, h) in [(23, 24), (80, 8), (10, 3), (1, 1), (0, 0)] {
            XCTAssertEqual(Layout(size: Size(width: w, height: h)).kind, .tooSmall, "\(w)x\(h)")
        }
        XCTAssertEqual(Layout(size: Layout.minimumSize).kind, .collapsed)
    }

    func testFormGeometryFitsEveryUsableHeight() {
        let labels = ["First name", "Last name", "Address", "Phone", "Age"]
        for height in 6...40 {
            let form = Rect(x: 0, y: 1, width: 40, height: height)
            let g = FormGeometry(form: form, labels: labels)
            XCTAssertLessThan(g.addButton.y, form.maxY, "buttons inside at height \(height)")
            XCTAssertEqual(Set(g.values.map(\.y)).count, 5, "one row per field at height \(height)")
            XCTAssertTrue(g.values.allSatisfy { $0.y < g.clearButton.y })
        }
    }
}
