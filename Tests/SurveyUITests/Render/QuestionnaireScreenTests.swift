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
        XCTAssertEqual(s.editing?.entry, s.entry("visit_date"))
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

    /// The picker never covers the question it answers, nor its label (issue 30): under the
    /// value, shorter and scrolling when the list does not fit there, beside it in a wide
    /// terminal, above it else. Every choice question of the household form, at every size
    /// from 40x12 up, the question scrolled to the top, the middle and the bottom of the pane.
    func testThePickerNeverCoversTheQuestionItAnswers() throws {
        for (w, h) in [(40, 12), (60, 20), (80, 24), (120, 40), (200, 30)] {
            let fields = try householdState(width: w, height: h).questionnaire.fields
            let choices = fields.indices.filter { if case .choice = fields[$0].kind { true } else { false } }
            XCTAssertGreaterThan(choices.count, 3)
            for index in choices {
                for fromBelow in [false, true] {
                    guard let s = try pickerOpen(on: EntryNumber(index),  // a flat form: entries are its fields
                                            width: w, height: h, fromBelow: fromBelow), let picker = s.picker else { continue }
                    let box = ChoicePickerView.geometry(picker, state: s).box
                    for part in [s.formGeometry.values[index], s.formGeometry.labels[index]] where !part.isEmpty {
                        XCTAssertTrue(box.intersection(part).isEmpty, "\(w)x\(h) \(fields[index].key): \(box) over \(part)")
                    }
                    XCTAssertGreaterThanOrEqual(box.height, min(picker.names.count + 3, ChoicePickerView.fewestRows), "\(w)x\(h)")
                }
            }
        }
    }

    /// A New form with the picker open on question `index` (nil when a new survey does not
    /// show it): reached from above, or (`fromBelow`) past it and back, so the question is
    /// near the top of the pane instead of its bottom.
    private func pickerOpen(on index: EntryNumber, width: Int, height: Int, fromBelow: Bool) throws -> AppState? {
        var s = try householdState(width: width, height: height)
        while s.formItem != .field(index) {
            guard s.formItem != .add else { return nil }
            s.press(.down)
        }
        if fromBelow {
            var past = 0
            while past < 8, s.formItem != .add { s.press(.down); past += 1 }
            while s.formItem != .field(index) { s.press(.up) }
        }
        s.press(.enter)
        return s
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
