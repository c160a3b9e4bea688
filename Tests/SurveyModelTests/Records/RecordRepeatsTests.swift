import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A survey's answers addressed by path: a repeat's instances are an array of dictionaries
/// under its name, nested repeats inside their instance; adding, deleting and moving an
/// instance touch nothing else, and nothing another tool wrote is ever overwritten.
final class RecordRepeatsTests: XCTestCase {
    private func member(_ index: Int) -> [AnswerPath.Step] { [.init(name: "member", index: index)] }

    func testAnswersAreKeptPerInstanceUnderTheRepeatsName() {
        var record = Record(["village": .string("Riverside")])
        XCTAssertEqual(record.instanceCount(of: "member"), 0)
        XCTAssertEqual(record.insertInstance(of: "member"), 0)
        XCTAssertEqual(record.insertInstance(of: "member"), 1)
        XCTAssertTrue(record.setValue(.string("Ana"), at: AnswerPath(member(0), "name")))
        XCTAssertTrue(record.setValue(.integer(34), at: AnswerPath(member(0), "age")))
        XCTAssertTrue(record.setValue(.string("Bo"), at: AnswerPath(member(1), "name")))
        XCTAssertEqual(record.insertInstance(of: "plot", in: member(1)), 0)
        XCTAssertTrue(record.setValue(.real(1.5), at: AnswerPath(member(1) + [.init(name: "plot", index: 0)], "area")))
        XCTAssertEqual(record.values, [
            "village": .string("Riverside"),
            "member": .array([
                .dictionary(["name": .string("Ana"), "age": .integer(34)]),
                .dictionary(["name": .string("Bo"), "plot": .array([.dictionary(["area": .real(1.5)])])]),
            ]),
        ])
        XCTAssertEqual(record.value(at: AnswerPath(member(0), "age")), .integer(34))
        XCTAssertEqual(record.value(at: AnswerPath("village")), .string("Riverside"))
        XCTAssertEqual(record.instanceCount(of: "plot", in: member(1)), 1)
        XCTAssertEqual(record.instanceCount(of: "plot", in: member(0)), 0)
        // Unanswering removes the key inside the instance; the instance stays.
        XCTAssertTrue(record.setValue(nil, at: AnswerPath(member(0), "age")))
        XCTAssertEqual(record.instances(of: "member")[0], ["name": .string("Ana")])
    }

    func testInstancesAreAddedDeletedAndMovedInPlace() throws {
        var record = Record()
        for name in ["Ana", "Bo", "Cy"] {
            let i = try XCTUnwrap(record.insertInstance(of: "member", answers: ["name": .string(name)]))
            XCTAssertEqual(i, record.instanceCount(of: "member") - 1)
        }
        func names() -> [String] { record.instances(of: "member").map { XLSForm.text(of: $0["name"]) } }
        XCTAssertEqual(record.insertInstance(of: "member", at: 1, answers: ["name": .string("Di")]), 1)
        XCTAssertEqual(names(), ["Ana", "Di", "Bo", "Cy"])
        XCTAssertTrue(record.moveInstance(of: "member", from: 3, to: 0))
        XCTAssertEqual(names(), ["Cy", "Ana", "Di", "Bo"])
        XCTAssertFalse(record.moveInstance(of: "member", from: 4, to: 0))
        XCTAssertEqual(record.removeInstance(at: member(2)), ["name": .string("Di")], "what undo puts back")
        XCTAssertEqual(names(), ["Cy", "Ana", "Bo"])
        XCTAssertNil(record.removeInstance(at: member(3)))
        for _ in 0..<3 { XCTAssertNotNil(record.removeInstance(at: member(0))) }
        XCTAssertEqual(record, Record(), "no instance left: no key, the survey reads as a flat one")
    }

    func testAMissingInstanceOrAnotherToolsValueIsNeverWrittenOver() {
        var record = Record(["member": .string("written by another tool")])
        let before = record
        XCTAssertFalse(record.setValue(.string("Ana"), at: AnswerPath(member(0), "name")))
        XCTAssertNil(record.insertInstance(of: "member"))
        XCTAssertFalse(record.moveInstance(of: "member", from: 0, to: 0))
        XCTAssertNil(record.removeInstance(at: member(0)))
        XCTAssertEqual(record, before)
        var empty = Record()
        XCTAssertFalse(empty.setValue(.string("Ana"), at: AnswerPath(member(0), "name")), "no instance 0 yet")
        XCTAssertNil(empty.insertInstance(of: "plot", in: member(0)))
        XCTAssertEqual(empty, Record())
    }
}
