import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The same name in two groups of one record (pyxform takes it: groups are levels of the XML
/// instance): kept under its group path, `g1/q1`, while every name used once stays a flat key,
/// and carried so through the rules, the exports and the imports.
final class XLSFormGroupPathTests: XCTestCase {
    static let form = """
        survey,,,,
        ,type,name,label,relevant
        ,text,hh,Household,
        ,begin group,g1,First,
        ,integer,q1,Count,
        ,text,note1,Why,${hh} != ''
        ,end group,,,
        ,begin group,g2,Second,
        ,integer,q1,Count,
        ,begin group,inner,Inner,
        ,select_one yn,q1,Again,
        ,end group,,,
        ,end group,,,
        ,integer,total,Total,
        choices,,,,
        ,list_name,name,label,
        ,yn,yes,Yes,
        ,yn,no,No,
        """

    func testANameUsedTwiceIsKeptUnderItsGroupPathAndTheOthersStayFlat() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        XCTAssertEqual(q.recordFields.map(\.key), ["hh", "g1/q1", "note1", "g2/q1", "g2/inner/q1", "total"])
        // The XForm's paths are the element names, not the keys.
        let paths = q.tree.flatMap(\.descendants).filter { $0.kind == .question }.map(\.path)
        XCTAssertEqual(paths, ["/data/hh", "/data/g1/q1", "/data/g1/note1", "/data/g2/q1", "/data/g2/inner/q1", "/data/total"])
        XCTAssertEqual(q.field(forKey: "g2/inner/q1")?.label, "Again")
    }

    /// pyxform refuses `${q1}` when q1 names several questions; so does survey, with its words.
    func testAReferenceToANameUsedTwiceIsRefusedAsPyxformRefusesIt() throws {
        let text = Self.form.replacingOccurrences(of: ",integer,total,Total,", with: ",integer,total,Total,${q1} > 0")
        let errors = XLSForm.read(try XLSFormSheets.csv(text)).errors.map(\.description)
        XCTAssertEqual(errors, ["survey row 14, relevant: ${q1} is ambiguous: reference variables names must be unique anywhere in the survey, "
                                + "and “q1” appears more than once"])
        // Two of one name side by side in one group are still refused.
        let twice = "survey,,,\n,type,name,label\n,begin group,g,G\n,text,q,Q\n,text,q,Q\n,end group,,\n"
        XCTAssertEqual(XLSForm.read(try XLSFormSheets.csv(twice)).errors.map(\.description),
                       ["survey row 5, name: “q” is already the name of row 4"])
    }

    /// `or_other` in two groups: the text question follows its own select's key.
    func testOrOtherFollowsItsSelectToItsPath() throws {
        let q = try FormTestSupport.questionnaire("""
            survey,,,
            ,type,name,label
            ,begin group,a,A
            ,select_one yn or_other,pick,Pick
            ,end group,,
            ,begin group,b,B
            ,select_one yn or_other,pick,Pick
            ,end group,,
            choices,,,
            ,list_name,name,label
            ,yn,yes,Yes
            """)
        XCTAssertEqual(q.recordFields.map(\.key), ["a/pick", "a/pick_other", "b/pick", "b/pick_other"])
        let record = Record(["a/pick": .string("other"), "b/pick": .string("yes")])
        let shown = q.relevance(in: record, clock: .wall)
        let index = try XCTUnwrap(q.fields.firstIndex { $0.key == "a/pick_other" })
        let other = try XCTUnwrap(q.fields.firstIndex { $0.key == "b/pick_other" })
        XCTAssertTrue(shown[index])
        XCTAssertFalse(shown[other])
    }

    static let record = Record(["hh": .string("H1"), "g1/q1": .integer(3), "note1": .string("big"), "g2/q1": .integer(4),
                                "g2/inner/q1": .string("yes"), "total": .integer(7), "instanceID": .string("uuid:p1")])

    func testTheSubmissionNestsThePathsAsTheXFormsInstance() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        XCTAssertEqual(try ODKSubmission.xml(Self.record, questionnaire: q), """
            <?xml version="1.0" encoding="UTF-8"?>
            <data id="data"><hh>H1</hh><g1><q1>3</q1><note1>big</note1></g1><g2><q1>4</q1><inner><q1>yes</q1></inner></g2>\
            <total>7</total><meta><instanceID>uuid:p1</instanceID></meta></data>

            """)
        try XLSFormLoopTests.assertSubmissionIsPyxformsInstance(Self.record, questionnaire: q, form: Self.form)
    }

    func testEveryExportCarriesThePathsAndTheImportsReadThemBack() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let doc = SurveyDocument(records: [Self.record])
        // ODK's CSV: Central's `group-name` headers, read back to the same keys.
        let main = try XCTUnwrap(try doc.odkCSVFiles(questionnaire: q, formID: "f", groupNames: true).first)
        XCTAssertTrue(main.text.hasPrefix("SubmissionDate,hh,g1-q1,g1-note1,g2-q1,g2-inner-q1,total,meta-instanceID,KEY"), main.text)
        let back = try SurveyDocument.odkSetImport(main: main, repeats: [], questionnaire: q)
        XCTAssertEqual(back.rows.first?.record["g2/inner/q1"], .string("yes"))
        XCTAssertEqual(back.rows.first?.record["g1/q1"], .string("3"))
        XCTAssertEqual(back.unmatched, [])
        // Without group names a path is still one column, not two `q1`.
        let plain = try XCTUnwrap(try doc.odkCSVFiles(questionnaire: q, formID: "f", groupNames: false).first)
        XCTAssertTrue(plain.text.hasPrefix("SubmissionDate,hh,g1-q1,note1,g2-q1,g2-inner-q1,total,"), plain.text)
        // survey's own CSV and JSON keep the key.
        let csv = doc.csvText(questionnaire: q)
        XCTAssertTrue(csv.hasPrefix("hh,g1/q1,note1,g2/q1,g2/inner/q1,total"), csv)
        let fromCSV = try SurveyDocument.records(csv: csv, questionnaire: q)
        XCTAssertEqual(fromCSV.first?["g2/q1"], .string("4"))
        let json = doc.jsonText(questionnaire: q)
        XCTAssertTrue(json.contains("\"g2/inner/q1\": \"yes\""), json)
        XCTAssertEqual(try SurveyDocument.records(json: Data(json.utf8)).first?["g1/q1"], .integer(3))
        // The gate judges each by its own question.
        var wrong = Self.record
        wrong["g2/q1"] = .string("four")
        XCTAssertEqual(q.problems(in: wrong, clock: .wall).map(\.message).count, 1)
    }

    /// The forms of pyxform's suite that use one name in two groups open.
    func testPyxformsSameNameInDifferentGroupFormsOpen() throws {
        let folder = PyxformSuiteTests.folder
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.contains("different_group_context__ok") || $0.contains("same_external_csv_id_with_mixed_types") }
        XCTAssertEqual(names.count, 6)
        for name in names {
            let result = XLSForm.read(try XLSFormSheets.read(fileAt: folder.appendingPathComponent(name).path))
            XCTAssertEqual(result.errors, [], name)
        }
    }
}
