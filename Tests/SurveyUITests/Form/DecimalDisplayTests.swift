import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
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
        XCTAssertEqual(s.shownForm.fieldText(row), "8")
        s.form.highlight(.field(row))
        s.form.keepHighlightInView(in: s.formContext)
        let line = try XCTUnwrap(s.screenText.split(separator: "\n").first { $0.contains("Distance to water (km)") })
        XCTAssertTrue(line.contains(" 8 ") && !line.contains("8.0"), String(line))
    }
}

/// Issue 30: an empty date, time, location or file question shows the format it takes,
/// dimmed, before a mistake; a calculation without a label takes no row, as in ODK.
final class FormatHintTests: XCTestCase {
    func testEmptyAnswersShowTheirFormatAndUnlabelledCalculationsNoRow() throws {
        let s = try formState(csv: """
        survey,,,,
        ,type,name,label,calculation
        ,date,visit,Visit,
        ,time,hour,Hour,
        ,geopoint,where,Where,
        ,image,photo,Photo,
        ,integer,trees,Trees,
        ,calculate,double,,${trees} * 2
        ,calculate,shown,Twice the trees,${trees} * 2
        """, documentName: "Hints", width: 100, height: 30)
        let screen = s.screenText
        for hint in ["YYYY-MM-DD", "HH:MM", "latitude longitude", "a file path"] {
            XCTAssertTrue(screen.contains(hint), "\(hint) missing:\n\(screen)")
        }
        let visit = try XCTUnwrap(s.outline.indices.first { s.outline.field($0).key == "visit" })
        XCTAssertEqual(s.shownForm.displayedAnswer(visit).placeholder, true, "dimmed, never stored")
        XCTAssertNil(s.draft["visit"])
        XCTAssertTrue(screen.contains("Twice the trees"))
        XCTAssertFalse(screen.contains("double"), "no row for the unlabelled calculation:\n\(screen)")
        let rows = FormRows.of(s)
        let double = try XCTUnwrap(s.outline.indices.first { s.outline.field($0).key == "double" })
        XCTAssertEqual(rows[double.index], .hidden)
    }
}
