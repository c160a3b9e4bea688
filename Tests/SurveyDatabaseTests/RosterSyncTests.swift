import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 28: a household's roster keyed on two laptops of one enumerator, synced through the
/// throwaway PostgreSQL with `DocumentSync` (what `survey sync` and F9 run). Laptop A adds a
/// member while laptop B edits another: no conflict, and both laptops end with the same
/// roster, each member with its own answers.
final class RosterSyncTests: DatabaseTestCase {
    private typealias Member = [String: PropertyValue]

    private func roster(_ store: DocumentStore) throws -> PropertyValue? {
        try store.load("Field").get().records.first { $0.instanceID == "uuid:h1" }?["member"]
    }

    private func setRoster(_ store: DocumentStore, _ members: [Member]) throws {
        var document = try store.load("Field").get()
        let place = try XCTUnwrap(document.records.firstIndex { $0.instanceID == "uuid:h1" })
        document.records[place]["member"] = .array(members.map { .dictionary($0) })
        _ = try store.save(document, as: "Field")
    }

    func testAMemberAddedOnOneLaptopAndAnotherEditedOnTheOtherMergeAndBothLaptopsAgree() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let head: Member = ["name": .string("Wanjiru"), "age": .integer(41), "sex": .string("f")]
        let child: Member = ["name": .string("Otieno"), "age": .integer(9), "sex": .string("m")]
        let newborn: Member = ["name": .string("Akinyi"), "age": .integer(0), "sex": .string("f")]
        let a = try laptop([Record([Record.instanceIDKey: .string("uuid:h1"), "village": .string("Kibera"),
                                    "member": .array([.dictionary(head), .dictionary(child)])])])
        let b = try laptop()
        try sync(a, as: ana, device: "A")
        try sync(b, as: ana, device: "B")

        // A adds a newborn; B corrects the child's age (member 2).
        try setRoster(a, [head, child, newborn])
        var older = child
        older["age"] = .integer(10)
        try setRoster(b, [head, older])
        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 1)
        let merged = try sync(b, as: ana, device: "B")
        XCTAssertEqual(merged.conflicts, [])
        XCTAssertEqual(merged.pushed, 1, "the merge goes out")
        try sync(a, as: ana, device: "A")

        let expected = PropertyValue.array([.dictionary(head), .dictionary(older), .dictionary(newborn)])
        XCTAssertEqual(try roster(a), expected)
        XCTAssertEqual(try roster(b), expected)
        for store in [a, b] { XCTAssertEqual(try store.syncLedger(for: "Field").conflicts, [:]) }
        let again = try sync(b, as: ana, device: "B")
        XCTAssertEqual([again.pulled, again.pushed], [0, 0], "nothing left to move")
    }
}
