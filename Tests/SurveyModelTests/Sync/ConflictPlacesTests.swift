import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A conflict inside a roster's member is recorded at its place when the pull found it
/// (`member[2]/age`); members deleted or added in the app since move people to other places.
/// The listings and every resolve choice find the member by who it is (`ConflictPlaces`).
final class ConflictPlacesTests: XCTestCase {
    private let date = Date(timeIntervalSince1970: 1_700_000_000)
    private let id = "uuid:house"

    private func person(_ name: String, _ age: Int, school: String? = nil) -> PropertyValue {
        var answers: [String: PropertyValue] = ["name": .string(name), "age": .integer(age)]
        if let school { answers["school"] = .string(school) }
        return .dictionary(answers)
    }

    private func survey(_ members: [PropertyValue]) -> Record {
        Record(["member": .array(members), Record.instanceIDKey: .string(id)])
    }

    /// The pull of `theirs` into a survey holding `mine`, both edits of `base`.
    private func pulled(base: [PropertyValue]?, mine: [PropertyValue], theirs: [PropertyValue]) -> SyncState {
        var ledger = SyncLedger()
        if let base { ledger.bases[id] = SyncLedger.Version(answers: ["member": .array(base)], revision: SyncRevision(1)) }
        let start = SyncState(records: [survey(mine)], ledger: ledger)
        return SyncPlan.apply([IncomingVersion(id: id, answers: ["member": .array(theirs)], revision: SyncRevision(2))],
                              to: start, at: date).state
    }

    /// The survey's members changed in the app after the pull.
    private func edited(_ state: SyncState, _ members: [PropertyValue]) -> SyncState {
        var state = state
        state.records[0]["member"] = .array(members)
        return state
    }

    private func listed(_ state: SyncState) -> [String] {
        state.ledger.conflictList(holding: state.records).map { "\($0.field.path) \($0.field.mine.map { "\($0)" } ?? "-")" }
    }

    private func members(_ resolved: SyncPlan.Resolved) -> PropertyValue? { resolved.state.records.first?["member"] }

    /// Bo's age clashed (32 here, 33 there), then Ana was deleted here: Cy is at member[2].
    func testTheirsAndATypedValueLandOnTheMemberInConflictWhereverItStandsNow() throws {
        let clash = pulled(base: [person("Ana", 30), person("Bo", 31), person("Cy", 3)],
                           mine: [person("Ana", 30), person("Bo", 32), person("Cy", 3)],
                           theirs: [person("Ana", 30), person("Bo", 33), person("Cy", 3)])
        let moved = edited(clash, [person("Bo", 32), person("Cy", 3)])
        XCTAssertEqual(listed(moved), ["member[2]/age integer(32)"], "Bo's age, not Cy's")
        let theirs = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: moved, at: date)
        XCTAssertEqual(members(theirs), .array([person("Bo", 33), person("Cy", 3)]))
        XCTAssertEqual(theirs.state.ledger.conflicts, [:])
        XCTAssertEqual(SyncPlan.outgoing(from: theirs.state, device: "a").map(\.answers), [["member": .array([person("Bo", 33), person("Cy", 3)])]],
                       "Ana's delete goes out, Bo's age as theirs")
        let typed = try SyncPlan.resolve(id: id, path: SyncFieldPath(text: "member[2]/age"), by: .value(.integer(34)), in: moved, at: date)
        XCTAssertEqual(members(typed), .array([person("Bo", 34), person("Cy", 3)]))
        let mine = try SyncPlan.resolve(id: id, path: nil, by: .mine, in: moved, at: date)
        XCTAssertEqual(members(mine), .array([person("Bo", 32), person("Cy", 3)]))

        // A member added before him in the app: Bo is at member[3] now.
        let added = edited(clash, [person("Di", 1), person("Ana", 30), person("Bo", 35), person("Cy", 3)])
        XCTAssertEqual(listed(added), ["member[2]/age integer(35)"], "his age corrected since")
        let landed = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: added, at: date)
        XCTAssertEqual(members(landed), .array([person("Di", 1), person("Ana", 30), person("Bo", 33), person("Cy", 3)]))
    }

    /// Bo deleted here after the pull: nothing is his to show or to write; --mine keeps him
    /// deleted (his delete goes out), --theirs and a value are refused, nothing changed.
    func testAMemberDeletedHereSinceIsShownAbsentAndOnlyMineSettlesIt() throws {
        let clash = pulled(base: [person("Ana", 30), person("Bo", 31), person("Cy", 3)],
                           mine: [person("Ana", 30), person("Bo", 32), person("Cy", 3)],
                           theirs: [person("Ana", 30), person("Bo", 33), person("Cy", 3)])
        let gone = edited(clash, [person("Ana", 30), person("Cy", 3)])
        XCTAssertEqual(listed(gone), ["member[2]/age -"], "not Cy's 3")
        XCTAssertEqual(SyncSummary(gone).conflicts.first?.mine, nil)
        for choice in [SyncPlan.Choice.theirs, .value(.integer(34))] {
            XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: nil, by: choice, in: gone, at: date)) {
                XCTAssertTrue("\($0)".contains("member[2]/age of uuid:house is an answer of a member no longer in the survey here"), "\($0)")
                XCTAssertTrue("\($0)".contains("(--mine)"), "\($0)")
            }
        }
        let mine = try SyncPlan.resolve(id: id, path: nil, by: .mine, in: gone, at: date)
        XCTAssertEqual(members(mine), .array([person("Ana", 30), person("Cy", 3)]))
        XCTAssertEqual(SyncPlan.outgoing(from: mine.state, device: "a").map(\.answers), [["member": .array([person("Ana", 30), person("Cy", 3)])]])
    }

    /// Two children's school answers clashed alike (no here, yes there); Ana deleted here
    /// since, and the first child's answer corrected to yes: each lands on its own child.
    func testMembersWhoseAnswersClashedAlikeAreToldApartByTheirOrder() throws {
        let base = [person("Ana", 30), person("Kim", 7), person("Lee", 9)]
        let clash = pulled(base: base,
                           mine: [person("Ana", 30), person("Kim", 7, school: "no"), person("Lee", 9, school: "no")],
                           theirs: [person("Ana", 30), person("Kim", 7, school: "yes"), person("Lee", 9, school: "yes")])
        XCTAssertEqual(listed(clash), ["member[2]/school string(\"no\")", "member[3]/school string(\"no\")"])
        let moved = edited(clash, [person("Kim", 7, school: "maybe"), person("Lee", 9, school: "no")])
        XCTAssertEqual(listed(moved), ["member[2]/school string(\"maybe\")", "member[3]/school string(\"no\")"])
        let lee = try SyncPlan.resolve(id: id, path: SyncFieldPath(text: "member[3]/school"), by: .value(.string("sometimes")), in: moved, at: date)
        XCTAssertEqual(members(lee), .array([person("Kim", 7, school: "maybe"), person("Lee", 9, school: "sometimes")]))
        let kim = try SyncPlan.resolve(id: id, path: SyncFieldPath(text: "member[2]/school"), by: .value(.string("often")), in: moved, at: date)
        XCTAssertEqual(members(kim), .array([person("Kim", 7, school: "often"), person("Lee", 9, school: "no")]))
    }

    /// Twins whose age changed alike there, only one of them differently here: the conflict is
    /// the twin whose answer here is still the one the pull found, whoever moved.
    func testOfTwoMembersAlikeThereTheConflictIsTheOneStillAsThePullFoundIt() throws {
        let twins = { (a: Int, b: Int) in [self.person("Ana", 30), self.person("Tom", a), self.person("Tim", b)] }
        let clash = pulled(base: twins(1, 1), mine: twins(1, 4), theirs: twins(2, 2))
        XCTAssertEqual(listed(clash), ["member[3]/age integer(4)"])
        let moved = edited(clash, Array(twins(2, 4).dropFirst()))
        XCTAssertEqual(listed(moved), ["member[3]/age integer(4)"])
        let settled = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: moved, at: date)
        XCTAssertEqual(members(settled), .array(Array(twins(2, 2).dropFirst())))
    }

    /// Ana deleted there and edited here (member[2]); Di added before her in the app: taking
    /// the delete removes Ana, where she is now.
    func testTakingAMembersDeleteRemovesThatPersonWhereSheStandsNow() throws {
        let clash = pulled(base: [person("Bo", 31), person("Ana", 30), person("Cy", 3)],
                           mine: [person("Bo", 31), person("Ana", 41), person("Cy", 3)],
                           theirs: [person("Bo", 31), person("Cy", 3)])
        XCTAssertEqual(clash.ledger.conflictList.map(\.field.path.description), ["member[2]"])
        let moved = edited(clash, [person("Bo", 31), person("Di", 1), person("Ana", 42), person("Cy", 3)])
        let gone = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: moved, at: date)
        XCTAssertEqual(members(gone), .array([person("Bo", 31), person("Di", 1), person("Cy", 3)]))
        XCTAssertEqual(gone.deletedMembers.map(\.roster), ["member[3]"], "where she was removed from")
    }

    /// Members that cannot be told apart any more (one of two identical children deleted here,
    /// so which went cannot be said): the listing keeps the pull's mine; writing is refused.
    func testAMemberThatCannotBeToldApartIsNeverWrittenInto() throws {
        let kid = person("Kid", 5)
        let clash = pulled(base: [person("Bo", 31), kid, kid], mine: [person("Bo", 32), kid, kid], theirs: [person("Bo", 33), kid, kid])
        let unclear = edited(clash, [kid, person("Bo", 32)])
        XCTAssertEqual(listed(unclear), ["member[1]/age integer(32)"], "the pull's")
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: unclear, at: date)) {
            XCTAssertTrue("\($0)".contains("which member it is cannot be told"), "\($0)")
        }
        XCTAssertEqual(try SyncPlan.resolve(id: id, path: nil, by: .mine, in: unclear, at: date).count, 1)
    }

    /// A conflict in a roster inside a member (`member[2]/job[1]/title`), its member moved up.
    func testAConflictInARosterInsideAMemberIsFoundThroughBoth() throws {
        let worker = { (title: String) -> PropertyValue in
            .dictionary(["name": .string("Bo"), "job": .array([.dictionary(["title": .string(title), "days": .integer(5)])])])
        }
        let clash = pulled(base: [person("Ana", 30), worker("farmer"), person("Cy", 3)],
                           mine: [person("Ana", 30), worker("nurse"), person("Cy", 3)],
                           theirs: [person("Ana", 30), worker("teacher"), person("Cy", 3)])
        XCTAssertEqual(clash.ledger.conflictList.map(\.field.path.description), ["member[2]/job[1]/title"])
        let moved = edited(clash, [worker("nurse"), person("Cy", 3)])
        XCTAssertEqual(listed(moved), ["member[2]/job[1]/title string(\"nurse\")"])
        let settled = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: moved, at: date)
        XCTAssertEqual(members(settled), .array([worker("teacher"), person("Cy", 3)]))
    }

    /// Two copies that never met (no base): members paired by place then, found by who they
    /// are now.
    func testWithoutABaseTheMemberIsFoundByWhatTheConflictRecorded() throws {
        let clash = pulled(base: nil, mine: [person("Ana", 30), person("Bo", 32)], theirs: [person("Ana", 30), person("Bo", 33)])
        XCTAssertEqual(clash.ledger.conflictList.map(\.field.path.description), ["member[2]/age"])
        let moved = edited(clash, [person("Bo", 32)])
        XCTAssertEqual(listed(moved), ["member[2]/age integer(32)"])
        let settled = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: moved, at: date)
        XCTAssertEqual(members(settled), .array([person("Bo", 33)]))
    }
}
