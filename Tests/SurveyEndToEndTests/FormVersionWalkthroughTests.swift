import Foundation
import XCTest
import SurveyTestSupport

/// The form-change walkthrough, in the real binary: a survey keyed with version 1 of the
/// household form (no consent or has_phone question, `delta` a northern district, a question
/// v2 drops), version 2 attached, the old survey edited in the app, then exported. Nothing
/// the respondent said is lost, and F4 lists what v2 does not ask.
final class FormVersionWalkthroughTests: EndToEndTestCase {
    /// Version 1 of Examples/household.csv, as the designer had it a year earlier.
    private func writeVersionOne() throws -> URL {
        let v2 = try String(contentsOf: Self.packageRoot.appendingPathComponent("Examples/household.csv"), encoding: .utf8)
        var lines: [String] = []
        for var line in v2.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n") {
            if line.hasPrefix(",select_one yesno,consent") || line.hasPrefix(",select_one yesno,has_phone") { continue }
            line = line.replacingOccurrences(of: ",${consent} = 'yes',", with: ",,")
                .replacingOccurrences(of: ",${has_phone} = 'yes',", with: ",,")
                .replacingOccurrences(of: ",district,delta,Delta district,District du delta,south",
                                      with: ",district,delta,Delta district,District du delta,north")
                .replacingOccurrences(of: ",2026113001,", with: ",2025010101,")
            if line.hasPrefix(",text,notes") { lines.append(",text,retired,Retired question,Question retirée,,,,,,,,,,") }
            lines.append(line)
        }
        let url = folder.deletingLastPathComponent().appendingPathComponent("household-v1.csv")
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func survey(_ arguments: [String]) throws -> ChildOutcome {
        try ChildProcess.run([Self.binaryPath, "--dir", folder.path] + arguments)
    }

    func testAnOldSurveyEditedUnderANewVersionLosesNothing() throws {
        let v1 = try writeVersionOne()
        XCTAssertEqual(try survey(["docs", "new", "H", "--form", v1.path]).status, 0)
        let added = try survey(["add", "--doc", "H", "--set", "fname=Old", "--set", "lname=Timer", "--set", "age=40",
                                "--set", "region=north", "--set", "district=delta", "--set", "members=5",
                                "--set", "children=2", "--set", "phone=555 1234", "--set", "retired=kept word",
                                "--set", "confirm=OK"])
        XCTAssertEqual(added.status, 0, added.errors)
        let keyed = try XCTUnwrap(try record(0, in: "H"))
        let attach = try survey(["form", "attach", Self.packageRoot.appendingPathComponent("Examples/household.csv").path,
                                 "--doc", "H"])
        XCTAssertEqual(attach.status, 0, attach.errors)

        let app = try launch(["--dir", folder.path, "--doc", "H"], width: 120, height: 40)
        app.waitFor("Timer, Old")
        try app.press("Enter")                              // to the form
        try app.press("F4")
        let info = try XCTUnwrap(app.waitFor("Not in this form version", "retired: kept word"))
        XCTAssertTrue(info.contains("phone: 555 1234"), TmuxSession.framed(info))
        XCTAssertTrue(info.contains("district: delta"), TmuxSession.framed(info))
        try app.press("F4")
        app.waitFor("First name *")
        try app.press("Enter")                              // editing First name
        try app.type("a"); try app.press("Enter")           // "Olda", kept and on disk
        try app.press("Escape")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let edited = try XCTUnwrap(try record(0, in: "H"))
        XCTAssertEqual(edited["fname"], .string("Olda"))
        guard case .dictionary(var was) = keyed, case .dictionary(var now) = edited else {
            return XCTFail("not dictionaries: \(keyed) \(edited)")
        }
        was["fname"] = nil; now["fname"] = nil
        XCTAssertEqual(now, was, "every other answer as keyed with version 1")

        let export = try survey(["export", "--doc", "H", "--format", "json"])
        XCTAssertEqual(export.status, 0, export.errors)
        for text in ["\"district\" : \"delta\"", "\"phone\" : \"555 1234\"", "\"retired\" : \"kept word\"",
                     "\"region\" : \"north\"", "\"adults\" : \"3\"", "\"formVersion\" : \"2025010101\""] {
            XCTAssertTrue(export.output.replacingOccurrences(of: "\": ", with: "\" : ").contains(text), "\(text) in\n\(export.output)")
        }
    }
}
