import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Submissions and ODK's CSV set name the form as pyxform names it (issue 27), so ODK
/// Central and Briefcase match them to the form the team published: the id is the
/// settings' `form_id`, else the stem of the file attached (UCL's biomass form has none:
/// `UCL_Biomass_Plot_Form`, not the document's name), and the version its date cell as
/// pyxform writes it (`2022-04-11 16:26:28.971000`, not the day count `44662.6850575292`).
final class FormIdentityTests: CLITestCase {
    static var biomass: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SurveyModelTests/Fixtures/forms/pyxform-suite/bug_example_xls--UCL_Biomass_Plot_Form-ecc08c78.xlsx")
    }

    /// The fixture under the file name UCL gave it.
    func biomassFile() throws -> URL {
        let file = root.appendingPathComponent("UCL_Biomass_Plot_Form.xlsx")
        if !FileManager.default.fileExists(atPath: file.path) { try FileManager.default.copyItem(at: Self.biomass, to: file) }
        return file
    }

    /// pyxform's `<data id=… version=…>` for the file.
    func pyxformRoot(_ file: URL) throws -> String {
        try python(#"""
            import re, sys
            from pyxform.xls2xform import convert
            print(re.search(r'<instance><data [^>]*>', convert(xlsform=sys.argv[1]).xform).group(0)[len('<instance>'):])
            """#, [file.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testSubmissionsAndTheCSVSetNameTheFormAsPyxformDoes() throws {
        let file = try biomassFile()
        let made = try survey("docs", "new", "Plots", "--form", file.path)
        XCTAssertEqual(made.status, 0, made.stderr)
        // One survey keyed before (its version the day count survey read then), one now.
        try store.save(SurveyDocument(records: [
            Record(["instanceID": .string("uuid:old"), "formID": .string("UCL_Biomass_Plot_Form"),
                    "formVersion": .string("44662.6850575292"), "plot_id": .string("P1")]),
            Record(["instanceID": .string("uuid:new"), "formID": .string("UCL_Biomass_Plot_Form"),
                    "formVersion": .string("2022-04-11 16:26:28.971000"), "plot_id": .string("P2")]),
        ]), as: "Plots")
        let oracle = try pyxformRoot(file)
        XCTAssertEqual(oracle, #"<data id="UCL_Biomass_Plot_Form" version="2022-04-11 16:26:28.971000">"#)

        let briefcase = root.appendingPathComponent("briefcase")
        let exported = try survey("export", "--doc", "Plots", "--format", "odk-xml", "--output", briefcase.path)
        XCTAssertEqual(exported.status, 0, exported.stderr)
        for id in ["uuidold", "uuidnew"] {
            let xml = try String(contentsOf: briefcase.appendingPathComponent(
                "ODK Briefcase Storage/forms/UCL_Biomass_Plot_Form/instances/\(id)/submission.xml"), encoding: .utf8)
            XCTAssertTrue(xml.contains("\n" + oracle), "\(id): \(xml.prefix(200))")
        }
        let set = root.appendingPathComponent("set")
        XCTAssertEqual(try survey("export", "--doc", "Plots", "--format", "odk-csv", "--output", set.path).status, 0)
        let files = try folderContents(set)
        XCTAssertTrue(files.contains("UCL_Biomass_Plot_Form.csv"), "\(files)")
        let shown = try survey("form", "show", file.path)
        XCTAssertTrue(shown.stdout.hasPrefix("(no title)  id UCL_Biomass_Plot_Form  version 2022-04-11 16:26:28.971000\n"), shown.stdout)

        // The id stays the document's through a later version under another file name, a
        // rename, and the trash.
        let v2 = root.appendingPathComponent("biomass v2.xlsx")
        try FileManager.default.copyItem(at: file, to: v2)
        XCTAssertEqual(try survey("form", "attach", v2.path, "--doc", "Plots").status, 0)
        XCTAssertEqual(try survey("docs", "rename", "Plots", "Field plots").status, 0)
        XCTAssertEqual(try survey("docs", "rm", "Field plots").status, 0)
        XCTAssertEqual(try survey("docs", "restore").status, 0)
        XCTAssertEqual(try store.questionnaire(for: "Field plots").form?.formID, "UCL_Biomass_Plot_Form")
    }

    /// A document whose form was attached before survey kept the file's name keeps the id its
    /// surveys carry, the document's name, through a new version of the form.
    func testADocumentAttachedBeforeKeepsItsName() throws {
        try FileManager.default.copyItem(at: try biomassFile(), to: documents.appendingPathComponent("Old.form.xlsx"))
        try store.save(SurveyDocument(records: [Record(["instanceID": .string("uuid:a"), "formID": .string("Old"),
                                                        "plot_id": .string("P1")])]), as: "Old")
        XCTAssertEqual(try store.questionnaire(for: "Old").form?.formID, "Old")
        XCTAssertEqual(try survey("form", "attach", try biomassFile().path, "--doc", "Old").status, 0)
        XCTAssertEqual(try store.questionnaire(for: "Old").form?.formID, "Old")
        XCTAssertEqual(try String(contentsOf: documents.appendingPathComponent(".Old.form-id"), encoding: .utf8), "Old\n")
    }
}
