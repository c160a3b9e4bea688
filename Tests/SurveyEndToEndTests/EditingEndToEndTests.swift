import Foundation
import XCTest

/// Typing into fields, refusing a bad age, and adding records, checked on screen and then in
/// the file with plistlib (every committed change is written at once).
final class EditingEndToEndTests: EndToEndTestCase {
    func testAddingTwoRecordsAppendsThemToTheFile() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let seed = try records(in: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")

        // ^N: the New form, editing First name; Tab keeps each field and edits the next.
        try app.press("C-n")
        app.waitUntil("the top bar shows New") { ScreenText.lines($0)[0].contains("New") }
        app.waitForRecord("", "", "", "", "")
        XCTAssertTrue(try app.cursor().visible, "editing First name shows the caret")
        try enter(app, "Ada", "Lovelace", "12 St James's Square", "555-0101", "36")
        app.waitFor("Added survey 3: Lovelace, Ada", "Surveys (3)", "3 of 3")
        app.waitForRecord("Ada", "Lovelace", "12 St James's Square", "555-0101", "36")
        XCTAssertEqual(try records(in: "Seed").count, 3, "the record is written as soon as it is added")

        try app.press("C-n")
        app.waitUntil("the top bar shows New") { ScreenText.lines($0)[0].contains("New") }
        try enter(app, "Grace", "Hopper", "1 Navy Yard", "555-0102", "85")
        let screen = try XCTUnwrap(app.waitFor("Added survey 4: Hopper, Grace", "Surveys (4)", "4 of 4"))

        let rows = ["Smith, John", "Jones, Doris", "Lovelace, Ada", "Hopper, Grace"]
            .map { ScreenText.row(containing: $0, in: screen)?.index ?? -1 }
        XCTAssertFalse(rows.contains(-1), "every record is listed:\n\(TmuxSession.framed(screen))")
        XCTAssertEqual(rows, rows.sorted(), "new records are listed last, in order")

        let saved = try records(in: "Seed")
        XCTAssertEqual(saved.count, 4)
        assertInstanceIDs(saved)
        XCTAssertEqual(saved.prefix(2).map(\.withoutInstanceID), seed, "the seed records are untouched but for their new ids")
        XCTAssertEqual(saved.dropFirst(2).first?.withoutInstanceID, .survey(first: "Ada", last: "Lovelace",
                                                         address: "12 St James's Square", phone: "555-0101", age: 36))
        XCTAssertEqual(saved.last?.withoutInstanceID, .survey(first: "Grace", last: "Hopper",
                                           address: "1 Navy Yard", phone: "555-0102", age: 85))
    }

    func testAnAgeOutOfRangeIsRefusedAndTheTypedTextKept() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")
        try app.press("Enter", "Down", "Down", "Down", "Down", "Enter")   // edit Age
        let editing = try XCTUnwrap(app.waitUntil("the caret is shown") { _ in (try? self.caretIsShown(app)) == true })
        let ageRow = try XCTUnwrap(ScreenText.row(containing: "Age  20", in: editing))
        let caret = try app.cursor()
        XCTAssertEqual(caret.y, ageRow.index, "the caret is on the Age row")
        XCTAssertEqual(caret.x, try XCTUnwrap(endColumn(of: "Age  20", in: ageRow.line)), "the caret is at the end")

        try app.type("0")
        app.waitForField("Age", "200")
        try app.press("Enter")
        let message = "Age must be a whole number from 0 to 150, or empty"
        let refused = try XCTUnwrap(app.waitFor(message))
        XCTAssertEqual(statusLine(of: refused, height: 40), message, "the status line says exactly why")
        XCTAssertEqual(ScreenText.formValue("Age", in: refused), "200", "the typed text stays")
        XCTAssertTrue(try app.cursor().visible, "editing goes on")
        XCTAssertEqual(try record(0, in: "Seed")?["age"], .int(20), "nothing refused is written")

        // Still editing: fix it and keep it.
        try app.press("BSpace", "BSpace")
        try app.type("5")
        app.waitForField("Age", "25")
        app.waitForAbsence(of: message)
        try app.press("Enter")                // Age is the last field: the highlight goes to [ Add ]
        app.waitUntil("the caret is hidden") { _ in (try? self.caretIsShown(app)) == false }
        XCTAssertEqual(try record(0, in: "Seed")?["age"], .int(25), "a whole number age is saved as an integer")

        // The bounds: 151 is refused, 150 kept, and an empty age is allowed.
        try app.press("Up", "Up", "Enter", "BSpace", "BSpace")   // from [ Add ] back up to Age
        try app.type("151")
        try app.press("Enter")
        app.waitFor(message)
        try app.press("BSpace")
        try app.type("0")
        app.waitForField("Age", "150")
        try app.press("Enter")
        app.waitUntil("the caret is hidden") { _ in (try? self.caretIsShown(app)) == false }
        XCTAssertEqual(try record(0, in: "Seed")?["age"], .int(150))
        try app.press("Up", "Up", "Enter", "BSpace", "BSpace", "BSpace")
        app.waitForField("Age", "")
        try app.press("Enter")
        app.waitUntil("the caret is hidden") { _ in (try? self.caretIsShown(app)) == false }
        app.waitForAbsence(of: message)
        XCTAssertNil(try record(0, in: "Seed")?["age"], "an empty age is no age")
        XCTAssertEqual(try records(in: "Seed").count, 2)
    }

    func testCaretKeysEditAndEscapeRestores() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let original = try Data(contentsOf: documentURL("Seed"))
        let app = try launch()
        app.waitFor("Surveys (2)")
        try app.press("Enter", "Down", "Down", "Enter")   // edit Address, caret at the end
        try app.press("Home")
        try app.type("Flat 2, ")
        app.waitForField("Address", "Flat 2, 123 Any St.")
        try app.press("End", "BSpace", "BSpace", "BSpace")
        try app.type("Road")
        app.waitForField("Address", "Flat 2, 123 Any Road")
        try app.press("Home", "DC", "DC", "DC", "DC", "DC", "Right", "Right", "DC")
        app.waitForField("Address", "2,123 Any Road")
        try app.press("Escape")
        app.waitForField("Address", "123 Any St.")
        app.waitUntil("the caret is hidden") { _ in (try? self.caretIsShown(app)) == false }
        XCTAssertEqual(try Data(contentsOf: documentURL("Seed")), original, "Esc writes nothing")

        // Typing on a highlighted field replaces its answer (issue 27); a caret key first
        // edits it in place; ↓ keeps the value and edits the next, its answer selected.
        try app.type("9 Elm St.")
        app.waitForField("Address", "9 Elm St.")
        try app.press("Left", "Left", "Left")
        try app.type("Main ")
        app.waitForField("Address", "9 Elm Main St.")
        try app.press("Down")
        try app.press("End")
        try app.type("9")
        app.waitForField("Phone", "555-12349")
        XCTAssertEqual(try record(0, in: "Seed")?["address"], .string("9 Elm Main St."))

        // ↑ and Shift-Tab keep the value too, and the field they land on arrives selected:
        // typing replaces it.
        try app.press("Up")
        try app.type("?")
        app.waitForField("Address", "?")
        XCTAssertEqual(try record(0, in: "Seed")?["phone"], .string("555-12349"))
        try app.press("BTab", "BTab")
        try app.press("End")
        try app.type("n")
        app.waitForField("First name", "Johnn")
        XCTAssertEqual(try record(0, in: "Seed")?["address"], .string("?"))
        try app.press("Escape")
        app.waitForField("First name", "John")
        app.waitUntil("the caret is hidden") { _ in (try? self.caretIsShown(app)) == false }
        XCTAssertEqual(try record(0, in: "Seed")?["firstName"], .string("John"))
        XCTAssertEqual(try record(0, in: "Seed")?["lastName"], .string("Smith"), "passing through a field changes nothing")
    }

    // MARK: - Helpers

    /// Types the five fields of the New form with Tab between them, then Tab to [ Clear ],
    /// Tab to [ Add ] and Enter.
    private func enter(_ app: TmuxSession, _ values: String...) throws {
        for (i, value) in values.enumerated() {
            if i > 0 { try app.press("Tab") }
            try app.type(value)
        }
        try app.press("Tab", "Tab", "Enter")
    }

    private func caretIsShown(_ app: TmuxSession) throws -> Bool {
        try app.cursor().visible
    }

    /// The column just after `text` in `line` (the screen is ASCII there).
    private func endColumn(of text: String, in line: String) -> Int? {
        guard let range = line.range(of: text) else { return nil }
        return line.distance(from: line.startIndex, to: range.upperBound)
    }

    /// The status line: the row above the key bar.
    private func statusLine(of screen: String, height: Int) -> String {
        let lines = ScreenText.lines(screen)
        guard lines.count >= height - 1 else { return "" }
        return lines[height - 2].trimmingCharacters(in: .whitespaces)
    }
}
