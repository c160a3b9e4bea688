import Foundation
import XCTest
import SurveyTestSupport

/// Issue 30's double entry in the real binary: `survey verify --every 2` chooses the 1st and
/// 3rd plots, and in a tmux pane `v` verifies the first chosen one with the fields blank: the
/// plot the same, the trees keyed 13 twice (a keyer error, replaced in the file), the slope
/// 8 then the stored 5 (a verifier error); `survey stats` then counts them.
final class VerifyEndToEndTests: EndToEndTestCase {
    private func cli(_ arguments: String...) throws -> ChildOutcome {
        try ChildProcess.run([Self.binaryPath, "--dir", folder.path] + arguments,
                             environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC", "SURVEY_USERNAME": "boss"])
    }

    func testVerifyingAChosenPlot() throws {
        try Data("survey,,,\n,type,name,label\n,text,plot,Plot\n,integer,trees,Trees\n,integer,slope,Slope\n".utf8)
            .write(to: folder.appendingPathComponent("Plots.form.csv"))
        func plot(_ n: Int) -> String {
            "<dict><key>instanceID</key><string>uuid:plot-\(n)</string><key>plot</key><string>P\(n)</string>"
                + "<key>slope</key><integer>5</integer><key>trees</key><integer>12</integer></dict>"
        }
        let plist = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>"#
            + (1...3).map(plot).joined() + "</array></plist>"
        try Data(plist.utf8).write(to: documentURL("Plots"))
        let chose = try cli("verify", "--doc", "Plots", "--every", "2")
        XCTAssertEqual(chose.status, 0, chose.errors)
        XCTAssertTrue(chose.output.hasPrefix("Chose 2 surveys of 3 for verification"), chose.output)

        let app = try launch(["--dir", folder.path, "--doc", "Plots"], width: 100, height: 30)
        app.waitFor("P1")
        try app.type("v")
        let blank = try XCTUnwrap(app.waitFor("Verify “P1” · 1 of 3", "Plot"))
        XCTAssertFalse(blank.contains("12"), "no stored answer beside the blank field:\n\(TmuxSession.framed(blank))")
        try app.type("P1"); try app.press("Enter")
        app.waitFor("Verify “P1” · 2 of 3", "Trees")
        try app.type("13"); try app.press("Enter")
        app.waitFor("key it again")
        try app.press("Tab")
        app.waitFor("Stored: 12", "First try: 13")
        try app.type("13"); try app.press("Enter")
        app.waitFor("Replaced Trees", "a keyer error")
        try app.type("8"); try app.press("Enter")
        try app.type("5"); try app.press("Enter")
        app.waitFor("next: “P3”", "Verify “P3” · 1 of 3")
        try app.press("Escape")
        app.waitFor("v on the list resumes it")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let saved = try records(in: "Plots")
        XCTAssertEqual(saved[0]["trees"], .integer("13"))
        XCTAssertEqual(saved[0]["slope"], .integer("5"))
        XCTAssertEqual(saved[2]["trees"], .integer("12"))
        let listed = try cli("verify", "--doc", "Plots")
        XCTAssertTrue(listed.output.contains("uuid:plot-1  verified"), listed.output)
        XCTAssertTrue(listed.output.contains("uuid:plot-3  waiting"), listed.output)
        let stats = try cli("stats", "--doc", "Plots", "--format", "csv")
        XCTAssertEqual(stats.status, 0, stats.errors)
        // CSV lines end in CR LF (RFC 4180).
        let rows = stats.output.components(separatedBy: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // Surveys keyed before the app recorded who: their keyer is not recorded.
        let keyer = try XCTUnwrap(rows.first { $0.first == "(not recorded)" }, stats.output)
        XCTAssertEqual(keyer[7...8], ["3", "1"], "three fields verified, one keyer error")
        let verifier = try XCTUnwrap(rows.first { $0.count > 1 && $0.first != "login" && $0.first != "(not recorded)" }, stats.output)
        XCTAssertEqual(verifier[10...11], ["3", "1"], "three verified by the verifier, one slip")
    }
}
