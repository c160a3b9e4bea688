import Foundation
import XCTest
@testable import SurveyModel

final class RecordTests: XCTestCase {
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
}
