import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Screens of the 30-row household form: scrolled mid-interview, with a question hidden by
/// skip logic (the phone number, after "no phone") and the picker open, at 80x24 and 40x12.
final class QuestionnaireScreenTests: XCTestCase {
    /// Keyed up to "Has a phone? No", on to the visit date; `picker` reopens the water sources.
    private func midInterview(width: Int, height: Int) throws -> AppState {
        var s = try householdState(width: width, height: height)
        s.press(.enter)
        s.type("Ana"); s.press(.enter)
        s.type("Lima"); s.press(.enter)
        s.type("34"); s.press(.enter)
        s.type("1"); s.type("1"); s.type("2"); s.type("2")
        s.type("Riverside"); s.press(.enter)
        s.type("5"); s.press(.enter)
        s.type("2"); s.press(.enter)
        s.type("2"); s.type("5"); s.press(.enter)
        s.type("Bucket"); s.press(.enter)
        s.type("1.5"); s.press(.enter)
        s.type("2")
        s.type("-1.28 36.82"); s.press(.enter)          // the location, typed
        XCTAssertEqual(s.editing?.fieldIndex, s.fieldIndex("visit_date"))
        return s
    }

    func testScrolledFormWithAHiddenQuestion80x24() throws {
        let s = try midInterview(width: 80, height: 24)
        XCTAssertFalse(s.screenText.contains("Phone number"), "hidden by skip logic")
        assertScreen(Screen.render(s), named: "form-household-scrolled-80x24")
    }

    func testPickerOverAScrolledForm80x24() throws {
        var s = try midInterview(width: 80, height: 24)
        s.press(.escape, .up, .up, .up, .up, .up, .enter)   // back up to the water sources
        XCTAssertEqual(s.picker?.title, "Drinking water sources")
        assertScreen(Screen.render(s), named: "form-household-picker-80x24")
    }

    func testScrolledFormAndPicker40x12() throws {
        var s = try midInterview(width: 40, height: 12)
        assertScreen(Screen.render(s), named: "form-household-scrolled-40x12")
        s.press(.escape, .up, .up, .up, .up, .up, .enter)
        XCTAssertEqual(s.picker?.title, "Drinking water sources")
        assertScreen(Screen.render(s), named: "form-household-picker-40x12")
    }

    func testTheFirstScreenAt120x40ShowsTheWholeRespondentGroup() throws {
        let s = try householdState(width: 120, height: 40)
        assertScreen(Screen.render(s), named: "form-household-new-120x40")
    }

    func testEverySizeRendersTheFormWithoutTrouble() throws {
        for (w, h) in [(24, 9), (30, 10), (40, 12), (60, 20), (79, 24), (80, 24), (120, 40), (200, 60)] {
            var s = try midInterview(width: w, height: h)
            let grid = Screen.render(s)
            XCTAssertEqual(grid.lines.count, h)
            s.press(.escape, .up, .up, .up, .up, .up, .enter)
            _ = Screen.render(s)
        }
    }
}
