import Foundation
import XCTest
import SurveyTestSupport

/// Issue 32's follow-up visit in the real binary: a household registered with [ Add ] in one
/// document is in `households.csv` beside the documents at once, and the follow-up form of
/// another document, opened next, offers it.
final class EntitiesEndToEndTests: EndToEndTestCase {
    func testARegisteredHouseholdIsOfferedByTheFollowUpForm() throws {
        let registration = """
            | survey |
            | | type | name | label | save_to |
            | | text | head | Head of household | |
            | | text | phone | Phone | phone |
            | entities |
            | | list_name | label |
            | | households | concat('Household of ', ${head}) |
            """
        let followUp = """
            | survey |
            | | type | name | label |
            | | select_one_from_file households.csv | hh | Household visited |
            | | text | note | Note |
            """
        let empty = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array/></plist>"#
        for (name, form) in [("Register", registration), ("Visits", followUp)] {
            try Data(form.utf8).write(to: folder.appendingPathComponent("\(name).form.md"))
            try Data(empty.utf8).write(to: documentURL(name))
        }

        let app = try launch(["--dir", folder.path, "--doc", "Register"], width: 100, height: 30)
        app.waitFor("Head of household")
        try app.press("C-n")
        try app.type("Ana Lima"); try app.press("Enter")
        try app.type("555 0101"); try app.press("Enter")
        try app.press("Enter")
        app.waitFor("Added survey 1")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        let list = try String(contentsOf: folder.appendingPathComponent("households.csv"), encoding: .utf8)
        XCTAssertTrue(list.hasPrefix("name,label,__version,phone\r\n"), list)
        XCTAssertTrue(list.contains(",Household of Ana Lima,1,555 0101\r\n"), list)

        let visit = try launch(["--dir", folder.path, "--doc", "Visits"], width: 100, height: 30)
        visit.waitFor("Household visited")
        try visit.press("C-n")
        visit.waitFor("Household of Ana Lima")
        try visit.press("Escape")
        try visit.press("C-q")
        _ = visit.waitForExit()
    }
}
