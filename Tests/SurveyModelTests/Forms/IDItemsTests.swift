import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The settings' `id_items` (CSPro's ID items): read, checked, and what they find.
final class IDItemsTests: XCTestCase {
    private func read(_ csv: String) throws -> (form: XLSForm?, errors: [XLSFormProblem], warnings: [XLSFormProblem]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ids-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return XLSForm.read(try XLSFormSheets.read(fileAt: url.path))
    }

    private func form(idItems: String) -> String {
        """
        survey,,,,
        ,type,name,label,calculation
        ,text,hh_id,Household,
        ,integer,visit,Visit,
        ,calculate,twice,,${visit} * 2
        ,begin repeat,member,Member,
        ,text,name,Name,
        ,end repeat,,,
        settings,,,,
        ,form_id,id_items,,
        ,households,\(idItems),,
        """
    }

    func testIDItemsAreReadAndFindTheSurveysThatShareThem() throws {
        let result = try read(form(idItems: "hh_id visit"))
        let form = try XCTUnwrap(result.form, "\(result.errors)")
        XCTAssertEqual(form.idItems, ["hh_id", "visit"])
        let q = Questionnaire(form: form)
        let records = [Record(["hh_id": .string("7"), "visit": .integer(1)]), Record(["hh_id": .string("7"), "visit": .integer(2)]),
                       Record(["hh_id": .string("7"), "visit": .integer(1)]), Record(["hh_id": .string(" "), "visit": .integer(1)]),
                       Record(["hh_id": .string(""), "visit": .integer(1)])]
        XCTAssertEqual(q.idItemsText(of: records[0]), "hh_id 7, visit 1")
        XCTAssertNil(q.idItemsText(of: records[3]), "a blank ID item identifies nothing")
        XCTAssertEqual(q.duplicateGroups(in: records).map(\.indices), [[0, 2]])
        XCTAssertEqual(q.duplicateGroups(in: records).map(\.idItems), ["hh_id 7, visit 1"])
    }

    /// An ID item is a question keyed once per survey: a roster's, a calculation or an
    /// unknown name is refused with the reason.
    func testAnIDItemMustBeAQuestionKeyedAtTheTop() throws {
        for bad in ["name", "twice", "hh"] {
            let result = try read(form(idItems: "hh_id \(bad)"))
            XCTAssertNil(result.form, bad)
            XCTAssertTrue(result.errors.contains { $0.column == "id_items" && $0.message.contains("“\(bad)”") }, "\(bad): \(result.errors)")
        }
    }
}
