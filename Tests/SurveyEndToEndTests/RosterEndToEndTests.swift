import Foundation
import XCTest

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
    }
}
