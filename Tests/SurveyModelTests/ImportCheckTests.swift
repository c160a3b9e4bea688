import Foundation
import XCTest
@testable import SurveyModel

/// `Questionnaire.checkImport`: the form's rules applied to incoming records, row by row.
final class ImportCheckTests: XCTestCase {
    private let questionnaire = Questionnaire.standard
    private let ageRule = "Age must be a whole number from 0 to 150, or empty"

    func testStringsAreReadAsTypedText() {
        let check = questionnaire.checkImport([
            Record(["firstName": .string(" Ana "), "age": .string(" 35 ")]),
            Record(["lastName": .string("Lima"), "age": .string("")]),
        ])
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.records, [
            Record(["firstName": .string(" Ana "), "age": .integer(35)]),
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
        ])
        XCTAssertEqual(check.problems.map(\.description), [
            "row 2: firstName: First name cannot hold control characters",
            "row 2: phone: Phone is limited to 40 characters",
            "row 2: age: \(ageRule)",
            "row 3: age: \(ageRule)",
            "row 4: age: \(ageRule)",
            "row 5: every answer is empty",
        ])
    }

    func testValuesOfTheWrongTypeAreRefused() {
        let check = questionnaire.checkImport([
            Record(["firstName": .string("A"), "phone": .integer(5_551_234), "age": .real(35)]),
            Record(["firstName": .string("B"), "lastName": .array([]), "age": .bool(true)]),
            Record(["firstName": .string("C"), "age": .integer(150)]),
        ])
        XCTAssertEqual(check.problems, [
            ImportProblem(row: 1, field: "phone", reason: "Phone must be text, not an integer"),
            ImportProblem(row: 1, field: "age", reason: ageRule),
            ImportProblem(row: 2, field: "lastName", reason: "Last name must be text, not an array"),
            ImportProblem(row: 2, field: "age", reason: ageRule),
        ])
    }

    func testUnknownKeysAreKeptUnlessXMLCannotHoldThem() {
        let kept = Record(["firstName": .string("A"), "tags": .array([.string("x")]), "when": .date(Date(timeIntervalSince1970: 0)),
                           "del\u{7F}": .string("C1 \u{9B} and DEL can be saved")])
        let check = questionnaire.checkImport([
            kept,
            Record(["firstName": .string("B"), "nested": .dictionary(["k": .string("bell\u{7}")])]),
            Record(["firstName": .string("C"), "key\u{0}": .string("x")]),
        ])
        XCTAssertEqual(check.records[0], kept)
        XCTAssertEqual(check.problems, [
            ImportProblem(row: 2, field: "nested", reason: "nested cannot hold control characters"),
            ImportProblem(row: 3, field: "key\u{0}", reason: "key\u{0} cannot hold control characters"),
        ])
    }

    func testNoRecordsNoProblems() {
        XCTAssertEqual(questionnaire.checkImport([]), Questionnaire.ImportCheck(records: [], problems: []))
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
