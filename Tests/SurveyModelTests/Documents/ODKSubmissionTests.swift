import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A survey as an ODK submission, checked against the XForm pyxform makes from the same
/// XLSForm: every element of the submission is at the same path in the XForm's primary
/// instance, and every element the instance has outside repeats is in the submission.
final class ODKSubmissionTests: XCTestCase {
    func testTheSubmissionIsTheXFormsInstance() throws {
        let q = try ODKCSVSetTests.roster()
        let record = ODKCSVSetTests.records[0]
        let xml = try ODKSubmission.xml(record, questionnaire: q)
        XCTAssertEqual(xml, """
            <?xml version="1.0" encoding="UTF-8"?>
            <data id="roster_hh" version="2024120101"><hh_id>H1</hh_id><household_size>2</household_size>\
            <visit><visit_time>09:30</visit_time></visit><member><name>Ana</name><age>34</age><job><job_title>Nurse</job_title></job>\
            <job><job_title>Farmer, part time</job_title></job></member><member><name>Bo</name><age>7</age></member><thanks/>\
            <meta><instanceID>uuid:h1</instanceID></meta></data>

            """)
        let script = #"""
            import json, sys
            import xml.etree.ElementTree as ET
            from pyxform import xls2xform
            xform = xls2xform.convert(xlsform=sys.argv[1]).xform
            ns = {"x": "http://www.w3.org/2002/xforms"}
            root = ET.fromstring(xform).find(".//x:model/x:instance", ns)[0]
            def local(tag): return tag.split("}")[-1]
            def paths(node, prefix, out, skip_repeats):
                here = prefix + "/" + local(node.tag)
                out.add(here)
                for child in node:
                    template = any(local(k) == "template" for k in child.attrib)
                    if skip_repeats and (template or child.tag in [c.tag for c in node if any(local(k) == "template" for k in c.attrib)]):
                        continue
                    paths(child, here, out, skip_repeats)
                return out
            sub = ET.parse(sys.argv[2]).getroot()
            form_paths = paths(root, "", set(), False)
            required = paths(root, "", set(), True)
            sub_paths = paths(sub, "", set(), False)
            print(json.dumps({"root": local(root.tag), "id": root.get("id"), "version": root.get("version"),
                              "sub_root": sub.tag, "sub_id": sub.get("id"), "sub_version": sub.get("version"),
                              "extra": sorted(sub_paths - form_paths), "missing": sorted(required - sub_paths),
                              "nested": "/data/member/job/job_title" in sub_paths}))
            """#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("submission-\(UUID().uuidString).xml")
        try Data(xml.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = try ChildProcess.run(["python3", "-c", script, ODKCSVSetTests.rosterURL.path, url.path])
        XCTAssertEqual(run.status, 0, run.errors)
        let found = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        XCTAssertEqual(found["sub_root"] as? String, found["root"] as? String)
        XCTAssertEqual(found["sub_id"] as? String, found["id"] as? String)
        XCTAssertEqual(found["sub_version"] as? String, found["version"] as? String)
        XCTAssertEqual(found["extra"] as? [String], [], "every element is in the XForm's instance at the same path")
        XCTAssertEqual(found["missing"] as? [String], [], "every element outside repeats is there")
        XCTAssertEqual(found["nested"] as? Bool, true)
    }

    func testBriefcasesLayoutAndEscaping() throws {
        let q = try ODKCSVSetTests.roster()
        XCTAssertEqual(ODKSubmission.briefcasePath(ODKCSVSetTests.records[0], questionnaire: q, fallbackID: "x"),
                       ["ODK Briefcase Storage", "forms", "Household roster", "instances", "uuidh1", "submission.xml"])
        let odd = Record(["hh_id": .string("A&B <1>"), "instanceID": .string("uuid:z")])
        XCTAssertTrue(try ODKSubmission.xml(odd, questionnaire: q).contains("<hh_id>A&amp;B &lt;1&gt;</hh_id><household_size/>"))
        XCTAssertEqual(ODKSubmission.safeName("a/b: c?. "), "ab c")
    }

    /// A character XML cannot hold (a control character another tool put in an answer) is
    /// written as U+FFFD, as the document's own writer does: the submission stays XML.
    func testACharacterXMLCannotHoldIsReplacedNotWritten() {
        XCTAssertEqual(ODKSubmission.escape("a\u{1}b <c> & \"d\""), "a\u{FFFD}b &lt;c&gt; &amp; &quot;d&quot;")
        XCTAssertEqual(ODKSubmission.safeName("uuid\u{7}1"), "uuid1")
    }
}
