import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `Questionnaire.checkImport`: the form's rules applied to incoming records, row by row.
final class ImportCheckTests: XCTestCase {
    private let questionnaire = Questionnaire.standard
    private let ageRule = "Age must be a whole number from 0 to 150, or empty"

    func testStringsAreReadAsTypedText() {
        let check = questionnaire.checkImport([
            Record(["firstName": .string(" Ana "), "age": .string(" 35 ")]),
            Record(["lastName": .string("Lima"), "age": .string("")]),
        ], clock: .wall)
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.records, [
            Record(["firstName": .string("Ana"), "age": .integer(35)]),
            Record(["lastName": .string("Lima")]),
        ])
    }

    func testEveryProblemOfEveryRowIsListedInOrder() {
        let check = questionnaire.checkImport([
            Record.sample(),
            Record(["firstName": .string("A\u{1B}[2J"), "phone": .string(String(repeating: "9", count: 41)),
                    "age": .string("151")]),
            Record(["lastName": .string("B"), "age": .string("abc")]),
            Record(["lastName": .string("C"), "age": .integer(-1)]),
            Record(["address": .string(""), "notes": .string("only a note")]),
        ], places: [.row(2), .row(3), .row(5), .row(6), .row(7)], clock: .wall)
        XCTAssertEqual(check.problems.map(\.description), [
            "row 3: firstName \"A\u{1B}[2J\": First name cannot hold control characters",
            "row 3: phone \"9999999999999999999999999999999999999999…\": Phone is limited to 40 characters",
            "row 3: age \"151\": \(ageRule)",
            "row 5: age \"abc\": \(ageRule)",
            "row 6: age -1: \(ageRule)",
            "row 7: every answer is empty",
        ])
    }

    func testWithoutPlacesRecordsAreNumberedFromOne() {
        let check = questionnaire.checkImport([Record.sample(), Record(["age": .string("a \"b\"\tc\r\nd")])], clock: .wall)
        XCTAssertEqual(check.problems.map(\.description), [#"record 2: age "a \"b\"\tc\r\nd": \#(ageRule)"#])
    }

    func testAnswersOfBlanksAreNoAnswers() {
        let check = questionnaire.checkImport([
            Record(["firstName": .string("   "), "lastName": .string(""), "address": .string("\t\n"), "age": .string(" ")]),
            Record(["firstName": .string("  Ana  Maria "), "phone": .string("\n555 ")]),
        ], clock: .wall)
        XCTAssertEqual(check.problems, [ImportProblem(.record(1), field: nil, reason: "every answer is empty")])
        XCTAssertEqual(check.records[1], Record(["firstName": .string("Ana  Maria"), "phone": .string("555")]))
    }

    func testValuesOfTheWrongTypeAreRefused() {
        let check = questionnaire.checkImport([
            Record(["firstName": .string("A"), "phone": .integer(5_551_234), "age": .real(35.5)]),
            Record(["firstName": .string("B"), "lastName": .array([]), "age": .bool(true)]),
            Record(["firstName": .string("C"), "age": .integer(150)]),
        ], clock: .wall)
        XCTAssertEqual(check.problems, [
            ImportProblem(.record(1), field: "phone", value: .integer(5_551_234), reason: "Phone must be text, not an integer"),
            ImportProblem(.record(1), field: "age", value: .real(35.5), reason: ageRule),
            ImportProblem(.record(2), field: "lastName", value: .array([]), reason: "Last name must be text, not an array"),
            ImportProblem(.record(2), field: "age", value: .bool(true), reason: ageRule),
        ])
    }

    func testAWholeNumberWrittenAsARealIsThatNumber() {
        let age = questionnaire.field(forKey: "age")!
        XCTAssertEqual(age.imported(.real(42.0)), .success(.integer(42)))
        XCTAssertEqual(age.imported(.real(0)), .success(.integer(0)))
        XCTAssertEqual(age.imported(.real(-0.0)), .success(.integer(0)))
        for refused in [42.5, 151.0, -1.0, 1e300, .nan, .infinity] {
            XCTAssertEqual(age.imported(.real(refused)).failureMessage, ageRule, "\(refused)")
        }
    }

    func testUnknownKeysAreKeptUnlessXMLCannotHoldThem() {
        let kept = Record(["firstName": .string("A"), "tags": .array([.string("x")]), "when": .date(Date(timeIntervalSince1970: 0)),
                           "del\u{7F}": .string("C1 \u{9B} and DEL can be saved")])
        let check = questionnaire.checkImport([
            kept,
            Record(["firstName": .string("B"), "nested": .dictionary(["k": .string("bell\u{7}")])]),
            Record(["firstName": .string("C"), "key\u{0}": .string("x")]),
        ], clock: .wall)
        XCTAssertEqual(check.records[0], kept)
        XCTAssertEqual(check.problems, [
            ImportProblem(.record(2), field: "nested", value: .dictionary(["k": .string("bell\u{7}")]),
                          reason: "nested cannot hold control characters"),
            ImportProblem(.record(3), field: "key\u{0}", value: .string("x"), reason: "key\u{0} cannot hold control characters"),
        ])
    }

    func testNoRecordsNoProblems() {
        XCTAssertEqual(questionnaire.checkImport([], clock: .wall), Questionnaire.ImportCheck(records: [], problems: []))
    }

    func testImportedValueFollowsTheFieldRule() {
        let age = questionnaire.field(forKey: "age")!
        let phone = questionnaire.field(forKey: "phone")!
        XCTAssertEqual(age.imported(.string("042")), .success(.integer(42)))
        XCTAssertEqual(age.imported(.integer(7)), .success(.integer(7)))
        XCTAssertEqual(age.imported(.integer(151)).failureMessage, ageRule)
        XCTAssertEqual(age.imported(.date(Date())).failureMessage, ageRule)
        XCTAssertEqual(phone.imported(.string("")), .success(.string("")))
        XCTAssertEqual(phone.imported(.data(Data())).failureMessage, "Phone must be text, not data")
    }
}
