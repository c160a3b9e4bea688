import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Small XLSForms written inline in pyxform's CSV layout, the example household form, a
/// pinned clock and pyxform as an oracle, shared by the questionnaire tests.
enum FormTestSupport {
    /// `Examples/household.csv`, the form the issue's example uses.
    static var householdURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/household.csv")
    }

    /// The form in `csv`, failing the test when it does not read cleanly.
    static func form(_ csv: String, file: StaticString = #filePath, line: UInt = #line) throws -> XLSForm {
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertEqual(result.errors.map(\.description), [], file: file, line: line)
        return try XCTUnwrap(result.form, file: file, line: line)
    }

    static func questionnaire(_ csv: String, language: String? = nil,
                              file: StaticString = #filePath, line: UInt = #line) throws -> Questionnaire {
        Questionnaire(form: try form(csv, file: file, line: line), language: language)
    }

    static func householdForm() throws -> XLSForm {
        try form(String(contentsOf: householdURL, encoding: .utf8))
    }

    static func household(language: String? = nil) throws -> Questionnaire {
        Questionnaire(form: try householdForm(), language: language)
    }

    /// 2026-11-30 23:30:00 UTC, seen from a zone one hour east: already Dec 1 there.
    static let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_081_400),
                                           timeZone: TimeZoneRule(secondsFromGMT: 3600))

    /// pyxform's `xls2json` reading of `csv` (written to a temporary `.csv` file), as JSON,
    /// with its warnings under "warnings"; `{"error": …}` when pyxform refuses the form.
    /// With `validate`, the form is also built into an XForm and checked by ODK Validate
    /// (JavaRosa), which pyxform bundles.
    static func pyxform(_ csv: String, validate: Bool = false,
                        file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("form-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let script = #"""
        import json, sys
        from pyxform.xls2json import parse_file_to_json
        from pyxform import builder
        import shutil
        warnings = []
        if sys.argv[2] == "1" and not shutil.which("java"):
            sys.exit("ODK Validate (bundled with pyxform) needs Java: apt-get install default-jre-headless")
        try:
            d = parse_file_to_json(sys.argv[1], warnings=warnings)
            if sys.argv[2] == "1":
                builder.create_survey_element_from_dict(d).to_xml(validate=True, warnings=warnings)
        except Exception as e:
            print(json.dumps({"error": str(e)}))
            sys.exit(0)
        d["warnings"] = warnings
        print(json.dumps(d))
        """#
        let run = try ChildProcess.run(["python3", "-c", script, url.path, validate ? "1" : "0"])
        XCTAssertEqual(run.status, 0, "pyxform must be installed (make test installs it), and Java to validate: \(run.errors)", file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], file: file, line: line)
    }

    /// For each form, whether pyxform builds it and ODK Validate (JavaRosa) accepts it; one
    /// python3 run for them all, since each validation starts a JVM.
    /// Each CSV as `formN.csv` in a fresh temporary folder (the caller removes it), for one
    /// python3 run to read them all.
    static func writeForms(_ csvs: [String]) throws -> (url: URL, paths: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        for (i, csv) in csvs.enumerated() {
            let url = folder.appendingPathComponent("form\(i).csv")
            try Data(csv.utf8).write(to: url)
            paths.append(url.path)
        }
        return (folder, paths)
    }

    static func odkValidates(_ csvs: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [Bool] {
        let folder = try writeForms(csvs)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let paths = folder.paths
        let script = #"""
        import json, sys
        from pyxform.xls2json import parse_file_to_json
        from pyxform import builder
        import shutil
        if not shutil.which("java"):
            sys.exit("ODK Validate (bundled with pyxform) needs Java: apt-get install default-jre-headless")
        verdicts = []
        for path in sys.argv[1:]:
            try:
                d = parse_file_to_json(path, warnings=[])
                builder.create_survey_element_from_dict(d).to_xml(validate=True, warnings=[])
                verdicts.append(True)
            except Exception as e:
                verdicts.append(False)
        print(json.dumps(verdicts))
        """#
        let run = try ChildProcess.run(["python3", "-c", script] + paths)
        XCTAssertEqual(run.status, 0, "pyxform must be installed (make test installs it), and Java to validate: \(run.errors)", file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [Bool], file: file, line: line)
    }

    /// pyxform's questions in order, groups walked into, its `meta` group left out.
    static func pyxformQuestions(_ json: [String: Any]) -> [[String: Any]] {
        var out: [[String: Any]] = []
        func walk(_ children: [[String: Any]]) {
            for child in children where child["name"] as? String != "meta" {
                out.append(child)
                if child["type"] as? String == "group" { walk(child["children"] as? [[String: Any]] ?? []) }
            }
        }
        walk(json["children"] as? [[String: Any]] ?? [])
        return out
    }
}

extension Questionnaire {
    /// The index of the field named `key` (tests only; a missing name fails loudly).
    func index(_ key: String) -> Int {
        guard let i = fields.firstIndex(where: { $0.key == key }) else { preconditionFailure("no field \(key)") }
        return i
    }

    /// Which of the named fields are shown for `record`.
    func shown(_ record: Record, clock: Clock = FormTestSupport.clock) -> [String] {
        let flags = relevance(in: record, clock: clock)
        return fields.indices.filter { flags[$0] && !fields[$0].key.isEmpty }.map { fields[$0].key }
    }
}
