import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30: CSPro's ID items. A form's settings `id_items` name the questions that identify
/// a paper; [ Add ] of a New form whose ID items another survey has asks before adding it.
final class DuplicateIDItemsTests: XCTestCase {
    static let plots = """
    survey,,,
    ,type,name,label
    ,text,plot_id,Plot id
    ,integer,trees,Trees
    settings,,,
    ,form_id,id_items,
    ,plots,plot_id,
    """

    private func keyPlot(_ s: inout AppState, _ id: String, trees: String) {
        s.press(.control("n"))
        if s.editing == nil { s.press(.enter) }
        s.type(id); s.press(.enter); s.type(trees); s.press(.enter)
        s.press(.enter)                                          // [ Add ]
    }

    func testAddAsksWhenAnotherSurveyHasTheSameIDItems() throws {
        var s = try formState(csv: Self.plots)
        XCTAssertEqual(s.questionnaire.idItems, ["plot_id"])
        keyPlot(&s, "12", trees: "3")
        XCTAssertEqual(s.recordCount, 1)
        keyPlot(&s, "12", trees: "4")
        XCTAssertEqual(s.inputMode, .confirmingDuplicate)
        XCTAssertEqual(s.statusText, "Survey 1, “12”, has the same plot_id 12: add this one too? y/n")
        XCTAssertEqual(s.recordCount, 1, "nothing added while asked")
        s.press(.character("n"))
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertEqual(s.draft["plot_id"], .string("12"), "the New form keeps its answers")
        XCTAssertEqual(s.draft["trees"], .integer(4))
        // Corrected from the paper: another plot, added without a question.
        var corrected = s.draft
        corrected["plot_id"] = .string("13")
        s.form.setDraft(corrected)
        s.form.highlight(.add)
        s.press(.enter)
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.records[1]["plot_id"], .string("13"))
        // Keyed twice on purpose (two papers the ID items do not tell apart): y adds it.
        keyPlot(&s, "13", trees: "9")
        XCTAssertEqual(s.inputMode, .confirmingDuplicate)
        XCTAssertTrue(s.press(.character("y")).contains(.saveDocument))
        XCTAssertEqual(s.recordCount, 3)
        XCTAssertEqual(s.questionnaire.duplicateGroups(in: s.records).map(\.indices), [[1, 2]])
    }
}
