import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Surveys with rosters compared from their bytes when those bytes are the only packing of
/// their answers (`PackedAnswers.isCanonical`): the list's refresh after each commit compares
/// the edited survey with what it was, and reading two surveys with rosters of 20 to do so
/// cost more than the rest of the commit.
final class RosterEqualityTests: XCTestCase {
    private func household(_ ages: [Int], name: String = "Ana") -> Record {
        Record(["size": .integer(ages.count), "village": .string("Kirra"),
                "member": .array(ages.map { .dictionary(["age": .integer($0), "name": .string(name), "notes": .array([.string("a"), .integer(1)])]) })])
    }

    func testARosterOfTextAndWholeNumbersHasOnePacking() {
        XCTAssertTrue(PackedAnswers.isCanonical(household([40, 12, 70]).packed))
        XCTAssertTrue(PackedAnswers.isCanonical(Record(["member": .array([])]).packed))
    }

    func testWhatPacksMoreThanOneWayIsStillComparedAsAnswers() {
        // A real (-0.0 equals 0.0), text outside ASCII (canonically equal spellings), a date.
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["member": .array([.dictionary(["w": .real(1.5)])])]).packed))
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["member": .array([.dictionary(["n": .string("Zoë")])])]).packed))
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["member": .array([.date(Date(timeIntervalSince1970: 0))])]).packed))
        // The same at the top level, after a roster that is canonical, and keys out of order.
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["member": .array([]), "w": .real(1.5)]).packed))
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["member": .array([]), "n": .string("Zoë")]).packed))
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["member": .array([]), "Zoë": .string("n")]).packed))
        let outOfOrder = household([40, 12]).packed + Record(["aaa": .integer(1)]).packed
        XCTAssertEqual(PackedAnswers.dictionary(outOfOrder)["aaa"], .integer(1))
        XCTAssertFalse(PackedAnswers.isCanonical(outOfOrder))
        XCTAssertTrue(PackedAnswers.isCanonical(Record(["aaa": .integer(1)]).packed + household([40, 12]).packed))
        XCTAssertTrue(PackedAnswers.isCanonical(Record(["member": .array([]), "n": .string("Zoe"), "w": .integer(2)]).packed))
        XCTAssertEqual(Record(["member": .array([.dictionary(["w": .real(0.0)])])]),
                       Record(["member": .array([.dictionary(["w": .real(-0.0)])])]))
        XCTAssertEqual(Record(["member": .array([.dictionary(["n": .string("Zo\u{EB}")])])]),
                       Record(["member": .array([.dictionary(["n": .string("Zoe\u{308}")])])]))
    }

    func testRostersCompareAsTheirAnswersDo() {
        var edited = household([40, 12, 70])
        XCTAssertTrue(edited.setValue(.integer(13), at: AnswerPath([AnswerPath.Step(name: "member", index: 1)], "age")))
        XCTAssertNotEqual(edited, household([40, 12, 70]))
        XCTAssertEqual(edited, household([40, 13, 70]))
        XCTAssertNotEqual(household([40, 12, 70], name: "Ana"), household([40, 12, 70], name: "Ann"))
        XCTAssertNotEqual(household([40, 12]), household([40, 12, 70]))
        // Built another way (an instance inserted, then its answers set), the same bytes.
        var built = Record(["size": .integer(1), "village": .string("Kirra")])
        built.insertInstance(of: "member", answers: ["name": .string("Ana"), "notes": .array([.string("a"), .integer(1)])])
        XCTAssertTrue(built.setValue(.integer(5), at: AnswerPath([AnswerPath.Step(name: "member", index: 0)], "age")))
        XCTAssertEqual(built, household([5]))
        XCTAssertEqual(built.values, household([5]).values)
    }

    /// Packing only the members a commit changed gives the bytes packing the roster anew gives.
    func testMembersPackedAloneAreTheRosterPackedAnew() {
        let members: [PropertyValue] = (0..<5).map { k in
            .dictionary(["age": .integer(k), "name": .string("P\(k)"), "w": .real(Double(k) / 2),
                         "plots": .array([.dictionary(["area": .integer(k * 10)])])])
        }
        var record = Record(["a": .string("x"), "member": .array(members), "z": .integer(1)])
        var now = members
        now[1] = .dictionary(["age": .integer(41), "plots": .array([])])
        now[3] = .dictionary(["age": .integer(3), "name": .string("Zoë"), "plots": .array([.dictionary(["area": .integer(7)])])])
        XCTAssertTrue(record.setItems([1, 3], of: "member", to: now))
        XCTAssertEqual(record.packed, Record(["a": .string("x"), "member": .array(now), "z": .integer(1)]).packed)
        XCTAssertFalse(record.setItems([0], of: "member", to: Array(now.prefix(4))), "another length: the roster is packed whole")
        XCTAssertFalse(record.setItems([0], of: "a", to: now), "no list there")
        XCTAssertEqual(record["member"], .array(now))
    }
}
