import Foundation
import XCTest
import SurveyModel
@testable import SurveyUI

/// Digits in a picker of ten or more choices: a digit that could start a longer number waits,
/// and Enter completes it, choosing (select_one) or ticking (select_multiple) that choice.
final class PickerDigitTests: XCTestCase {
    private func twelveChoiceState(multiple: Bool) throws -> AppState {
        let type = multiple ? "select_multiple" : "select_one"
        let csv = "survey,,,\n,type,name,label\n,\(type) twelve,q,Q\n,text,after,After\nchoices,,,\n,list_name,name,label\n"
            + (1...12).map { ",twelve,c\($0),Choice \($0)\n" }.joined()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("twelve-\(UUID().uuidString).csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let form = try XCTUnwrap(XLSForm.read(try XLSFormSheets.read(fileAt: file.path)).form)
        var s = AppState(documentName: "Twelve", loaded: .success(SurveyDocument(records: [])),
                         size: Size(width: 100, height: 30), questionnaire: Questionnaire(form: form), environment: .forTests)
        s.press(.control("n"))
        XCTAssertNotNil(s.picker, "the first question's picker is open")
        return s
    }

    func testEnterTicksThePendingDigitOnAMultipleChoice() throws {
        var s = try twelveChoiceState(multiple: true)
        s.type("3")                                   // no choice 30 or more: ticked at once
        s.type("1")                                   // could be 10, 11 or 12: waits
        XCTAssertEqual(s.statusText, "Choice 1…: another digit, or Enter")
        XCTAssertEqual(s.press(.enter), [.saveDraft])
        XCTAssertEqual(s.draft["q"], .string("c1 c3"), "Enter completes the 1: both are ticked")
    }

    func testEnterChoosesThePendingDigitOnASingleChoice() throws {
        var s = try twelveChoiceState(multiple: false)
        s.type("1")
        XCTAssertEqual(s.press(.enter), [.saveDraft])
        XCTAssertEqual(s.draft["q"], .string("c1"))
        XCTAssertEqual(s.editing?.fieldIndex, 1, "and the form goes on")
    }
}
