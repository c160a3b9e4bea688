import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms

/// Random entity forms (groups and repeats nested up to three deep, one to three lists,
/// `save_to`s and labels scattered through them), each judged by survey and by pyxform: the
/// same verdict, a refusal at pyxform's row for pyxform's reason, and an accepted form's
/// entities in pyxform's containers with pyxform's spec version. It checks the port of
/// pyxform's allocation (`EntityAllocation`) on shapes its own suite does not write.
final class XLSFormEntityFuzzTests: XCTestCase {
    /// SplitMix64: the same forms on every run.
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    private static func randomForm(_ random: inout Random) -> String {
        let lists = 1 + random.next(3)
        var rows: [String] = []
        var questions: [String] = []
        var property = 0, container = 0
        func block(depth: Int) {
            for _ in 0..<(1 + random.next(3)) {
                if depth < 3, random.next(3) == 0 {
                    container += 1
                    let kind = random.next(2) == 0 ? "group" : "repeat"
                    let name = (kind == "group" ? "g" : "r") + "\(container)"
                    rows.append("| | begin \(kind) | \(name) | \(name) | |")
                    block(depth: depth + 1)
                    rows.append("| | end \(kind) | | | |")
                } else {
                    let name = "q\(questions.count + 1)"
                    questions.append(name)
                    var saveTo = ""
                    if random.next(3) == 0 {
                        property += 1
                        saveTo = lists == 1 ? "p\(property)" : "e\(1 + random.next(lists))#p\(property)"
                    }
                    rows.append("| | text | \(name) | \(name) | \(saveTo) |")
                }
            }
        }
        block(depth: 0)
        var entities = "| entities |\n| | list_name | label |\n"
        for i in 1...lists {
            let label = random.next(3) == 0 ? "'E\(i)'" : "${\(questions[random.next(questions.count)])}"
            entities += "| | e\(i) | \(label) |\n"
        }
        return "| survey |\n| | type | name | label | save_to |\n" + rows.joined(separator: "\n") + "\n" + entities
    }

    func testRandomEntityFormsGetPyxformsVerdictAndPlaces() throws {
        var random = Random(state: 32)
        let forms = (0..<400).map { _ in Self.randomForm(&random) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entity-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (i, md) in forms.enumerated() {
            let url = folder.appendingPathComponent("form\(i).md")
            try Data(md.utf8).write(to: url)
            paths.append(url.path)
        }
        guard (try? ChildProcess.run(["python3", "-c", "import pyxform"]).status) == 0 else { throw XCTSkip("pyxform is not installed") }
        let script = #"""
        import json, sys
        from pyxform.xls2json import parse_file_to_json
        out = []
        def walk(node, path, found):
            for child in node.get("children", []):
                if child.get("type") == "entity":
                    found[next(c["value"] for c in child["children"] if c.get("name") == "dataset")] = path
                elif child.get("type") in ("group", "repeat"):
                    walk(child, path if child.get("name") == "meta" else path + [child["name"]], found)
        for path in sys.argv[1:]:
            try:
                d = parse_file_to_json(path, warnings=[])
                found = {}
                walk(d, [], found)
                out.append({"version": d.get("entity_version"), "entities": found})
            except Exception as e:
                out.append({"error": str(e)})
        print(json.dumps(out))
        """#
        let run = try ChildProcess.run(["python3", "-c", script] + paths)
        XCTAssertEqual(run.status, 0, run.errors)
        let oracle = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        var refused = 0, repeated = 0
        for (i, (md, pyxform)) in zip(forms, oracle).enumerated() {
            let sheets = try XLSFormSheets.markdown(md)
            let result = XLSForm.read(sheets)
            if let error = pyxform["error"] as? String {
                refused += 1
                XCTAssertNil(result.form, "form \(i) pyxform refuses: \(error)\n\(md)")
                XLSFormEntityTests.assertAgrees(result.errors, pyxform: error, sheets: sheets, "form \(i)\n\(md)")
            } else {
                XCTAssertEqual(result.errors, [], "form \(i)\n\(md)")
                let form = try XCTUnwrap(result.form)
                XCTAssertEqual(form.entitiesVersion?.rawValue, pyxform["version"] as? String, "form \(i)\n\(md)")
                XCTAssertEqual(Dictionary(uniqueKeysWithValues: form.entities.map { ($0.list, $0.container) }),
                               pyxform["entities"] as? [String: [String]], "form \(i)\n\(md)")
                if form.entities.contains(where: { !$0.repeats.isEmpty }) { repeated += 1 }
            }
        }
        // Both kinds, in numbers that make the agreement mean something.
        XCTAssertGreaterThan(refused, 50)
        XCTAssertGreaterThan(forms.count - refused, 50)
        XCTAssertGreaterThan(repeated, 20)
        print("entity fuzz: \(refused) of \(forms.count) refused by both, \(repeated) accepted with an entity per member")
    }
}
