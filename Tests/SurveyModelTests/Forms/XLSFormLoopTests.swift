import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `begin loop over LIST` expanded as pyxform expands it: a group per choice, the loop's
/// questions in each, their answers kept under `loop/choice/question` (the names repeat).
/// pyxform's XForm is the oracle.
final class XLSFormLoopTests: XCTestCase {
    static let form = """
        survey,,,,
        ,type,name,label::English,label::French
        ,select_multiple toilet,available,Which toilets?,Quelles toilettes ?
        ,begin loop over toilet,per_toilet,Per toilet,Par toilette
        ,integer,number,How many %(label)s?,Combien de %(label)s ?
        ,begin group,more,More,Plus
        ,text,remark,About %(label)s,Sur %(label)s
        ,end group,,,
        ,end loop,,,
        ,integer,total,Total,Total
        choices,,,,
        ,list_name,name,label::English,label::French
        ,toilet,pit,Pit latrine,Latrine
        ,toilet,flush,Flush toilet,Chasse d'eau
        ,toilet,none,None,Aucune
        """

    func testALoopIsAGroupPerChoiceKeyedByPath() throws {
        let q = try FormTestSupport.questionnaire(Self.form, language: "English")
        XCTAssertEqual(q.recordFields.map(\.key), ["available", "per_toilet/pit/number", "per_toilet/pit/more/remark",
                                                   "per_toilet/flush/number", "per_toilet/flush/more/remark", "total"])
        // `%(label)s` is the choice's label in the language shown, in the loop's own rows only
        // (pyxform copies a group's rows as they are); the choice's group has its label.
        XCTAssertEqual(q.field(forKey: "per_toilet/flush/number")?.label, "How many Flush toilet?")
        XCTAssertEqual(q.field(forKey: "per_toilet/flush/more/remark")?.label, "About %(label)s")
        let french = try FormTestSupport.questionnaire(Self.form, language: "French")
        XCTAssertEqual(french.field(forKey: "per_toilet/pit/number")?.label, "Combien de Latrine ?")
        let groups = q.fields.filter { $0.kind == .groupStart }.map(\.label)
        XCTAssertEqual(groups, ["Per toilet", "Pit latrine", "More", "Flush toilet", "More"])
    }

    func testTheLoopsAnswersAreJudgedAndExportedAsPyxformsInstance() throws {
        let q = try FormTestSupport.questionnaire(Self.form, language: "English")
        let record = Record(["available": .string("pit flush"), "per_toilet/pit/number": .integer(2),
                             "per_toilet/flush/number": .integer(1), "per_toilet/flush/more/remark": .string("new"),
                             "total": .integer(3), "instanceID": .string("uuid:l1")])
        XCTAssertEqual(q.problems(in: record, clock: .wall).map(\.message), [])
        var wrong = record
        wrong["per_toilet/flush/number"] = .string("one")
        XCTAssertEqual(q.problems(in: wrong, clock: .wall).map(\.index), [try XCTUnwrap(q.fields.firstIndex { $0.key == "per_toilet/flush/number" })])
        XCTAssertEqual(try ODKSubmission.xml(record, questionnaire: q), """
            <?xml version="1.0" encoding="UTF-8"?>
            <data id="data"><available>pit flush</available><per_toilet><pit><number>2</number><more><remark/></more></pit>\
            <flush><number>1</number><more><remark>new</remark></more></flush></per_toilet><total>3</total>\
            <meta><instanceID>uuid:l1</instanceID></meta></data>

            """)
        try Self.assertSubmissionIsPyxformsInstance(record, questionnaire: q, form: Self.form)
    }

    /// Every loop form of pyxform's suite opens, its tree the XForm instance's elements at
    /// the XForm's paths, in order.
    func testEveryLoopFormOfPyxformsSuiteIsTheXFormsInstance() throws {
        let folder = PyxformSuiteTests.folder
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("loop") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 17)
        let script = #"""
            import json, sys
            import xml.etree.ElementTree as ET
            from pyxform import xls2xform
            out = {}
            for path in sys.argv[1:]:
                if path.endswith(".md"):
                    xform = xls2xform.convert(xlsform=open(path).read(), file_type=".md").xform
                else:
                    xform = xls2xform.convert(xlsform=path).xform
                ns = {"x": "http://www.w3.org/2002/xforms"}
                root = ET.fromstring(xform).find(".//x:model/x:instance", ns)[0]
                def local(tag): return tag.split("}")[-1]
                paths = []
                def walk(node, prefix):
                    here = prefix + "/" + local(node.tag)
                    if here != "/" + local(root.tag) + "/meta":
                        paths.append(here)
                        for child in node:
                            if not any(local(k) == "template" for k in child.attrib): walk(child, here)
                walk(root, "")
                out[path.split("/")[-1]] = paths[1:]
            print(json.dumps(out))
            """#
        var opened: [String: [String]] = [:]
        for name in names {
            let result = XLSForm.read(try XLSFormSheets.read(fileAt: folder.appendingPathComponent(name).path))
            guard let form = result.form else { continue }
            let q = Questionnaire(form: form)
            opened[name] = q.tree.flatMap(\.descendants).map(\.path)
        }
        XCTAssertGreaterThanOrEqual(opened.count, 16, "the loop forms open")
        let run = try ChildProcess.run(["python3", "-c", script] + opened.keys.sorted().map { folder.appendingPathComponent($0).path })
        guard run.status == 0 else { throw XCTSkip("pyxform did not run: \(run.errors)") }
        let pyxform = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [String: [String]])
        for (name, paths) in opened.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(paths, pyxform[name], name)
        }
    }

    /// The submission's elements are at the paths of the XForm pyxform makes from `form`, and
    /// every element outside repeats is there.
    static func assertSubmissionIsPyxformsInstance(_ record: Record, questionnaire: Questionnaire, form: String,
                                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let script = #"""
            import json, sys
            import xml.etree.ElementTree as ET
            from pyxform import xls2xform
            xform = xls2xform.convert(xlsform=sys.argv[1]).xform
            ns = {"x": "http://www.w3.org/2002/xforms"}
            root = ET.fromstring(xform).find(".//x:model/x:instance", ns)[0]
            def local(tag): return tag.split("}")[-1]
            def paths(node, prefix, out):
                here = prefix + "/" + local(node.tag)
                out.append(here)
                for child in node:
                    if not any(local(k) == "template" for k in child.attrib): paths(child, here, out)
                return out
            sub = ET.parse(sys.argv[2]).getroot()
            print(json.dumps({"form": paths(root, "", []), "submission": paths(sub, "", [])}))
            """#
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let formURL = folder.appendingPathComponent("data.csv")
        let submissionURL = folder.appendingPathComponent("submission.xml")
        try Data(form.utf8).write(to: formURL)
        try Data(try ODKSubmission.xml(record, questionnaire: questionnaire).utf8).write(to: submissionURL)
        let run = try ChildProcess.run(["python3", "-c", script, formURL.path, submissionURL.path])
        guard run.status == 0 else { throw XCTSkip("pyxform did not run: \(run.errors)") }
        let found = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [String: [String]])
        XCTAssertEqual(found["submission"], found["form"], "the submission's elements, in order, are the XForm instance's",
                       file: file, line: line)
    }
}
