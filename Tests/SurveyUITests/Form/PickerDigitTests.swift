import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
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
        XCTAssertEqual(s.editing?.entry, 1, "and the form goes on")
    }
}

/// A `select_one_from_file` list of 5,000 villages (issue 18): the picker opens on all of
/// them and narrows as each letter is typed; the choice is stored by its name.
final class LongListPickerTests: XCTestCase {
    func testTheFiveThousandVillagePickerNarrowsAsYouType() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("picker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var csv = "name,label\n"
        for i in 0..<5_000 { csv += "v\(i),Village \(i)\n" }
        csv += "kib,Kibera\n"
        try Data(csv.utf8).write(to: folder.appendingPathComponent("villages.csv"))
        let read = XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n,select_one_from_file villages.csv,village,Village\n,text,notes,Notes\n"))
        let form = try XCTUnwrap(read.form, "\(read.errors)").loadingMedia(from: folder).form
        var s = AppState(documentName: "Villages", loaded: .success(SurveyDocument(records: [])),
                         size: Size(width: 100, height: 30), questionnaire: Questionnaire(form: form), environment: .forTests)
        s.press(.enter)
        XCTAssertEqual(s.picker?.visible.count, 5_001)
        s.type("k")
        XCTAssertEqual(s.picker?.visible.count, 1, "only Kibera has a k")
        s.press(.backspace); s.type("village 4999")     // (digits alone choose by number)
        XCTAssertEqual(s.picker?.visible.count, 1, "narrowed by label or name")
        XCTAssertEqual(s.picker?.highlightedName, "v4999")
        s.press(.enter)
        XCTAssertEqual(s.draft["village"], .string("v4999"))
    }
}

/// Lists whose labels (or names) are numbers, as paper forms' codes are (issue 27, item 3):
/// the digits typed are the code, never a position, and a code no choice has is refused.
final class PickerCodeTests: XCTestCase {
    private func state(_ choices: [(name: String, label: String)], multiple: Bool = false) throws -> AppState {
        let type = multiple ? "select_multiple" : "select_one"
        let csv = "survey,,,\n,type,name,label\n,\(type) list,q,Q\n,text,after,After\nchoices,,,\n,list_name,name,label\n"
            + choices.map { ",list,\($0.name),\($0.label)\n" }.joined()
        let read = XLSForm.read(try XLSFormSheets.csv(csv))
        let form = try XCTUnwrap(read.form, "\(read.errors)")
        var s = AppState(documentName: "Codes", loaded: .success(SurveyDocument(records: [])),
                         size: Size(width: 100, height: 30), questionnaire: Questionnaire(form: form), environment: .forTests)
        s.press(.control("n"))
        XCTAssertNotNil(s.picker)
        return s
    }

    private let years = (0..<7).map { (name: "\($0 + 1)", label: "\(2022 + $0)") }

    func testTypingAYearLabelChoosesThatYearNotAPosition() throws {
        var s = try state(years)
        XCTAssertEqual(s.picker?.codes, years.map(\.label), "the labels are the codes")
        s.type("202")
        XCTAssertNotNil(s.picker, "2, 20, 202 start every year: it waits")
        XCTAssertEqual(s.statusText, "Code 202…: another digit, or Enter")
        XCTAssertEqual(s.type("2"), [.saveDraft])
        XCTAssertEqual(s.draft["q"], .string("1"), "2022 is stored by its name, 1")
        XCTAssertEqual(s.editing?.entry, 1, "and the form goes on")
    }

    func testACodeNoChoiceHasIsRefusedNotTakenForAnother() throws {
        var s = try state(years)
        XCTAssertEqual(s.type("2029"), [])
        XCTAssertEqual(s.statusText, "No choice has the code 2029: nothing was chosen")
        XCTAssertNil(s.draft["q"])
        XCTAssertNotNil(s.picker, "still asking")
        s.type("3")
        XCTAssertEqual(s.statusText, "No choice has the code 3: nothing was chosen", "no position 3 either")
        s.type("2025")
        XCTAssertEqual(s.draft["q"], .string("4"))
    }

    func testNamesThatAreCodesAreTypedByName() throws {
        let list = [("1", "Yes"), ("2", "No"), ("9", "Don't know"), ("10", "Refused")]
        var s = try state(list)
        XCTAssertEqual(s.picker?.codes, ["1", "2", "9", "10"])
        s.type("9")
        XCTAssertEqual(s.draft["q"], .string("9"), "9 is Don't know, not a missing ninth choice")
        s = try state(list)
        s.type("1")
        XCTAssertEqual(s.statusText, "Code 1…: another digit, or Enter", "1 could be 10")
        s.press(.enter)
        XCTAssertEqual(s.draft["q"], .string("1"))
        XCTAssertTrue(s.screenText.contains("After"))
    }

    func testTheCodesAreWhatThePickerShows() throws {
        var s = try state([("1", "Yes"), ("2", "No"), ("9", "Don't know")])
        XCTAssertTrue(s.screenText.contains(" 9 Don't know"), s.screenText)
        s = try state(years)
        XCTAssertTrue(s.screenText.contains("Type the code"), s.screenText)
        XCTAssertFalse(s.screenText.contains("1 2022"), "a label that is its code is not numbered again")
    }

    func testTextLabelsStillChooseByPosition() throws {
        var s = try state([("a", "Apple"), ("b", "Banana")])
        XCTAssertNil(s.picker?.codes)
        s.type("2")
        XCTAssertEqual(s.draft["q"], .string("b"))
    }
}
