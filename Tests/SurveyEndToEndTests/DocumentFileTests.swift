import Foundation
import XCTest

/// Quitting, and what reaches the disk: unknown keys and the other records kept as they were,
/// an unreadable file never written, a new folder given an empty document, --doc.
final class DocumentFileTests: EndToEndTestCase {
    func testControlQQuitsWithStatusZeroAndRestoresTheTerminal() throws {
        try assertQuits(with: "C-q")
    }

    func testControlCQuitsWithStatusZeroAndRestoresTheTerminal() throws {
        try assertQuits(with: "C-c")
    }

    private func assertQuits(with key: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let original = try Data(contentsOf: documentURL("Seed"))
        let app = try launch()
        app.waitFor("Surveys (2)", file: file, line: line)
        try app.press(key)
        XCTAssertEqual(app.waitForExit(file: file, line: line), 0, "exit status", file: file, line: line)
        // endwin: back from the alternate screen, caret shown, keypad and mouse reporting off…
        XCTAssertEqual(try app.format("alt=#{alternate_on} caret=#{cursor_flag} keypad=#{keypad_cursor_flag} "
                                      + "mouse=#{mouse_any_flag}#{mouse_standard_flag}#{mouse_button_flag}"),
                       "alt=0 caret=1 keypad=0 mouse=000", "the terminal is restored", file: file, line: line)
        XCTAssertFalse(try app.screen().contains("Surveys (2)"), "the app's screen is gone", file: file, line: line)
        // …and the line discipline back in cooked mode with echo (raw mode turns these off).
        let modes = Set(try app.terminalModesAfterExit()
            .components(separatedBy: CharacterSet(charactersIn: " ;\n")))
        for mode in ["icanon", "echo", "isig", "icrnl", "opost", "onlcr", "ixon"] {
            XCTAssertTrue(modes.contains(mode), "stty shows \(mode) after the app exits", file: file, line: line)
        }
        XCTAssertEqual(try Data(contentsOf: documentURL("Seed")), original, "quitting without a change leaves the file as it was",
                       file: file, line: line)
    }

    func testEditingOneFieldKeepsUnknownKeysAndOtherRecords() throws {
        try installFixture("plistlib-unicode.plist", as: "Unicode")
        let before = try records(in: "Unicode")
        guard before.count == 5 else { return XCTFail("the fixture has 5 records, plistlib read \(before.count)") }
        let app = try launch()
        app.waitFor("Surveys (5)", "Núñez, José", "山田, 美咲", "O'Brien, Zoë", "Lima, Ana", "Haddad, Omar")

        try app.press("End")
        app.waitForRecord("Omar", "Haddad", "", "555-0100", "0")
        app.waitFor("5 of 5")
        try app.press("Enter", "Down", "Down", "Enter")   // edit Address
        try app.type("Place de l'Étoile 1, Paris")
        app.waitForField("Address", "Place de l'Étoile 1, Paris")
        try app.press("Enter", "Escape")                  // kept, on to Phone; Esc stops there
        app.waitUntil("the caret is hidden") { _ in (try? app.cursor().visible) == false }
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let after = try records(in: "Unicode")
        guard after.count == 5 else { return XCTFail("5 records expected after the edit, got \(after)") }
        assertInstanceIDs(after)
        XCTAssertEqual(after.prefix(4).map(\.withoutInstanceID), Array(before.prefix(4)),
                       "the other records are identical but for the id the first save gives them")
        guard case .dictionary(var expected) = before[4] else { return XCTFail("record 5 is not a dictionary") }
        expected["address"] = .string("Place de l'Étoile 1, Paris")
        XCTAssertEqual(after[4].withoutInstanceID, .dictionary(expected), "only the edited field changed")
        XCTAssertEqual(after[4]["notes"], .string("kept by other tools"))
        XCTAssertEqual(after[4]["tags"], .array([.string("pilot"), .string("wave-2")]))
        XCTAssertEqual(after[4]["age"], .int(0))
    }

    func testAFileThatIsNotAPropertyListIsShownAndNeverWritten() throws {
        let garbage = Data([0x00, 0x01, 0xFF, 0xFE] + Array("this is not a property list\n".utf8) + [0xC3, 0x28])
        try garbage.write(to: documentURL("Broken"))
        let app = try launch()
        app.waitFor("Cannot read Broken.plist")

        // Keys that would change a document do nothing; F1 still answers.
        try app.press("C-n", "Enter", "Tab", "F2")
        try app.type("x")
        try app.press("F1")
        app.waitFor("This document cannot be read")
        try app.press("Escape")
        app.waitForAbsence(of: "This document cannot be read")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        XCTAssertEqual(try Data(contentsOf: documentURL("Broken")), garbage, "the bytes are unchanged")
        XCTAssertEqual(try folderContents(), ["Broken.plist"], "no other file was written")
    }

    /// A first document nested 10,000 arrays deep crashed the app at start (SIGSEGV in
    /// Foundation's recursive reader); it is now shown as unreadable, with why, and the app
    /// runs: the next document opens, and the deep file is never written.
    func testAFirstDocumentNestedTenThousandDeepIsShownAndTheAppRuns() throws {
        let deep = Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
            + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000) + "\n</plist>\n").utf8)
        try deep.write(to: documentURL("Deep"))
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Cannot read Deep.plist")
        app.waitFor("nesting deeper than 512 levels")
        try app.press("F3")
        app.waitFor("Seed")
        try app.press("Down", "Enter")
        app.waitFor("Surveys (2)")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        XCTAssertEqual(try Data(contentsOf: documentURL("Deep")), deep, "the bytes are unchanged")
    }

    func testAMissingFolderIsCreatedWithAnEmptyUntitledDocument() throws {
        let fresh = folder.appendingPathComponent("fresh/sub", isDirectory: true)
        let app = try launch(["--dir", fresh.path])
        app.waitFor("Survey — Untitled", "Surveys (0)")
        let untitled = fresh.appendingPathComponent("Untitled.plist")
        XCTAssertEqual(try Plistlib.load(untitled), .array([]), "Untitled.plist is an empty array at once")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        XCTAssertEqual(try Plistlib.load(untitled), .array([]))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fresh.path), ["Untitled.plist"])
    }

    func testDocOpensOrCreatesTheNamedDocument() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let original = try Data(contentsOf: documentURL("Seed"))
        let created = try launch(["--dir", folder.path, "--doc", "Field Day"])
        created.waitFor("Survey — Field Day", "Surveys (0)")
        XCTAssertEqual(try Plistlib.load(documentURL("Field Day")), .array([]))
        try created.press("C-q")
        XCTAssertEqual(created.waitForExit(), 0)

        let existing = try launch(["--dir", folder.path, "--doc", "Seed"])
        existing.waitFor("Survey — Seed", "Surveys (2)", "Smith, John")
        try existing.press("C-q")
        XCTAssertEqual(existing.waitForExit(), 0)
        XCTAssertEqual(try Data(contentsOf: documentURL("Seed")), original)
        XCTAssertEqual(try folderContents(), ["Field Day.plist", "Seed.plist"])
    }
}
