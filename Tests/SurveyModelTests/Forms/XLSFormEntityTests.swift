import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Entity forms (issue 32) judged by survey and by pyxform 4.5, the oracle: the same verdict,
/// the refusal at the same row for the same reason (pyxform's words, in survey's sentences),
/// and the accepted forms' entities where pyxform puts them, with the spec version it gives.
final class XLSFormEntityTests: XCTestCase {
    static var refusedFolder: URL { TestSupport.fixtureURL("forms/pyxform-entities") }

    /// The reasons pyxform gives for an entity form, as words both messages hold (quotes
    /// dropped, lowercased): each refusal must be one of them.
    static let reasons = [
        "groups and repeats cant be saved as entity properties",
        "entity lists must have a name",
        "names used here must not contain a period",
        "names used here must not begin with two underscores",
        "names used here must not be name or label",
        "names must begin with a letter or underscore",
        "the list_name column must not have any duplicate names",
        "is already assigned by row",
        "a label is required when creating entities",
        "an update_if is required when upserting entities",
        "an entity_id is required when updating entities",
        "was not found on the entities sheet",
        "save_to names must be prefixed with the entity list_name",
        "may have only one entity declaration, but there are no valid containers available in the scope",
        "to save entity properties using the save_to column, add an entities sheet and declare an entity",
        "which is not compatible with this save_to reference",
        "which is not compatible with the variable reference to",
        "not supported by this version of pyxform",
        "at most one # delimiter character",
        "reference variables must contain a name from the survey sheet",
    ]

    static func normalized(_ text: String) -> String {
        text.lowercased().filter { !"'“”".contains($0) }
    }

    /// pyxform's `[row : N]` on `sheet` as survey numbers it: the file's line of the sheet's
    /// Nth row (1: the header), blank rows not counted, as pyxform counts them.
    static func surveyRow(_ pyxformRow: Int, sheet: String, in sheets: XLSFormSheets) -> Int? {
        let rows = (sheets.sheet(named: sheet) ?? []).filter { $0.cells.contains { !$0.trimmingWhitespace().isEmpty } }
        return rows.indices.contains(pyxformRow - 1) ? rows[pyxformRow - 1].number : nil
    }

    /// Checks survey's refusal of `form` against pyxform's `error`: an error on the same
    /// sheet and row, for the same reason, naming the same scopes and rows.
    static func assertAgrees(_ errors: [XLSFormProblem], pyxform error: String, sheets: XLSFormSheets, _ title: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard let match = error.firstMatch(of: /\[row : (\d+)\] On the '(\w+)' sheet/), let row = Int(match.1) else {
            return XCTFail("\(title): pyxform's error names no row: \(error)", file: file, line: line)
        }
        let sheet = String(match.2)
        let words = normalized(error)
        guard let reason = reasons.first(where: { words.contains($0) }) else {
            return XCTFail("\(title): a reason of pyxform's this test does not know: \(error)", file: file, line: line)
        }
        let expectedRow = surveyRow(row, sheet: sheet, in: sheets)
        let candidates = errors.filter { $0.sheet == sheet && $0.row == expectedRow }
        guard let found = candidates.first(where: { normalized($0.message).contains(reason) }) else {
            return XCTFail("\(title): pyxform refuses at \(sheet) row \(expectedRow ?? -1) (“\(reason)”), survey says \(errors.map(\.description))",
                           file: file, line: line)
        }
        // The scopes pyxform names ('/survey/r1') and the rows it refers to ("row '4'", on the
        // sheet of the error) are named too.
        for scope in error.matches(of: /'(\/survey[^']*)'/) {
            XCTAssertTrue(found.message.contains("'\(scope.1)'"), "\(title): \(scope.1) in \(found.message)", file: file, line: line)
        }
        for other in error.matches(of: /row '(\d+)'/) {
            let mapped = surveyRow(Int(other.1) ?? 0, sheet: sheet, in: sheets) ?? -1
            XCTAssertTrue(found.message.contains("row \(mapped)"), "\(title): row \(mapped) in \(found.message)", file: file, line: line)
        }
    }

    /// pyxform's verdict on each file: nil when it converts it (no ODK Validate), else its error.
    static func pyxformErrors(_ paths: [String]) throws -> [String?] {
        guard (try? ChildProcess.run(["python3", "-c", "import pyxform"]).status) == 0 else {
            throw XCTSkip("pyxform is not installed for python3 (make test-deps, or python3 -m pip install pyxform)")
        }
        let script = #"""
        import json, sys
        from pyxform import xls2xform
        out = []
        for path in sys.argv[1:]:
            try:
                xls2xform.convert(xlsform=path, warnings=[])
                out.append(None)
            except Exception as e:
                out.append(str(e))
        print(json.dumps(out))
        """#
        let run = try ChildProcess.run(["python3", "-c", script] + paths)
        XCTAssertEqual(run.status, 0, run.errors)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [Any]).map { $0 as? String }
    }

    // MARK: pyxform's own entity forms

    /// Every entity form of pyxform's test suite that pyxform refuses (56) is refused by
    /// survey at pyxform's row, for pyxform's reason; the manifest is pyxform's verdict now.
    func testPyxformsRefusedEntityFormsAreRefusedAtItsRowForItsReason() throws {
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.refusedFolder.appendingPathComponent("manifest.json"))) as? [String: Any])
        let refused = try XCTUnwrap(manifest["refused"] as? [[String: String]])
        XCTAssertGreaterThan(refused.count, 50, "run packaging/pyxform-entities-corpus.py")
        let paths = refused.map { Self.refusedFolder.appendingPathComponent($0["form"]!).path }
        let live = try Self.pyxformErrors(paths)
        for (entry, now) in zip(refused, live) {
            let name = entry["form"]!, error = entry["error"]!
            XCTAssertEqual(now, error, "\(name): pyxform's verdict changed")
            let sheets = try XLSFormSheets.markdown(String(contentsOfFile: Self.refusedFolder.appendingPathComponent(name).path, encoding: .utf8))
            let result = XLSForm.read(sheets)
            XCTAssertNil(result.form, name)
            Self.assertAgrees(result.errors, pyxform: error, sheets: sheets, name)
        }
    }

    /// Every entity form pyxform converts opens, its entities in the containers pyxform puts
    /// their `meta/entity` blocks in, each `save_to` on the question pyxform binds it to,
    /// and the entities spec version pyxform writes.
    func testPyxformsEntityFormsOpenWithTheEntitiesPyxformBuilds() throws {
        let folder = PyxformSuiteTests.folder
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("test_entities--") || $0.hasPrefix("test_create_repeat--") }.sorted()
        XCTAssertGreaterThan(names.count, 60)
        let script = #"""
        import json, sys
        from pyxform.xls2json import parse_file_to_json
        out = []
        def walk(node, path, found, saves):
            for child in node.get("children", []):
                if child.get("type") == "entity":
                    dataset = next(c["value"] for c in child["children"] if c.get("name") == "dataset")
                    found[dataset] = path
                elif child.get("type") in ("group", "repeat") and child.get("name") == "meta":
                    walk(child, path, found, saves)
                elif child.get("type") in ("group", "repeat"):
                    walk(child, path + [child["name"]], found, saves)
                saveto = (child.get("bind") or {}).get("entities:saveto")
                if saveto:
                    saves.append([child["name"], saveto])
        for path in sys.argv[1:]:
            d = parse_file_to_json(path, warnings=[])
            found, saves = {}, []
            walk(d, [], found, saves)
            out.append({"version": d.get("entity_version"), "entities": found, "saves": sorted(saves)})
        print(json.dumps(out))
        """#
        guard (try? ChildProcess.run(["python3", "-c", "import pyxform"]).status) == 0 else { throw XCTSkip("pyxform is not installed") }
        let run = try ChildProcess.run(["python3", "-c", script] + names.map { folder.appendingPathComponent($0).path })
        XCTAssertEqual(run.status, 0, run.errors)
        let oracle = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        var repeated = 0
        for (name, pyxform) in zip(names, oracle) {
            let result = XLSForm.read(try XLSFormSheets.markdown(String(contentsOfFile: folder.appendingPathComponent(name).path, encoding: .utf8)))
            XCTAssertEqual(result.errors, [], name)
            let form = try XCTUnwrap(result.form, name)
            XCTAssertEqual(form.entitiesVersion?.rawValue, pyxform["version"] as? String, name)
            let placed = try XCTUnwrap(pyxform["entities"] as? [String: [String]])
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: form.entities.map { ($0.list, $0.container) }), placed, name)
            let saves = form.entities.flatMap { e in e.properties.map { [String($0.question.split(separator: "/").last ?? ""), $0.name] } }
            XCTAssertEqual(saves.sorted { $0.lexicographicallyPrecedes($1) }, pyxform["saves"] as? [[String]], name)
            if form.entities.contains(where: { !$0.repeats.isEmpty }) { repeated += 1 }
        }
        XCTAssertGreaterThan(repeated, 20, "entities declared in repeats, one per member")
    }
}
