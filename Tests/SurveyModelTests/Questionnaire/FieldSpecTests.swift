import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class FieldSpecTests: XCTestCase {
    private let standard = Questionnaire.standard
    private var age: FieldSpec { standard.field(forKey: "age")! }
    private var first: FieldSpec { standard.field(forKey: "firstName")! }
    private let ageError = FieldError("Age must be a whole number from 0 to 150, or empty")

    func testStandardQuestionnaire() {
        XCTAssertEqual(standard.fields.map(\.key), ["firstName", "lastName", "address", "phone", "age"])
        XCTAssertEqual(standard.fields.map(\.label), ["First name", "Last name", "Address", "Phone", "Age"])
        XCTAssertEqual(standard.fields.map(\.kind), [
            .text(maxLength: 100), .text(maxLength: 100), .text(maxLength: 200),
            .text(maxLength: 40), .wholeNumber(0...150),
        ])
        XCTAssertEqual(age.info, "If the survey taker refuses, that is okay")
        XCTAssertTrue(standard.fields.allSatisfy { !$0.info.isEmpty })
        XCTAssertNil(standard.field(forKey: "notes"))
    }

    func testAgeBoundaries() {
        XCTAssertEqual(age.parse("-1"), .failure(ageError))
        XCTAssertEqual(age.parse("0"), .success(.integer(0)))
        XCTAssertEqual(age.parse("150"), .success(.integer(150)))
        XCTAssertEqual(age.parse("151"), .failure(ageError))
        XCTAssertEqual(age.parse(" 42 "), .success(.integer(42)))
        XCTAssertEqual(age.parse("\t42\n"), .success(.integer(42)))
        XCTAssertEqual(age.parse("042"), .success(.integer(42)))
        XCTAssertEqual(age.parse(""), .success(nil))
        XCTAssertEqual(age.parse("   "), .success(nil))
        for bad in ["4.5", "abc", "+4", "4 5", "1e2", "٤٢", "99999999999999999999999", "-0"] {
            XCTAssertEqual(age.parse(bad), .failure(ageError), bad)
        }
        XCTAssertEqual(ageError.description, "Age must be a whole number from 0 to 150, or empty")
    }

    func testWholeNumberMessageFollowsLabelAndRange() {
        let floor = FieldSpec(key: "floor", label: "Floor", kind: .wholeNumber(-3...20), info: "")
        XCTAssertEqual(floor.parse("-3"), .success(.integer(-3)))
        XCTAssertEqual(floor.parse("-4"), .failure(FieldError("Floor must be a whole number from -3 to 20, or empty")))
    }

    func testTextKeptAsTypedButForBlanksAround() {
        for field in standard.fields where field.key != "age" {
            XCTAssertEqual(field.parse("  José\tNúñez  "), .success(.string("José\tNúñez")), field.key)
            XCTAssertEqual(field.parse("\n\t a\nb\r\nc \r\n"), .success(.string("a\nb\r\nc")), field.key)
            XCTAssertEqual(field.parse(""), .success(.string("")), field.key)
            XCTAssertEqual(field.parse("   "), .success(.string("")), "\(field.key): blanks are no answer")
            XCTAssertEqual(field.parse("\u{3000}\u{A0}"), .success(.string("")), "\(field.key): wide and no-break spaces too")
        }
        // The limit counts what is stored; a control character is refused even at the edge.
        XCTAssertEqual(first.parse(" " + String(repeating: "x", count: 100) + " "), .success(.string(String(repeating: "x", count: 100))))
        XCTAssertEqual(first.parse("Ana\u{85}").failureMessage, "First name cannot hold control characters")
    }

    func testTextRefusesControlCharacters() {
        for field in standard.fields where field.key != "age" {
            let error = FieldError("\(field.label) cannot hold control characters")
            for bad in ["a\u{0}", "\u{1}", "x\u{1B}[31m", "\u{FFFE}", "\u{FFFF}", "del\u{7F}", "c1\u{9B}"] {
                XCTAssertEqual(field.parse(bad), .failure(error), "\(field.key) \(bad.debugDescription)")
            }
        }
        XCTAssertEqual(first.parse("x\u{1}").failureMessage, "First name cannot hold control characters")
    }

    func testTextLengthLimitsCountCharacters() {
        let limits = ["firstName": 100, "lastName": 100, "address": 200, "phone": 40]
        for (key, limit) in limits {
            let field = standard.field(forKey: key)!
            XCTAssertEqual(field.parse(String(repeating: "é", count: limit)),
                           .success(.string(String(repeating: "é", count: limit))), key)
            XCTAssertEqual(field.parse(String(repeating: "x", count: limit + 1)),
                           .failure(FieldError("\(field.label) is limited to \(limit) characters")), key)
        }
        // A flag emoji is one character though several scalars.
        XCTAssertNotNil(try? first.parse(String(repeating: "🇵🇹", count: 100)).get())
    }

    func testDisplayTextOfAnyStoredType() {
        XCTAssertEqual(age.displayText(nil), "")
        XCTAssertEqual(age.displayText(.integer(35)), "35")
        XCTAssertEqual(age.displayText(.string("thirty")), "thirty")
        XCTAssertEqual(age.displayText(.real(4.5)), "4.5")
        XCTAssertEqual(age.displayText(.bool(true)), "true")
        XCTAssertEqual(first.displayText(.date(Date(timeIntervalSince1970: 0))), "1970-01-01T00:00:00Z")
        XCTAssertEqual(first.displayText(.data(Data([1, 2]))), "(data, 2 bytes)")
        XCTAssertEqual(first.displayText(.array([.string("a")])), "(list of 1 item)")
        XCTAssertEqual(first.displayText(.dictionary([:])), "(dictionary of 0 entries)")
    }

    func testAccepts() {
        XCTAssertTrue(age.accepts(nil))
        XCTAssertTrue(age.accepts(.integer(0)))
        XCTAssertTrue(age.accepts(.integer(150)))
        XCTAssertFalse(age.accepts(.integer(151)))
        XCTAssertFalse(age.accepts(.integer(-1)))
        XCTAssertFalse(age.accepts(.string("30")))
        XCTAssertFalse(age.accepts(.real(30)))
        XCTAssertTrue(first.accepts(nil))
        XCTAssertTrue(first.accepts(.string("")))
        XCTAssertFalse(first.accepts(.string(String(repeating: "x", count: 101))))
        XCTAssertFalse(first.accepts(.string("a\u{1}")))
        XCTAssertFalse(first.accepts(.integer(5)))
    }
}

extension Result where Failure == FieldError {
    var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
