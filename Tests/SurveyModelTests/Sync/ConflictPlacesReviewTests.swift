import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A hostile review of `ConflictPlaces` (commit 9e792f2): resolves that land on, show, or
/// remove a person other than the one the conflict is about. The first three were wrong before
/// this review (a comment says how); the others pin odd input that must not crash.
final class ConflictPlacesReviewTests: XCTestCase {
    private let date = Date(timeIntervalSince1970: 1_700_000_000)
    private let id = "uuid:house"

    private func person(_ name: String, _ age: Int, school: String? = nil) -> PropertyValue {
        var answers: [String: PropertyValue] = ["name": .string(name), "age": .integer(age)]
        if let school { answers["school"] = .string(school) }
        return .dictionary(answers)
    }

    /// A member with more answers, as a household roster has (name, age, sex, relation).
    private func resident(_ name: String, _ age: Int, sex: String = "F", relation: String = "daughter") -> PropertyValue {
        .dictionary(["name": .string(name), "age": .integer(age), "sex": .string(sex), "relation": .string(relation)])
    }

    private func survey(_ members: [PropertyValue]) -> Record {
        Record(["member": .array(members), Record.instanceIDKey: .string(id)])
    }

    private func pulled(base: [PropertyValue]?, mine: [PropertyValue], theirs: [PropertyValue]) -> SyncState {
        var ledger = SyncLedger()
        if let base { ledger.bases[id] = SyncLedger.Version(answers: ["member": .array(base)], revision: SyncRevision(1)) }
        let start = SyncState(records: [survey(mine)], ledger: ledger)
        return SyncPlan.apply([IncomingVersion(id: id, answers: ["member": .array(theirs)], revision: SyncRevision(2))],
                              to: start, at: date).state
    }

    private func edited(_ state: SyncState, _ members: PropertyValue) -> SyncState {
        var state = state
        state.records[0]["member"] = members
        return state
    }

    private func listed(_ state: SyncState) -> [String] {
        state.ledger.conflictList(holding: state.records).map { "\($0.field.path) \($0.field.mine.map { "\($0)" } ?? "-")" }
    }

    private func members(_ resolved: SyncPlan.Resolved) -> PropertyValue? { resolved.state.records.first?["member"] }

    // MARK: wrong person

    /// Ana's school clashed (C here, B there; Bo took B without a clash). Since the pull, Ana
    /// was deleted in the app and Bo's school keyed as C. The conflict is Ana's: she is gone.
    /// ConflictPlaces pairs the conflict only by the conflicted answer's values and prefers the
    /// member whose answer "is still the pull's mine" (weight 3), so Bo, who now happens to hold
    /// C, is taken for Ana: the listing shows Bo's C as Ana's mine, and --theirs writes B into
    /// Bo's school, saying it settled Ana's conflict.
    // Was wrong before its review: --theirs writes into Bo (a different person); listing shows Bo's answer as mine.
    func testAnotherMemberNowHoldingTheConflictsMineIsNotTakenForAMemberDeletedSince() throws {
        let clash = pulled(base: [person("Ana", 30, school: "A"), person("Bo", 31, school: "A")],
                           mine: [person("Ana", 30, school: "C"), person("Bo", 31, school: "A")],
                           theirs: [person("Ana", 30, school: "B"), person("Bo", 31, school: "B")])
        XCTAssertEqual(listed(clash), ["member[1]/school string(\"C\")"], "precondition: Ana's school clashed")
        XCTAssertEqual(clash.records[0]["member"], .array([person("Ana", 30, school: "C"), person("Bo", 31, school: "B")]))

        let since = edited(clash, .array([person("Bo", 31, school: "C")]))
        // Which member it is cannot be told now (Bo was keyed since to the value the pull kept
        // here): the listing shows the answer the pull found, and nothing is written by a guess.
        XCTAssertEqual(listed(since), ["member[1]/school string(\"C\")"], "what the pull found, not a guess")
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: since, at: date),
                             "Ana is gone: --theirs must be refused, not written into Bo") { _ in }
        if let wrote = try? SyncPlan.resolve(id: id, path: nil, by: .theirs, in: since, at: date) {
            XCTAssertEqual(members(wrote), .array([person("Bo", 31, school: "C")]), "Bo's school must not change")
        }
    }

    /// Same clash; since, nobody deleted: Ana's school corrected to D, Bo's keyed as C. The
    /// conflict is still Ana's (member[1]); --theirs must write B into Ana, not into Bo.
    // Was wrong before its review: --theirs writes B into Bo's school and leaves Ana's D; the listing shows Bo's C.
    func testACorrectionSinceDoesNotMoveTheConflictToAnotherMemberHoldingTheOldMine() throws {
        let clash = pulled(base: [person("Ana", 30, school: "A"), person("Bo", 31, school: "A")],
                           mine: [person("Ana", 30, school: "C"), person("Bo", 31, school: "A")],
                           theirs: [person("Ana", 30, school: "B"), person("Bo", 31, school: "B")])
        let since = edited(clash, .array([person("Ana", 30, school: "D"), person("Bo", 31, school: "C")]))
        // Not told apart (Ana keyed since, Bo keyed to the pull's value): the listing shows what
        // the pull found, and theirs or a typed value is refused rather than written by a guess.
        XCTAssertEqual(listed(since), ["member[1]/school string(\"C\")"], "what the pull found")
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: since, at: date))
        let theirs = try? SyncPlan.resolve(id: id, path: nil, by: .theirs, in: since, at: date)
        if let theirs {
            XCTAssertEqual(members(theirs), .array([person("Ana", 30, school: "B"), person("Bo", 31, school: "C")]),
                           "theirs is Ana's; Bo keeps his C")
        }
        let typed = try? SyncPlan.resolve(id: id, path: SyncFieldPath(text: "member[1]/school"), by: .value(.string("E")),
                                          in: since, at: date)
        if let typed {
            XCTAssertEqual(members(typed), .array([person("Ana", 30, school: "E"), person("Bo", 31, school: "C")]),
                           "the typed value is Ana's")
        }
    }

    /// Ana deleted there, edited here (age 41): member[2]. Since, her age was corrected to 42
    /// and a second daughter, Eve, added before her (at member[2]). Taking the delete (--theirs)
    /// must remove Ana (3 of her 4 answers kept), not Eve (2 of 4, a different person who merely
    /// shares sex and relation). keptHere prefers the candidate at the recorded place over the
    /// one keeping more answers, and Eve stands there now.
    // Was wrong before its review: --theirs removes Eve, keeps Ana.
    func testTakingAMembersDeleteRemovesHerNotANewMemberStandingAtHerOldPlace() throws {
        let bo = resident("Bo", 45, sex: "M", relation: "head"), cy = resident("Cy", 3, sex: "M", relation: "son")
        let clash = pulled(base: [bo, resident("Ana", 40), cy],
                           mine: [bo, resident("Ana", 41), cy],
                           theirs: [bo, cy])
        XCTAssertEqual(clash.ledger.conflictList.map(\.field.path.description), ["member[2]"], "precondition")
        let since = edited(clash, .array([bo, resident("Eve", 12), resident("Ana", 42), cy]))
        let taken = try? SyncPlan.resolve(id: id, path: nil, by: .theirs, in: since, at: date)
        if let taken {
            XCTAssertEqual(members(taken), .array([bo, resident("Eve", 12), cy]), "Ana removed, Eve kept")
            XCTAssertEqual(taken.deletedMembers.map(\.answers), [["name": .string("Ana"), "age": .integer(42),
                                                                   "sex": .string("F"), "relation": .string("daughter")]])
        }
    }

    // MARK: odd input (must not crash, must not write elsewhere)

    /// The roster emptied here, a roster key that is no list here, a list of non-members: no
    /// crash; --mine settles (nothing there), --theirs is refused or writes nothing elsewhere.
    func testOddRostersHereNeitherCrashNorWriteElsewhere() throws {
        let clash = pulled(base: [person("Ana", 30), person("Bo", 31)],
                           mine: [person("Ana", 30), person("Bo", 32)],
                           theirs: [person("Ana", 30), person("Bo", 33)])
        for odd: PropertyValue in [.array([]), .string("Bo"), .dictionary(["age": .integer(32)]), .array([.string("x"), .string("y")])] {
            let since = edited(clash, odd)
            _ = listed(since)
            XCTAssertEqual(try SyncPlan.resolve(id: id, path: nil, by: .mine, in: since, at: date).state.records[0]["member"], odd)
            if let theirs = try? SyncPlan.resolve(id: id, path: nil, by: .theirs, in: since, at: date) {
                XCTAssertEqual(members(theirs), odd, "\(odd): nothing of Bo's to write into")
            }
        }
    }

    /// A roster inside a member emptied here; and conflicts at two members plus a plain answer
    /// resolved together; identical duplicate members: no crash, each lands on its own person.
    func testNestedEmptiedRosterTwoPlacesAndDuplicates() throws {
        let worker = { (name: String, titles: [String]) -> PropertyValue in
            .dictionary(["name": .string(name), "job": .array(titles.map { .dictionary(["title": .string($0), "days": .integer(5)]) })])
        }
        let clash = pulled(base: [person("Ana", 30), worker("Bo", ["farmer"])],
                           mine: [person("Ana", 31), worker("Bo", ["nurse"])],
                           theirs: [person("Ana", 32), worker("Bo", ["teacher"])])
        XCTAssertEqual(clash.ledger.conflictList.map(\.field.path.description).sorted(), ["member[1]/age", "member[2]/job[1]/title"])
        let emptied = edited(clash, .array([person("Ana", 31), worker("Bo", [])]))
        _ = listed(emptied)
        XCTAssertThrowsError(try SyncPlan.resolve(id: id, path: SyncFieldPath(text: "member[2]/job[1]/title"), by: .theirs,
                                                  in: emptied, at: date))
        let both = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: clash, at: date)
        XCTAssertEqual(members(both), .array([person("Ana", 32), worker("Bo", ["teacher"])]))

        let kid = person("Kid", 5)
        let twins = pulled(base: [kid, kid, person("Bo", 31)], mine: [kid, kid, person("Bo", 32)], theirs: [kid, kid, person("Bo", 33)])
        let added = edited(twins, .array([kid, kid, person("Bo", 32), kid]))
        let settled = try SyncPlan.resolve(id: id, path: nil, by: .theirs, in: added, at: date)
        XCTAssertEqual(members(settled), .array([kid, kid, person("Bo", 33), kid]))
        // Bo moved before the kids (MemberAlignment reads a move as a delete and an add): today
        // refused as "no longer in the survey" (a misleading refusal, not wrong data); it must
        // at least never write into a kid.
        let moved = edited(twins, .array([person("Bo", 32), kid, kid]))
        if let written = try? SyncPlan.resolve(id: id, path: nil, by: .theirs, in: moved, at: date) {
            XCTAssertEqual(members(written), .array([person("Bo", 33), kid, kid]))
        }
    }
}
