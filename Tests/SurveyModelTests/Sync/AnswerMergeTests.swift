import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The three-way merge of one survey's answers: one-sided changes taken, clashes kept with
/// their three values (mine stays in the answers), nested dictionaries by key, rosters
/// member by member (added, deleted and moved members: `RosterMergeTests`).
final class AnswerMergeTests: XCTestCase {
    private func merge(_ base: [String: PropertyValue]?, _ mine: [String: PropertyValue],
                       _ theirs: [String: PropertyValue]) -> AnswerMerge.Outcome {
        AnswerMerge.merge(base: base, mine: mine, theirs: theirs)
    }

    func testChangesOnDifferentSidesToDifferentFieldsBothLand() {
        let base: [String: PropertyValue] = ["age": .integer(30), "phone": .string(""), "village": .string("Ngong")]
        var mine = base; mine["age"] = .integer(31); mine["note"] = .string("new here")
        var theirs = base; theirs["phone"] = .string("555"); theirs["village"] = nil
        let outcome = merge(base, mine, theirs)
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, ["age": .integer(31), "phone": .string("555"), "note": .string("new here")])
    }

    func testTheSameFieldChangedDifferentlyIsAConflictWithAllThreeValuesAndMineKept() {
        let base: [String: PropertyValue] = ["age": .integer(30), "phone": .string("1")]
        let outcome = merge(base, ["age": .integer(31), "phone": .string("1")], ["age": .integer(32), "phone": .string("2")])
        XCTAssertEqual(outcome.conflicts, [FieldConflict(path: SyncFieldPath([.key("age")]), base: .integer(30),
                                                         mine: .integer(31), theirs: .integer(32))])
        XCTAssertEqual(outcome.answers, ["age": .integer(31), "phone": .string("2")])
    }

    func testAnAnswerRemovedHereAndChangedThereIsAConflict() {
        let outcome = merge(["age": .integer(30)], [:], ["age": .integer(32)])
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["age"])
        XCTAssertEqual(outcome.conflicts.first?.mine, nil)
        XCTAssertEqual(outcome.answers, [:])
    }

    func testTheSameChangeOnBothSidesIsNoConflict() {
        let outcome = merge(["age": .integer(30)], ["age": .integer(31)], ["age": .integer(31)])
        XCTAssertEqual(outcome, AnswerMerge.Outcome(answers: ["age": .integer(31)], conflicts: []))
    }

    func testNestedDictionariesMergeByKey() {
        let base: [String: PropertyValue] = ["gps": .dictionary(["lat": .real(1), "lon": .real(2), "acc": .integer(5)])]
        let mine: [String: PropertyValue] = ["gps": .dictionary(["lat": .real(1.5), "lon": .real(2), "acc": .integer(5)])]
        let theirs: [String: PropertyValue] = ["gps": .dictionary(["lat": .real(1), "lon": .real(2.5), "acc": .integer(9)])]
        let outcome = merge(base, mine, theirs)
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers["gps"], .dictionary(["lat": .real(1.5), "lon": .real(2.5), "acc": .integer(9)]))
    }

    private func roster(_ members: [[String: PropertyValue]]) -> PropertyValue {
        .array(members.map { .dictionary($0) })
    }

    func testARosterMergesMemberByMemberByPlace() {
        let base = ["member": roster([["name": .string("Ana"), "age": .integer(34)], ["name": .string("Bo")]])]
        let mine = ["member": roster([["name": .string("Ana"), "age": .integer(35)], ["name": .string("Bo")]])]
        let theirs = ["member": roster([["name": .string("Ana"), "age": .integer(34)], ["name": .string("Bo"), "age": .integer(7)]])]
        let outcome = merge(base, mine, theirs)
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers["member"], roster([["name": .string("Ana"), "age": .integer(35)],
                                                          ["name": .string("Bo"), "age": .integer(7)]]))
    }

    func testAClashInsideAMemberNamesItsPath() {
        let base = ["member": roster([["name": .string("Ana")], ["name": .string("Bo"), "age": .integer(6)]])]
        let mine = ["member": roster([["name": .string("Ana")], ["name": .string("Bo"), "age": .integer(7)]])]
        let theirs = ["member": roster([["name": .string("Ana")], ["name": .string("Bo"), "age": .integer(8)]])]
        let outcome = merge(base, mine, theirs)
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member[2]/age"])
        XCTAssertEqual(outcome.conflicts.first?.path, SyncFieldPath([.key("member"), .index(1), .key("age")]))
    }

    func testMembersWithTheirOwnIDsAreMatchedByIDNotPlace() {
        let ana: [String: PropertyValue] = ["instanceID": .string("m1"), "name": .string("Ana")]
        let bo: [String: PropertyValue] = ["instanceID": .string("m2"), "name": .string("Bo")]
        var anaOlder = ana; anaOlder["age"] = .integer(35)
        var boOlder = bo; boOlder["age"] = .integer(8)
        // Mine moved Bo first and aged Ana; theirs aged Bo.
        let outcome = merge(["member": roster([ana, bo])], ["member": roster([bo, anaOlder])], ["member": roster([ana, boOlder])])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers["member"], roster([boOlder, anaOlder]))
    }

    func testUnknownValuesTravelWhole() {
        let blob = PropertyValue.data(Data([1, 2, 3]))
        let outcome = merge(["x": .integer(1)], ["x": .integer(1)], ["x": .integer(1), "extra": blob, "list": .array([.integer(1)])])
        XCTAssertEqual(outcome.answers, ["x": .integer(1), "extra": blob, "list": .array([.integer(1)])])
    }

    func testWithNoBaseOneSidedAnswersAreTakenAndDifferentOnesClash() {
        let outcome = merge(nil, ["a": .string("1"), "b": .string("mine")], ["b": .string("theirs"), "c": .string("3")])
        XCTAssertEqual(outcome.answers, ["a": .string("1"), "b": .string("mine"), "c": .string("3")])
        XCTAssertEqual(outcome.conflicts, [FieldConflict(path: SyncFieldPath([.key("b")]), base: nil,
                                                         mine: .string("mine"), theirs: .string("theirs"))])
    }

    func testPathsPrintAndParseBack() {
        let path = SyncFieldPath([.key("member"), .index(1), .key("stem"), .index(0), .key("d")])
        XCTAssertEqual(path.description, "member[2]/stem[1]/d")
        XCTAssertEqual(SyncFieldPath(text: path.description), path)
        XCTAssertEqual(SyncFieldPath(text: "(survey)"), SyncFieldPath())
        XCTAssertNil(SyncFieldPath(text: "member[0]/x"))
        XCTAssertNil(SyncFieldPath(text: "a//b"))
    }
}
