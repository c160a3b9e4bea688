import Foundation
import XCTest
import SurveyTestSupport

/// A household roster keyed in the real binary with Examples/roster.csv beside the
/// document: heads-down through two members and "Add another …? y/n", then the survey read
/// back with plistlib, the members nested as the file keeps them.
final class RosterEndToEndTests: EndToEndTestCase {
    func testKeyingARosterHeadsDownStoresEachMemberNested() throws {
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("Examples/roster.csv"),
                                         to: folder.appendingPathComponent("Roster.form.csv"))
        let empty = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array/></plist>"#
        try Data(empty.utf8).write(to: documentURL("Roster"))
        let app = try launch(["--dir", folder.path, "--doc", "Roster"], width: 100, height: 30)
        app.waitFor("New survey · Household roster", "Village *")
        try app.press("Enter")
        try app.type("Kibera"); try app.press("Enter")
        app.waitFor("Add a Household member? y/n")
        try app.type("y")
        app.waitFor("1 of 1")
        try app.type("Ana"); try app.press("Enter")
        try app.type("34"); try app.press("Enter")
        app.waitFor("Add another Household member? y/n")
        try app.type("y")
        app.waitFor("2 of 2")
        try app.type("Bo"); try app.press("Enter")
        try app.type("12"); try app.press("Enter")
        app.waitFor("┌─ Goes to school?")
        try app.type("1")
        app.waitFor("Add another Household member? y/n")
        try app.type("n")
        try app.press("Enter")                             // no notes: on to [ Add ]
        try app.press("Enter")                             // [ Add ]
        app.waitFor("Added survey 1")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let saved = try records(in: "Roster")
        XCTAssertEqual(saved.count, 1)
        let survey = try XCTUnwrap(saved.first)
        XCTAssertEqual(survey["village"], .string("Kibera"))
        XCTAssertNil(survey["name"], "no member's answer at the top level")
        guard case .array(let members)? = survey["member"] else { return XCTFail("no member list: \(survey)") }
        XCTAssertEqual(members.count, 2)
        guard case .dictionary(let ana) = members[0], case .dictionary(let bo) = members[1] else { return XCTFail("\(members)") }
        XCTAssertEqual(ana["name"], .string("Ana"))
        XCTAssertEqual(ana["age"], .int(34))
        XCTAssertNil(ana["school"])
        XCTAssertEqual(bo["name"], .string("Bo"))
        XCTAssertEqual(bo["school"], .string("yes"))
        XCTAssertEqual(survey["formID"], .string("roster"))

        // ODK's CSV set: the members' table joins back to the survey by PARENT_KEY (an
        // analyst's script, not survey's reader), and the set imports into a new document.
        let set = folder.deletingLastPathComponent().appendingPathComponent("roster-set")
        let exported = try ChildProcess.run([Self.binaryPath, "--dir", folder.path, "export", "--doc", "Roster",
                                             "--format", "odk-csv", "--output", set.path])
        XCTAssertEqual(exported.status, 0, exported.errors)
        XCTAssertEqual(try ODKCSVJoin.compare(set: set, main: "roster", with: documentURL("Roster")),
                       ["joined 1 surveys, 2 members"])
        try FileManager.default.copyItem(at: folder.appendingPathComponent("Roster.form.csv"),
                                         to: folder.appendingPathComponent("Back.form.csv"))
        try Data(empty.utf8).write(to: documentURL("Back"))
        let imported = try ChildProcess.run([Self.binaryPath, "--dir", folder.path, "import", set.path, "--doc", "Back",
                                             "--format", "odk-csv"])
        XCTAssertEqual(imported.status, 0, imported.errors)
        XCTAssertEqual(try records(in: "Back"), saved)
    }

    /// Correcting a stored roster from paper in the real binary (issue 27): the age typed over
    /// a member's answer replaces it, Enter goes on to the next member (no "Add another?" in
    /// the middle), and a member added with ^O and left with Ctrl-Q is in no file.
    func testCorrectingAMemberAndAnEmptyNewMemberLeaveTheRightFile() throws {
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("Examples/roster.csv"),
                                         to: folder.appendingPathComponent("Roster.form.csv"))
        let stored = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><dict>\
            <key>instanceID</key><string>uuid:k</string><key>member</key><array>\
            <dict><key>age</key><integer>40</integer><key>name</key><string>Ana</string></dict>\
            <dict><key>age</key><integer>12</integer><key>name</key><string>Bo</string><key>school</key><string>yes</string></dict>\
            <dict><key>age</key><integer>9</integer><key>name</key><string>Cy</string><key>school</key><string>yes</string></dict>\
            </array><key>people</key><string>3</string><key>village</key><string>Kibera</string></dict></array></plist>
            """
        try Data(stored.utf8).write(to: documentURL("Roster"))
        let app = try launch(["--dir", folder.path, "--doc", "Roster"], width: 100, height: 30)
        app.waitFor("Household member", "1 of 3")
        try app.press("Enter")                             // the list's survey, on the form
        try app.press("Down", "Down")                      // Village, the heading, Ana's name
        try app.press("PageDown")
        app.waitFor("2 of 3", "Bo")
        try app.press("Down")                              // Bo's age
        try app.type("41")
        app.waitForField("Age *", "41")
        try app.press("Enter")                             // keep it (school is not asked at 41):
        app.waitFor("3 of 3")                              // on to Cy, not "Add another?"
        let screen = try app.screen()
        XCTAssertFalse(screen.contains("Add another"), screen)
        try app.press("Escape")
        try app.press("C-o")                               // a new member, then straight out
        app.waitFor("4 of 4")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        let saved = try XCTUnwrap(try records(in: "Roster").first)
        guard case .array(let members)? = saved["member"] else { return XCTFail("no member list: \(saved)") }
        XCTAssertEqual(members.count, 3, "no empty member was stored")
        guard case .dictionary(let bo) = members[1] else { return XCTFail("\(members)") }
        XCTAssertEqual(bo["name"], .string("Bo"))
        XCTAssertEqual(bo["age"], .int(41), "41 typed over 12, not 1241")
    }
}
