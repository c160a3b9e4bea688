import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Reading XLSForm as forgivingly as pyxform, checked against pyxform itself.
final class XLSFormTests: XCTestCase {
    private var fixture: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/forms/household.csv")
    }

    private func read(_ text: String, markdown: Bool = false) throws -> (form: XLSForm?, errors: [String], warnings: [String]) {
        let sheets = markdown ? try XLSFormSheets.markdown(text) : try XLSFormSheets.csv(text)
        let result = XLSForm.read(sheets)
        return (result.form, result.errors.map(\.description), result.warnings.map(\.description))
    }

    func testAMessyRealisticFormReads() throws {
        let (form, errors, warnings) = try read(String(contentsOf: fixture, encoding: .utf8))
        XCTAssertEqual(errors, [])
        XCTAssertEqual(warnings, [], "its image is a file copied into the media folder now")
        let f = try XCTUnwrap(form)
        XCTAssertEqual(f.questions.map(\.name), ["fname", "lname", "age", "smoker", "fruits", "fruits_other", "home", "rent", "moved", "", "thanks", "adult", "photo"])
        XCTAssertEqual(f.questions[5].relevant, .call("selected", [.field("fruits"), .string("other")]), "or_other asks for the other answer")
        XCTAssertEqual(f.questions[3].kind, .selectOne(list: "yn", orOther: false))
        XCTAssertEqual(f.questions[4].kind, .selectMultiple(list: "fruit", orOther: true))
        XCTAssertEqual(f.questions[0].labels, ["English (en)": "First name", "Français (fr)": "Prénom"])
        XCTAssertEqual(f.questions[0].hints, ["": "As on the ID card"])
        XCTAssertEqual(f.questions[2].constraintMessage, "Age must be 0 to 150")
        XCTAssertEqual(f.languages, ["English (en)", "Français (fr)"])
        XCTAssertEqual(f.choices["fruit"]?.map(\.name), ["2022", "apple", "other"], "Excel's 2022.0 is the choice 2022")
        XCTAssertEqual(f.title, "Household")
        XCTAssertEqual(f.version, "2024.0")
        XCTAssertEqual(f.defaultLanguage, "English (en)")
        XCTAssertEqual(f.instanceName?.fieldReferences, ["lname", "fname"])
    }

    func testMarkdownLayoutReadsTheSame() throws {
        let md = """
        | survey |         |       |            |
        |        | type    | name  | label      |
        |        | text    | fname | First name |
        |        | integer | age   | Age        |
        | settings |       |       |            |
        |        | form_title | form_id |      |
        |        | Tiny    | tiny  |            |
        """
        let (form, errors, _) = try read(md, markdown: true)
        XCTAssertEqual(errors, [])
        XCTAssertEqual(form?.questions.map(\.name), ["fname", "age"])
        XCTAssertEqual(form?.title, "Tiny")
    }

    func testEveryProblemIsListedWithSheetRowAndColumn() throws {
        let csv = """
        survey,,,,
        ,type,name,label,relevant
        ,integer,age,Age,
        ,text,agee2,Other,${agee} > 3
        ,select_one nolist,pick,Pick,
        ,text,age,Again,
        ,integer,bad,Bad,if(1
        ,begin group,g,G,
        ,calculate,c,,
        """
        let (form, errors, warnings) = try read(csv)
        XCTAssertNil(form)
        XCTAssertEqual(errors.sorted(), [
            "survey row 4, relevant: unknown field ${agee}",
            "survey row 5, type: no choice list named nolist",
            "survey row 6, name: “age” is already the name of row 3",
            "survey row 8, type: the group “g” has no end group",
            "survey row 9, calculation: a calculate row needs a calculation",
        ])
        // Malformed text is a rule no one can read: a warning, where pyxform passes it.
        XCTAssertEqual(warnings, ["survey row 7, relevant: “if(1” cannot be read (the call to if() is not closed): the question is always asked"])
    }

    /// A sheet of 10,000 nested groups (or repeats) crashed `form check` in the recursive
    /// walks of the form's tree; nesting past 64 is one error at its row, and 64 still opens.
    func testNestingDeeperThanSixtyFourIsOneErrorNotACrash() throws {
        for kind in ["group", "repeat"] {
            func sheet(_ depth: Int) -> String {
                "survey,,,\n,type,name,label\n" + (0..<depth).map { ",begin \(kind),b\($0),B\n" }.joined()
                    + ",text,q,Q\n" + String(repeating: ",end \(kind),,\n", count: depth)
            }
            let deep = try read(sheet(10_000))
            XCTAssertNil(deep.form)
            XCTAssertEqual(deep.errors, ["survey row 67, type: groups, repeats and loops nest more than 64 deep here: the rest of the sheet is not read"])
            let (form, errors, _) = try read(sheet(64))
            XCTAssertNotNil(form, "\(errors)")
        }
    }

    /// pyxform refuses a select_multiple whose choice names hold a space (its answers are
    /// names separated by spaces); so does survey, and a select_one may still have one.
    func testASelectMultipleChoiceWithASpaceIsRefusedAsPyxformRefusesIt() throws {
        let csv = """
        survey,,,
        ,type,name,label
        ,select_multiple w,w,Water
        ,select_one w,main,Main source
        choices,,,
        ,list_name,name,label
        ,w,rain water,Rain
        ,w,tap,Tap
        """
        let (form, errors, _) = try read(csv)
        XCTAssertNil(form)
        XCTAssertEqual(errors, ["survey row 3, type: the choice “rain water” of w has a space, which select_multiple cannot store (its answers are separated by spaces)"])
        let oracle = try ChildProcess.run(["python3", "-c", """
            import sys, tempfile
            from pyxform.xls2json import parse_file_to_json
            with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f: f.write(sys.argv[1])
            try:
                parse_file_to_json(f.name); print("accepted")
            except Exception as e: print("refused")
            """, csv])
        XCTAssertEqual(oracle.output.trimmingCharacters(in: .whitespacesAndNewlines), "refused", oracle.errors)
    }

    /// pyxform's own reading of the same file (its `xls2json`), flattened: the questions in
    /// order with their type, label and rules, and the choice lists.
    func testTheFixtureMeansWhatPyxformSaysItMeans() throws {
        let script = #"""
        import json, sys
        from pyxform.xls2json import parse_file_to_json
        d = parse_file_to_json(sys.argv[1])
        out = []
        def walk(children):
            for c in children:
                if c.get("name") == "meta": continue
                bind = c.get("bind", {})
                out.append([c["type"], c["name"], bind.get("relevant", ""), bind.get("constraint", ""), bind.get("required", "")])
                if c["type"] == "group": walk(c.get("children", []))
        walk(d["children"])
        choices = {k: [c["name"] for c in v] for k, v in d.get("choices", {}).items()}
        print(json.dumps({"questions": out, "choices": choices, "title": d.get("title"), "version": d.get("version")}))
        """#
        let run = try ChildProcess.run(["python3", "-c", script, fixture.path])
        XCTAssertEqual(run.status, 0, "pyxform must be installed (make test installs it): \(run.stderr)")
        let oracle = try JSONSerialization.jsonObject(with: run.stdout) as! [String: Any]
        let form = try XCTUnwrap(try read(String(contentsOf: fixture, encoding: .utf8)).form)
        func pyxformType(_ kind: XLSForm.Kind) -> String? {
            switch kind {
            case .text: return "text"
            case .integer: return "integer"
            case .decimal: return "decimal"
            case .date: return "date"
            case .time: return "time"
            case .dateTime: return "dateTime"
            case .selectOne: return "select one"
            case .selectMultiple: return "select all that apply"
            case .note: return "note"
            case .calculate: return "calculate"
            case .acknowledge: return "acknowledge"
            case .beginGroup: return "group"
            case .endGroup, .endRepeat: return nil
            case .beginRepeat: return "repeat"
            case .geo(let g): return g.rawValue
            case .barcode: return "barcode"
            case .attachment(let a): return a == "image" ? "photo" : a
            case .range: return "range"
            case .rank: return "rank"
            case .metadata(let m): return m
            case .notCollected: return "not collected"
            }
        }
        let ours = form.questions.compactMap { q -> [String]? in
            guard let type = pyxformType(q.kind) else { return nil }
            return [type, q.name]
        }
        let known: Set<String> = ["text", "integer", "decimal", "date", "time", "dateTime", "select one", "select all that apply",
                                  "note", "calculate", "acknowledge", "group", "start", "end", "today", "deviceid", "photo",
                                  "geopoint", "geotrace", "geoshape", "barcode", "audio", "video", "file", "range", "rank"]
        let theirs = (oracle["questions"] as! [[String]]).map { [known.contains($0[0]) ? $0[0] : "not collected", $0[1]] }
        XCTAssertEqual(ours, theirs)
        let theirRules = (oracle["questions"] as! [[String]]).map { [$0[1], $0[2], $0[3]] }.filter { !$0[1].isEmpty || !$0[2].isEmpty }
        let csvRows = try CSV.rows(String(contentsOf: fixture, encoding: .utf8))
        let ourRules = form.questions.compactMap { q -> [String]? in
            let cells = csvRows[q.row - 1]
            let synthetic = q.name.hasSuffix("_other") && q.relevant != nil
            let relevant = synthetic ? "selected(../\(q.name.dropLast(6)), 'other')" : q.relevant == nil ? "" : cells[9]
            let constraint = synthetic || q.constraint == nil ? "" : cells[7]
            return relevant.isEmpty && constraint.isEmpty ? nil : [q.name, relevant, constraint]
        }
        XCTAssertEqual(ourRules, theirRules, "the same rules on the same questions")
        XCTAssertEqual((oracle["choices"] as! [String: [String]])["yn"], form.choices["yn"]?.map(\.name))
        XCTAssertEqual(oracle["title"] as? String, form.title)
        XCTAssertEqual(oracle["version"] as? String, form.version)
    }
}
