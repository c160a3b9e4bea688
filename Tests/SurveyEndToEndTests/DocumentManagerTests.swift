import Foundation
import XCTest

/// The document manager (F3) in the real binary: create, rename, switch, delete the current
/// one, then quit and relaunch to find the last document open, in both layouts.
final class DocumentManagerTests: EndToEndTestCase {
    func testCreateRenameSwitchDeleteAndReopenTheLastOne() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        var app = try launch()
        app.waitFor("Survey — Seed", "Surveys (2)")

        // n: a new document, switched to at once.
        try app.press("F3")
        app.waitFor("Documents", "• Seed")
        try app.press("n")
        app.waitFor("Survey — Untitled", "Surveys (0)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: documentURL("Untitled").path))

        // r: rename it in place (current document follows its new name).
        try app.press("F3")
        app.waitFor("• Untitled")
        try app.press("r")
        for _ in 0..<8 { try app.press("BSpace") }
        try app.type("Market Street")
        try app.press("Enter")
        app.waitFor("Renamed “Untitled” to “Market Street”")
        try app.press("Escape")
        app.waitFor("Survey — Market Street")
        XCTAssertTrue(FileManager.default.fileExists(atPath: documentURL("Market Street").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: documentURL("Untitled").path))

        // Add a record to it, then switch back to Seed and to its second record.
        try app.press("C-n")
        try app.type("Ada")
        try app.press("Tab")
        try app.type("Lovelace")
        try app.press("Enter", "Enter", "Enter")   // heads-down: Last name kept, past Address and Phone
        try app.press("Enter")                     // past Age: the highlight rests on [ Add ]
        try app.press("Enter")
        app.waitFor("Added survey 1: Lovelace, Ada")
        try app.press("F3")
        app.waitFor("• Market Street")
        try app.press("Down", "Enter")
        app.waitFor("Survey — Seed", "1 of 2")
        try app.press("F2", "Down")
        app.waitFor("2 of 2")

        // Delete the current document (Seed): it asks, names it, then shows the neighbour.
        try app.press("F3")
        app.waitFor("• Seed")
        try app.press("d")
        app.waitFor("Delete “Seed” (2 records)?")
        try app.press("y")
        app.waitFor("Survey — Market Street", "Moved “Seed” (2 records) to the trash")
        XCTAssertFalse(FileManager.default.fileExists(atPath: documentURL("Seed").path))
        let trash = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".trash").path)
        XCTAssertTrue(trash.contains { $0.hasPrefix("Seed (deleted ") && $0.hasSuffix(").plist") }, "\(trash)")

        // u: it comes back; switch to it, quit, relaunch: Seed at record 2 again.
        try app.press("u")
        app.waitFor("Restored “Seed”")
        try app.press("End", "Enter")            // Market Street, Seed: Seed is last
        app.waitFor("Survey — Seed")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        app = try launch()
        app.waitFor("Survey — Seed", "1 of 2")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        // Market Street's record is on disk, readable by plistlib.
        let market = try records(in: "Market Street")
        XCTAssertEqual(market.count, 1)
        guard case .dictionary(let ada)? = market.first else { return XCTFail("no record") }
        XCTAssertEqual(ada["firstName"], .string("Ada"))
        XCTAssertEqual(ada["lastName"], .string("Lovelace"))
    }

    func testManagerInTheCollapsedLayoutAndRelaunchOpensTheLastDocument() throws {
        try installFixture("seed-serialized.xml", as: "Alpha")
        try installFixture("plistlib-unicode.plist", as: "Beta")
        var app = try launch(width: 60, height: 20)
        app.waitFor("[Surveys] Alpha")
        try app.press("F3")
        app.waitFor("Documents", "• Alpha", "Beta")
        try app.press("Down", "Enter")
        app.waitFor("[Surveys] Beta", "1 of 5")
        try app.press("Right", "Right")
        app.waitFor("3 of 5")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        app = try launch(width: 60, height: 20)
        app.waitFor("[Surveys] Beta", "3 of 5", "Zoë")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
    }
}
