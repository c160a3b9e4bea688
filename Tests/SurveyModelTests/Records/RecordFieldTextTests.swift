import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A record's answers as the five fields' text: setting text stores the parsed value or
/// nothing, unknown keys stay untouched, blankness, and the list title `Last, First`.
final class RecordFieldTextTests: XCTestCase {
    private let standard = Questionnaire.standard
    private var age: FieldSpec { standard.field(forKey: "age")! }
    private var first: FieldSpec { standard.field(forKey: "firstName")! }
    private var phone: FieldSpec { standard.field(forKey: "phone")! }

    func testSetTextStoresParsedValues() {
        var record = Record()
        XCTAssertNil(record.setText("Zoë", for: first))
        XCTAssertNil(record.setText(" 35 ", for: age))
        XCTAssertNil(record.setText("", for: phone))
        XCTAssertEqual(record.values, ["firstName": .string("Zoë"), "age": .integer(35), "phone": .string("")])
        XCTAssertEqual(record.text(for: age), "35")
        XCTAssertNil(record.setText("", for: age))
        XCTAssertNil(record.values["age"], "empty age removes the key")
    }

    func testFailedSetTextLeavesRecordUnchanged() {
        var record = Record.sample(age: 30)
        let before = record
        XCTAssertEqual(record.setText("abc", for: age),
                       FieldError("Age must be a whole number from 0 to 150, or empty"))
        XCTAssertEqual(record.setText("a\u{1}", for: first), FieldError("First name cannot hold control characters"))
        XCTAssertEqual(record, before)
    }

    func testWrongTypedValueKeptUnlessEdited() {
        var record = Record(["age": .string("thirty"), "phone": .integer(5_551_234)])
        XCTAssertEqual(record.text(for: age), "thirty")
        XCTAssertEqual(record.text(for: phone), "5551234")
        // Submitting the form unchanged keeps both exactly.
        XCTAssertNil(record.setText("thirty", for: age))
        XCTAssertNil(record.setText("5551234", for: phone))
        XCTAssertEqual(record.values, ["age": .string("thirty"), "phone": .integer(5_551_234)])
        // Editing applies the rule.
        XCTAssertNotNil(record.setText("thirty one", for: age))
        XCTAssertEqual(record.values["age"], .string("thirty"))
        XCTAssertNil(record.setText("31", for: age))
        XCTAssertNil(record.setText("555-1234", for: phone))
        XCTAssertEqual(record.values, ["age": .integer(31), "phone": .string("555-1234")])
    }

    func testMissingTextFieldSetToEmptyStoresEmptyString() {
        var record = Record()
        XCTAssertNil(record.setText("", for: first))
        XCTAssertEqual(record.values["firstName"], .string(""))
    }

    func testUnknownKeysUntouchedBySetText() {
        var record = Record(everyTypeValues)
        XCTAssertNil(record.setText("New", for: first))
        var expected = everyTypeValues
        expected["firstName"] = .string("New")
        XCTAssertEqual(record.values, expected)
    }

    func testIsBlank() {
        XCTAssertTrue(Record().isBlank(in: standard))
        XCTAssertTrue(Record(everyTypeValues).isBlank(in: standard), "unknown keys are ignored")
        XCTAssertTrue(Record.sample(first: "", last: "", address: "", phone: "", age: nil).isBlank(in: standard))
        XCTAssertFalse(Record(["age": .integer(0)]).isBlank(in: standard))
        XCTAssertTrue(Record(["phone": .string(" "), "firstName": .string("\t\n")]).isBlank(in: standard),
                      "blanks are no answer, even in a file written before answers were trimmed")
        XCTAssertFalse(Record(["phone": .string(" 5 ")]).isBlank(in: standard))
        XCTAssertFalse(Record(["age": .string("thirty")]).isBlank(in: standard))
    }

    func testListTitle() {
        XCTAssertEqual(Record.sample(first: "John", last: "Smith").listTitle, "Smith, John")
        XCTAssertEqual(Record.sample(first: "John", last: "").listTitle, "John")
        XCTAssertEqual(Record.sample(first: "", last: "Smith").listTitle, "Smith")
        XCTAssertEqual(Record.sample(first: "", last: "").listTitle, "(no name)")
        XCTAssertEqual(Record().listTitle, "(no name)")
        XCTAssertEqual(Record.sample(first: "  ", last: " ").listTitle, "(no name)")
        XCTAssertEqual(Record.sample(first: "Mary\nAnn", last: " Lee ").listTitle, "Lee, Mary Ann")
        XCTAssertEqual(Record(["lastName": .integer(7)]).listTitle, "7")
    }

    /// Titles are built without Foundation now (plain ASCII as bytes, the rest by scalars);
    /// they must read as Foundation's `.whitespaces` trimming made them.
    func testListTitleTrimsAsFoundationDid() {
        let names = ["  Ana  ", "Ana", "", " ", "Zoë ", "\u{3000}太郎\u{3000}", " a\tb ", "\u{A0}Ümit\u{2003}",
                     "Mary\r\nAnn", " e\u{301} ", "x\u{200B}", "   spaced   out   "]
        for first in names {
            for last in names {
                let record = Record.sample(first: first, last: last)
                let old = { (text: String) -> String in
                    let flat = String(String.UnicodeScalarView(text.unicodeScalars.map {
                        $0.properties.isWhitespace || $0.value < 0x20 ? " " : $0 }))
                    return flat.trimmingCharacters(in: .whitespaces)
                }
                let (f, l) = (old(first), old(last))
                let expected = f.isEmpty && l.isEmpty ? "(no name)" : f.isEmpty ? l : l.isEmpty ? f : "\(l), \(f)"
                XCTAssertEqual(record.listTitle, expected, "first \(first.debugDescription), last \(last.debugDescription)")
                XCTAssertEqual(record.listTitle(limit: 40), expected)
            }
        }
        XCTAssertEqual(Record.sample(first: "  Alexandra", last: "Smith").listTitle(limit: 4), "Smit, Alex",
                       "leading blanks dropped, then cut at the limit")
    }
}
