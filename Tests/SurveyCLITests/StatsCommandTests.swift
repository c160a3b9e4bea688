import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// `survey stats`: the keyer statistics through the real binary: the table, CSV (a login a
/// spreadsheet would run is escaped, as every CSV survey writes), JSON (read back by
/// Python's json module), and a document with nothing counted yet.
final class StatsCommandTests: CLITestCase {
    private let day = Date(timeIntervalSince1970: 1_796_032_800)   // 2026-11-30 10:00 UTC

    private func counted() throws {
        try store.save(SurveyDocument(), as: "Plots")
        try store.appendVerification([
            VerificationEntry(kind: .keyed, survey: "s1", login: "ana", date: day, keys: 100, seconds: 300),
            VerificationEntry(kind: .keyed, survey: "s2", login: "ana", date: day, keys: 140, seconds: 420),
            VerificationEntry(kind: .keyed, survey: "s3", login: "=cmd|' /C calc'!A0", date: day, keys: 10, seconds: 30),
            VerificationEntry(kind: .same, survey: "s1", path: "a", login: "vera", date: day),
            VerificationEntry(kind: .keyerError, survey: "s1", path: "b", login: "vera", date: day),
            VerificationEntry(kind: .verifierError, survey: "s2", path: "a", login: "vera", date: day),
            VerificationEntry(kind: .same, survey: "s2", path: "b", login: "vera", date: day),
        ], for: "Plots")
    }

    func testTheTable() throws {
        try counted()
        let run = try survey("stats", "--doc", "Plots")
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.split(separator: " ", omittingEmptySubsequences: true).prefix(3), ["KEYER", "DAY", "SURVEYS"])
        let ana = try XCTUnwrap(lines.first { $0.hasPrefix("ana ") })
        XCTAssertTrue(ana.contains("2026-11-30"), ana)
        XCTAssertTrue(ana.contains(" 120 "), "keys per survey: \(ana)")
        XCTAssertTrue(ana.contains("6:00"), "time per survey: \(ana)")
        XCTAssertTrue(ana.contains("1 (25.0%)"), "one keyer error in four fields: \(ana)")
        let vera = try XCTUnwrap(lines.first { $0.hasPrefix("vera ") })
        XCTAssertTrue(vera.contains("1 of 4 (25.0%)"), "one verifier error in four: \(vera)")
    }

    func testCSVIsFormulaEscapedAndJSONIsWhatPythonReads() throws {
        try counted()
        let csv = try survey("stats", "--doc", "Plots", "--format", "csv")
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let rows = try CSV.rows(csv.stdout)
        XCTAssertEqual(rows.first, ["login", "day", "surveys_keyed", "keys", "seconds", "keys_per_survey", "seconds_per_survey",
                                    "fields_verified", "keyer_errors", "keyer_error_rate",
                                    "fields_verified_as_verifier", "verifier_errors", "verifier_error_rate"])
        XCTAssertEqual(rows.count, 4)
        XCTAssertEqual(rows[1].first, "'=cmd|' /C calc'!A0", "a spreadsheet never runs a login")
        XCTAssertEqual(rows[2], ["ana", "2026-11-30", "2", "240", "720.0", "120.0", "360.0", "4", "1", "0.25", "0", "0", "0.0"])

        let json = try survey("stats", "--doc", "Plots", "--format", "json")
        XCTAssertEqual(json.status, 0, json.stderr)
        let file = root.appendingPathComponent("stats.json")
        try Data(json.stdout.utf8).write(to: file)
        let checked = try python(#"""
            import json, sys
            rows = json.load(open(sys.argv[1], encoding="utf-8"))
            ana = [r for r in rows if r["login"] == "ana"][0]
            vera = [r for r in rows if r["login"] == "vera"][0]
            print(len(rows), sorted(ana.keys()) == sorted(["login", "day", "surveys_keyed", "keys", "seconds", "keys_per_survey",
                  "seconds_per_survey", "fields_verified", "keyer_errors", "keyer_error_rate",
                  "fields_verified_as_verifier", "verifier_errors", "verifier_error_rate"]),
                  ana["surveys_keyed"], ana["keyer_error_rate"], vera["verifier_errors"], vera["verifier_error_rate"],
                  type(ana["seconds_per_survey"]).__name__, rows[0]["login"])
            """#, [file.path])
        XCTAssertEqual(checked, "3 True 2 0.25 1 0.25 float =cmd|' /C calc'!A0\n", "JSON keeps the login as it is")
    }

    func testNothingCountedYet() throws {
        try store.save(SurveyDocument(), as: "Plots")
        let run = try survey("stats", "--doc", "Plots")
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.hasPrefix("Nothing counted yet in “Plots”"), run.stdout)
        let json = try survey("stats", "--doc", "Plots", "--format", "json")
        XCTAssertEqual(json.stdout, "[]\n")
        XCTAssertEqual(try survey("stats", "--doc", "Missing").status, 1)
    }
}
