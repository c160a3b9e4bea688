import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// `${last-saved#village}` (ODK Collect's "the answer of the last survey saved"): the New
/// form offers the last survey's village as its default, and after an Add, the one just
/// added. A form that does not read it never builds the last survey's answers.
final class LastSavedTests: XCTestCase {
    private let form = """
    survey,,,,
    ,type,name,label,default
    ,text,village,Village,${last-saved#village}
    ,text,head,Head of household,
    """

    private func state(_ records: [Record], csv: String) throws -> AppState {
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        let form = try XCTUnwrap(result.form, "\(result.errors)")
        var s = AppState(documentName: "Villages", loaded: .success(SurveyDocument(records: records)),
                         size: Size(width: 100, height: 30), questionnaire: Questionnaire(form: form), environment: .forTests)
        s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800))
        return s
    }

    func testTheNewFormOffersTheLastSurveysAnswerAndFollowsAnAdd() throws {
        var s = try state([Record(["village": .string("Kibera"), "head": .string("Ana")])], csv: form)
        XCTAssertTrue(s.questionnaire.readsLastSaved)
        s.press(.control("n"))                            // the New form
        let village = try XCTUnwrap(s.outline.indices.first { s.outline.field($0).key == "village" })
        XCTAssertEqual(s.shownForm.displayedAnswer(village).text, "Kibera")
        XCTAssertTrue(s.shownForm.displayedAnswer(village).placeholder, "offered, not yet an answer")
        // A new survey in another village (^N is already editing the village): the next
        // New form offers that one.
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "village")
        XCTAssertEqual(s.editing?.text, "Kibera", "the default is there to keep with Enter")
        s.press(.control("u")); s.type("Mathare"); s.press(.enter)
        s.type("Bo"); s.press(.enter)
        s.press(.enter)                                   // [ Add ]
        XCTAssertEqual(s.records.count, 2)
        XCTAssertEqual(s.records[1]["village"], .string("Mathare"))
        s.press(.control("n"))
        XCTAssertEqual(s.shownForm.displayedAnswer(village).text, "Mathare")
    }

    func testAFormThatDoesNotReadItKeepsNoLastSurvey() throws {
        let s = try state([Record(["village": .string("Kibera")])], csv: form.replacingOccurrences(of: "${last-saved#village}", with: ""))
        XCTAssertFalse(s.questionnaire.readsLastSaved)
        XCTAssertEqual(s.questionnaire.lastSaved, [:])
    }
}
