import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 28 through `survey merge`'s own path (`DocumentStore.mergeOtherCopies`): two laptops
/// as two document folders, one household per case, each roster changed on both laptops.
/// Added, deleted and edited members merge member by member and both laptops end with the
/// same rosters; the same field changed differently in one member, and a member deleted on
/// one laptop and edited on the other, are conflicts named by the member, settled by `resolve`.
final class RosterMergeFolderTests: TemporaryFolderTestCase {
    private typealias Member = [String: PropertyValue]

    private let ana: Member = ["name": .string("Ana"), "age": .integer(34), "sex": .string("f")]
    private let bo: Member = ["name": .string("Bo"), "age": .integer(12), "sex": .string("m")]
    private let cy: Member = ["name": .string("Cy"), "age": .integer(3), "sex": .string("m")]
    private let dee: Member = ["name": .string("Dee"), "age": .integer(60), "sex": .string("f")]
    private let eve: Member = ["name": .string("Eve"), "age": .integer(1), "sex": .string("f")]

    private var laptopA: DocumentStore { DocumentStore(folder: folder.appendingPathComponent("a", isDirectory: true)) }
    private var laptopB: DocumentStore { DocumentStore(folder: folder.appendingPathComponent("b", isDirectory: true)) }

    private func household(_ id: String, _ members: [Member]) -> Record {
        Record([Record.instanceIDKey: .string(id), "village": .string("Kibera"), "member": .array(members.map { .dictionary($0) })])
    }

    private func with(_ member: Member, _ key: String, _ value: PropertyValue) -> Member {
        var copy = member
        copy[key] = value
        return copy
    }

    private func members(_ store: DocumentStore, _ id: String) throws -> [Member]? {
        try store.load("Field").get().records.first { $0.instanceID == id }?["member"]?.members
    }

    private func setMembers(_ store: DocumentStore, _ id: String, _ members: [Member]) throws {
        var document = try store.load("Field").get()
        let place = try XCTUnwrap(document.records.firstIndex { $0.instanceID == id })
        document.records[place]["member"] = .array(members.map { .dictionary($0) })
        try store.save(document, as: "Field")
    }

    /// Each laptop merges the other's file (read in place, as from a stick).
    @discardableResult
    private func merge(_ into: DocumentStore, from other: DocumentStore) throws -> [SyncEvent] {
        try into.mergeOtherCopies([other.url(for: "Field")], into: "Field", write: true, at: Date()).events
    }

    func testRostersChangedOnTwoLaptopsMergeMemberByMemberAndConflictsNameTheMember() throws {
        for store in [laptopA, laptopB] { try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true) }
        let start = [ana, bo, cy]
        try laptopA.save(SurveyDocument(records: (1...6).map { household("uuid:h\($0)", start) }), as: "Field")
        try laptopB.save(SurveyDocument(records: []), as: "Field")
        try merge(laptopB, from: laptopA)
        try merge(laptopA, from: laptopB)
        XCTAssertEqual(try members(laptopB, "uuid:h1"), start)

        let anaOlder = with(ana, "age", .integer(35))
        // h1: A adds Dee; B edits Ana (member 1).
        try setMembers(laptopA, "uuid:h1", [ana, bo, cy, dee])
        try setMembers(laptopB, "uuid:h1", [anaOlder, bo, cy])
        // h2: each adds a different member.
        try setMembers(laptopA, "uuid:h2", [ana, bo, cy, dee])
        try setMembers(laptopB, "uuid:h2", [ana, bo, cy, eve])
        // h3: A deletes Bo (member 2); B edits Ana (member 1).
        try setMembers(laptopA, "uuid:h3", [ana, cy])
        try setMembers(laptopB, "uuid:h3", [anaOlder, bo, cy])
        // h4: A edits Ana's age; B edits Ana's name.
        try setMembers(laptopA, "uuid:h4", [anaOlder, bo, cy])
        try setMembers(laptopB, "uuid:h4", [with(ana, "name", .string("Anna")), bo, cy])
        // h5: both edit Bo's age, differently.
        try setMembers(laptopA, "uuid:h5", [ana, with(bo, "age", .integer(13)), cy])
        try setMembers(laptopB, "uuid:h5", [ana, with(bo, "age", .integer(14)), cy, dee])
        // h6: A deletes Bo; B edits him.
        try setMembers(laptopA, "uuid:h6", [ana, cy])
        try setMembers(laptopB, "uuid:h6", [ana, with(bo, "age", .integer(13)), cy])

        try merge(laptopA, from: laptopB)
        let expected: [String: [Member]] = [
            "uuid:h1": [anaOlder, bo, cy, dee],
            "uuid:h2": [ana, bo, cy, eve, dee], // the two added runs in their answers' order (age 1 before 60)
            "uuid:h3": [anaOlder, cy],
            "uuid:h4": [["name": .string("Anna"), "age": .integer(35), "sex": .string("f")], bo, cy],
        ]
        for (id, roster) in expected { XCTAssertEqual(try members(laptopA, id), roster, id) }
        let ledger = try laptopA.syncLedger(for: "Field")
        XCTAssertEqual(ledger.conflictList.map { "\($0.id) \($0.field.path)" }, ["uuid:h5 member[2]/age", "uuid:h6 member[2]"])
        XCTAssertEqual(try members(laptopA, "uuid:h5"), [ana, with(bo, "age", .integer(13)), cy, dee], "mine held, Dee taken")
        XCTAssertEqual(try members(laptopA, "uuid:h6"), [ana, with(bo, "age", .integer(13)), cy], "the edited Bo kept")

        // B takes A's merge: the same rosters on both laptops.
        try merge(laptopB, from: laptopA)
        for (id, roster) in expected { XCTAssertEqual(try members(laptopB, id), roster, id) }

        // Settled on A by the member's path, as `survey resolve ID member[2] --mine` does.
        XCTAssertEqual(try laptopA.resolveConflict(id: "uuid:h6", path: SyncFieldPath(text: "member[2]"), by: .mine, in: "Field", at: Date()), 1)
        XCTAssertEqual(try members(laptopA, "uuid:h6"), [ana, cy], "A's delete chosen")
        XCTAssertEqual(laptopA.deletedMembers(for: "Field").map { [$0.survey, $0.roster] }, [["uuid:h6", "member[2]"]])
        XCTAssertEqual(laptopA.deletedMembers(for: "Field").first?.answers, with(bo, "age", .integer(13)), "B's edit kept aside")
        XCTAssertEqual(try laptopA.resolveConflict(id: "uuid:h5", path: SyncFieldPath(text: "member[2]/age"), by: .theirs, in: "Field", at: Date()), 1)
        XCTAssertEqual(try members(laptopA, "uuid:h5"), [ana, with(bo, "age", .integer(14)), cy, dee])
        XCTAssertEqual(try laptopA.syncLedger(for: "Field").conflicts, [:])
    }
}
