import Foundation
import XCTest

/// One interview keyed in the real binary with the example household form beside the
/// document: heads-down Enter, the picker by digits, skip logic and a cascading choice, then
/// the record checked with plistlib.
final class QuestionnaireEndToEndTests: EndToEndTestCase {
    private func installHouseholdForm(as name: String) throws {
        let form = Self.packageRoot.appendingPathComponent("Examples/household.csv")
        try FileManager.default.copyItem(at: form, to: folder.appendingPathComponent("\(name).form.csv"))
        let empty = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array/></plist>"#
        try Data(empty.utf8).write(to: documentURL(name))
    }

    func testKeyingOneInterviewThroughSkipLogicAndACascadingChoice() throws {
        try installHouseholdForm(as: "Households")
        let app = try launch(["--dir", folder.path, "--doc", "Households"], width: 100, height: 30)
        app.waitFor("New survey · Household survey", "First name *")
        try app.press("Enter")
        try app.type("Ana"); try app.press("Enter")
        try app.type("Lima"); try app.press("Enter")
        try app.type("34"); try app.press("Enter")
        app.waitFor("┌─ Sex")
        try app.type("1")                                  // Female
        try app.type("1")                                  // agrees: the household group appears
        app.waitFor("┌─ Region", "1 North", "2 South")
        try app.type("2")
        let districts = try XCTUnwrap(app.waitFor("┌─ District", "1 Coast district", "2 Delta district"))
        XCTAssertFalse(districts.contains("Hill district"), "the north's districts are filtered out")
        try app.type("2")
        try app.type("Riverside"); try app.press("Enter")
        try app.type("5"); try app.press("Enter")
        try app.type("9"); try app.press("Enter")
        app.waitFor("Cannot be more than the people living here")
        try app.press("BSpace"); try app.type("2"); try app.press("Enter")
        app.waitFor("┌─ Drinking water sources")
        try app.type("2"); try app.type("5"); try app.press("Enter")   // Well, Other
        app.waitFor("Specify other.")
        try app.type("Bucket"); try app.press("Enter")
        try app.type("1.5"); try app.press("Enter")
        app.waitFor("┌─ Has a phone?")
        try app.type("2")                                  // no phone: its number is skipped
        try app.type("-1.28 36.82"); try app.press("Enter") // the geopoint, typed
        try app.type("2026-11-29"); try app.press("Enter")
        try app.type("09:30"); try app.press("Enter")
        app.waitFor("┌─ How did it go?")
        try app.type("1")
        try app.press("Enter")                             // no notes
        app.waitFor("┌─ Answers read back")
        try app.type("1")
        try app.press("Enter")                             // [ Add ]
        let added = try XCTUnwrap(app.waitFor("Added survey 1: Lima, Ana"))
        XCTAssertFalse(added.contains("Phone number"), "hidden:\n\(TmuxSession.framed(added))")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let saved = try records(in: "Households")
        XCTAssertEqual(saved.count, 1)
        let ana = try XCTUnwrap(saved.first)
        XCTAssertEqual(ana["fname"], .string("Ana"))
        XCTAssertEqual(ana["age"], .int(34), "integer as integer")
        XCTAssertEqual(ana["region"], .string("south"))
        XCTAssertEqual(ana["district"], .string("delta"))
        XCTAssertEqual(ana["children"], .int(2), "the refused 9 never reached the file")
        XCTAssertEqual(ana["adults"], .string("3"))
        XCTAssertEqual(ana["water"], .string("well other"))
        XCTAssertEqual(ana["water_other"], .string("Bucket"))
        XCTAssertEqual(ana["distance"], .real("1.5"), "decimal as real")
        XCTAssertNil(ana["phone"])
        XCTAssertEqual(ana["visit_date"], .string("2026-11-29"))
        XCTAssertEqual(ana["confirm"], .string("OK"))
        XCTAssertEqual(ana["formID"], .string("household"))
        XCTAssertEqual(ana["formVersion"], .string("2026113001"))
        guard case .string(let id)? = ana["instanceID"] else { return XCTFail("no instanceID: \(ana)") }
        XCTAssertTrue(id.hasPrefix("uuid:"), id)
    }

    /// Surveys keyed with the household form, whose form file is then lost: the real binary
    /// opens them read-only, names them by their answers, says how to attach the form again,
    /// refuses the New form, and leaves the file as it was.
    func testSurveysWhoseFormIsMissingOpenReadOnlyAndSayHowToAttachIt() throws {
        func survey(_ first: String, _ last: String, _ id: String) -> String {
            "<dict><key>fname</key><string>\(first)</string><key>formID</key><string>household</string>"
                + "<key>instanceID</key><string>uuid:\(id)-0000-4000-8000-000000000001</string>"
                + "<key>lname</key><string>\(last)</string></dict>"
        }
        let plist = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>"#
            + survey("Ana", "Lima", "aaaaaaaa") + survey("Bo", "Ng", "bbbbbbbb") + "</array></plist>"
        try Data(plist.utf8).write(to: documentURL("Households"))
        let before = try Data(contentsOf: documentURL("Households"))
        let app = try launch(["--dir", folder.path, "--doc", "Households"], width: 120, height: 24)
        let opened = try XCTUnwrap(app.waitFor("Households (read-only)", "Surveys (2)", "Ana, Lima", "Bo, Ng",
                                               "Read-only: The form (formID household) is missing"))
        XCTAssertFalse(opened.contains("(no name)"), TmuxSession.framed(opened))
        try app.press("C-n")
        app.waitFor("attach it with survey form attach FILE --doc Households")
        try app.press("Tab"); try app.press("Enter"); try app.type("x")
        try app.press("F4")
        app.waitFor("missing: the surveys were keyed with formID household")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        XCTAssertEqual(try Data(contentsOf: documentURL("Households")), before, "never written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".Households.draft.plist").path))
    }
}
