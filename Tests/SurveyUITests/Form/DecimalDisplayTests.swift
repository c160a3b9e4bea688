import XCTest
import SurveyModel
@testable import SurveyUI

/// Issue 30: a decimal keyed `8` shows `8`, as ODK shows it, not `8.0`; a fraction shows its
/// digits and never an exponent.
final class DecimalDisplayTests: XCTestCase {
    func testADecimalShowsAsKeyed() throws {
        let distance = FieldSpec(key: "distance", label: "Distance", kind: .decimal, info: "")
        XCTAssertEqual(distance.screenText(.real(8)), "8")
        XCTAssertEqual(distance.screenText(.real(8.25)), "8.25")
        XCTAssertEqual(distance.screenText(.real(0.0000001)), "0.0000001")
        XCTAssertEqual(distance.screenText(.real(-3)), "-3")
        XCTAssertEqual(distance.displayText(.real(8)), "8.0", "exports keep JavaRosa's text, which ODK's tools read")

        var s = try householdState([Record(["instanceID": .string("uuid:cccccccc-0000-4000-8000-000000000003"),
                                            "fname": .string("Ana"), "consent": .string("yes"), "distance": .real(8)])])
        s.showRecord(0)
        let row = try XCTUnwrap(s.outline.indices.first { s.outline.field($0).key == "distance" })
        XCTAssertEqual(s.fieldText(row), "8")
        s.form.highlight(.field(row))
        s.keepFormHighlightInView()
        let line = try XCTUnwrap(s.screenText.split(separator: "\n").first { $0.contains("Distance to water (km)") })
        XCTAssertTrue(line.contains(" 8 ") && !line.contains("8.0"), String(line))
    }
}
