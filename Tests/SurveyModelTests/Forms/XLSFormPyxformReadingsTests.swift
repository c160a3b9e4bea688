import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Readings pyxform gives that survey refused before its test suite was run against ours:
/// each form here is converted by pyxform and now opens, meaning what pyxform means.
final class XLSFormPyxformReadingsTests: XCTestCase {
    private func read(_ rows: String, choices: String = "") throws -> (form: XLSForm?, errors: [String], warnings: [String]) {
        let csv = "survey,,,,,\n,type,name,label,default,calculation\n" + rows
            + (choices.isEmpty ? "" : "choices,,,,,\n,list_name,name,label,,\n" + choices)
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        return (result.form, result.errors.map(\.description), result.warnings.map(\.description))
    }

    func testSelectAllThatApplyIsASelectMultiple() throws {
        let result = try read(",select all that apply from yn,q,Q,,\n,select all that apply yn,r,R,,\n", choices: ",yn,yes,Yes,,\n,yn,no,No,,\n")
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.form?.questions.map(\.kind), [.selectMultiple(list: "yn", orOther: false), .selectMultiple(list: "yn", orOther: false)])
    }

    func testANotesMissingNameIsGeneratedAsPyxformDoes() throws {
        let result = try read(",note,,Welcome,,\n")
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.form?.questions.map(\.name), ["generated_note_name_3"])
    }

    func testAnOsmQuestionAndChoicesFromARepeatAreNotCollectedButOpen() throws {
        let result = try read(",osm,building,Building,,\n,begin repeat,member,Member,,\n,text,name,Name,,\n,end repeat,,,,\n"
                                  + ",select_one ${name},head,Head of household,,\n")
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.form?.questions.map(\.kind), [.notCollected("osm"), .beginRepeat, .notCollected("select_one ${name}")])
        // osm and choices from a roster's answers; the repeat itself is keyed, so no warning.
        XCTAssertEqual(result.warnings.count, 2, "\(result.warnings)")
        XCTAssertFalse(result.warnings.contains { $0.contains("roster cannot be keyed") })
        XCTAssertEqual(try read(",select_one ${nobody},head,Head,,\n").errors, ["survey row 3, type: unknown field ${nobody}"])
    }

    func testArithmeticInADefaultIsComputedButADateStaysADate() throws {
        let result = try read(",integer,two,Two,1 + 1,\n,date,day,Day,2026-01-15,\n,text,code,Code,A-B,\n,calculate,d,,,${instanceID}\n")
        XCTAssertEqual(result.errors, [])
        let q = Questionnaire(form: try XCTUnwrap(result.form))
        XCTAssertEqual(q.defaultText(0, clock: .wall), "2")
        XCTAssertEqual(q.defaultText(1, clock: .wall), "2026-01-15")
        XCTAssertEqual(q.defaultText(2, clock: .wall), "A-B")
    }
}
