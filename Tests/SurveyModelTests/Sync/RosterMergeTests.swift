import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 28: a roster changed on both sides merges member by member, each member found by
/// who it is (unchanged, or edited keeping at least half its answers), not by its place: a
/// member added on one side and another edited on the other both land; a clash inside one
/// member is a conflict on that member's field; a member deleted on one side and edited on
/// the other is a conflict on that member, kept as edited. Each case is checked both ways
/// round (which laptop is "mine"), and the merged roster is the same either way.
final class RosterMergeTests: XCTestCase {
    private typealias Member = [String: PropertyValue]

    private let ana: Member = ["name": .string("Ana"), "age": .integer(34), "sex": .string("f")]
    private let bo: Member = ["name": .string("Bo"), "age": .integer(12), "sex": .string("m")]
    private let cy: Member = ["name": .string("Cy"), "age": .integer(3), "sex": .string("m")]
    private let dee: Member = ["name": .string("Dee"), "age": .integer(60), "sex": .string("f")]

    private func roster(_ members: [Member]) -> [String: PropertyValue] {
        ["village": .string("Kibera"), "member": .array(members.map { .dictionary($0) })]
    }

    private func with(_ member: Member, _ key: String, _ value: PropertyValue) -> Member {
        var copy = member
        copy[key] = value
        return copy
    }

    /// The merge of `mine` and `theirs`, checked to be the same roster with the sides swapped.
    private func merged(_ base: [Member], _ mine: [Member], _ theirs: [Member],
                        file: StaticString = #filePath, line: UInt = #line) -> AnswerMerge.Outcome {
        let outcome = AnswerMerge.merge(base: roster(base), mine: roster(mine), theirs: roster(theirs))
        let swapped = AnswerMerge.merge(base: roster(base), mine: roster(theirs), theirs: roster(mine))
        XCTAssertEqual(outcome.answers, swapped.answers, "either laptop merging ends with the same roster", file: file, line: line)
        XCTAssertEqual(outcome.conflicts.map(\.path), swapped.conflicts.map(\.path), file: file, line: line)
        return outcome
    }

    func testAMemberAddedOnOneSideAndAnotherEditedOnTheOtherBothLand() {
        let anaOlder = with(ana, "age", .integer(35))
        let outcome = merged([ana, bo], [ana, bo, cy], [anaOlder, bo])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster([anaOlder, bo, cy]))
        // The same when the edit is of the last member, right before the one added.
        let boOlder = with(bo, "age", .integer(13))
        let last = merged([ana, bo], [ana, bo, cy], [ana, boOlder])
        XCTAssertEqual(last.conflicts, [])
        XCTAssertEqual(last.answers, roster([ana, boOlder, cy]))
    }

    func testEachSideAddsADifferentMemberAndBothAreKeptInOneOrder() {
        let outcome = merged([ana], [ana, cy], [ana, dee])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster([ana, cy, dee]), "runs added at one place in the order of their answers")
        // Added at the start on one side and at the end on the other: each where it was put.
        let apart = merged([ana, bo], [dee, ana, bo], [ana, bo, cy])
        XCTAssertEqual(apart.answers, roster([dee, ana, bo, cy]))
        // The same member added on both sides is one member.
        let anaOlder = with(ana, "age", .integer(35))
        let same = merged([ana], [anaOlder, cy], [ana, cy])
        XCTAssertEqual(same.answers, roster([anaOlder, cy]))
        let overlapping = merged([ana], [ana, cy, dee], [ana, cy])
        XCTAssertEqual(overlapping.answers, roster([ana, cy, dee]))
    }

    /// After a merge by USB stick the base is the other laptop's version, so a member one
    /// laptop added before that merge is an addition on both sides, after different members
    /// when one side has since deleted the one before it: it is one member, not two.
    func testAMemberBothSidesAddedAfterDifferentMembersIsOneMember() {
        let boOlder = with(bo, "age", .integer(13))
        let outcome = AnswerMerge.merge(base: roster([ana, bo]), mine: roster([ana, cy]), theirs: roster([ana, boOlder, cy]))
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member[2]"], "Bo: deleted here, edited there")
        XCTAssertEqual(outcome.answers, roster([ana, boOlder, cy]))
        let swapped = AnswerMerge.merge(base: roster([ana, bo]), mine: roster([ana, boOlder, cy]), theirs: roster([ana, cy]))
        XCTAssertEqual(swapped.answers, roster([ana, boOlder, cy]))
        XCTAssertEqual(merged([ana, bo], [ana, cy, dee], [ana, bo, cy]).answers, roster([ana, cy, dee]))
    }

    func testAMemberDeletedOnOneSideAndAnotherEditedOnTheOtherMerge() {
        let anaOlder = with(ana, "age", .integer(35))
        let outcome = merged([ana, bo], [ana], [anaOlder, bo])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster([anaOlder]))
        // Member 1 deleted and member 2 edited: the edit stays on Bo, now the first member.
        let boOlder = with(bo, "age", .integer(13))
        let first = merged([ana, bo, cy], [bo, cy], [ana, boOlder, cy])
        XCTAssertEqual(first.conflicts, [])
        XCTAssertEqual(first.answers, roster([boOlder, cy]))
    }

    func testTwoFieldsOfOneMemberChangedOnEachSideMergeInsideTheMember() {
        let outcome = merged([ana, bo], [with(ana, "age", .integer(35)), bo], [with(ana, "name", .string("Anna")), bo])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster([["name": .string("Anna"), "age": .integer(35), "sex": .string("f")], bo]))
        // Likewise with a member added on one side, before the edited one.
        let added = merged([ana, bo], [cy, with(ana, "age", .integer(35)), bo], [with(ana, "name", .string("Anna")), bo])
        XCTAssertEqual(added.conflicts, [])
        XCTAssertEqual(added.answers, roster([cy, ["name": .string("Anna"), "age": .integer(35), "sex": .string("f")], bo]))
    }

    func testTheSameFieldOfOneMemberChangedDifferentlyIsAConflictOnThatMembersField() {
        let mine = with(bo, "age", .integer(13)), theirs = with(bo, "age", .integer(14))
        let outcome = AnswerMerge.merge(base: roster([ana, bo]), mine: roster([cy, ana, mine]), theirs: roster([ana, theirs, dee]))
        XCTAssertEqual(outcome.conflicts, [FieldConflict(path: SyncFieldPath([.key("member"), .index(2), .key("age")]),
                                                         base: .integer(12), mine: .integer(13), theirs: .integer(14))])
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member[3]/age"])
        XCTAssertEqual(outcome.answers, roster([cy, ana, mine, dee]), "mine held there until resolved, the rest merged")
        let swapped = AnswerMerge.merge(base: roster([ana, bo]), mine: roster([ana, theirs, dee]), theirs: roster([cy, ana, mine]))
        XCTAssertEqual(swapped.conflicts.map(\.path.description), ["member[3]/age"])
        XCTAssertEqual(swapped.answers, roster([cy, ana, theirs, dee]))
    }

    func testAMemberDeletedOnOneSideAndEditedOnTheOtherIsAConflictOnThatMemberAndStays() {
        let boOlder = with(bo, "age", .integer(13))
        let editedHere = AnswerMerge.merge(base: roster([ana, bo, cy]), mine: roster([ana, boOlder, cy]), theirs: roster([ana, cy]))
        XCTAssertEqual(editedHere.conflicts, [FieldConflict(path: SyncFieldPath([.key("member"), .index(1)]),
                                                            base: .dictionary(bo), mine: .dictionary(boOlder), theirs: nil)])
        XCTAssertEqual(editedHere.answers, roster([ana, boOlder, cy]))
        let editedThere = AnswerMerge.merge(base: roster([ana, bo, cy]), mine: roster([ana, cy]), theirs: roster([ana, boOlder, cy]))
        XCTAssertEqual(editedThere.conflicts, [FieldConflict(path: SyncFieldPath([.key("member"), .index(1)]),
                                                             base: .dictionary(bo), mine: nil, theirs: .dictionary(boOlder))])
        XCTAssertEqual(editedThere.answers, roster([ana, boOlder, cy]), "the edited member is kept until someone chooses")
        // Deleted on one side and unchanged on the other: gone, no conflict.
        XCTAssertEqual(merged([ana, bo, cy], [ana, cy], [ana, bo, cy, dee]).answers, roster([ana, cy, dee]))
    }

    /// Issue 27's case: the other side deleted Ana and added Cy, keeping the count. My edit
    /// of Ana's age never lands on Bo (who is member 1 there): Ana is a conflict (edited
    /// here, deleted there), Bo and Cy merge.
    func testADeleteAndAnAddThatKeepTheCountNeverMoveAnAnswerOntoAnotherPerson() {
        let anaOlder = with(ana, "age", .integer(41))
        let outcome = AnswerMerge.merge(base: roster([ana, bo]), mine: roster([anaOlder, bo]), theirs: roster([bo, cy]))
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member[1]"])
        XCTAssertEqual(outcome.answers, roster([anaOlder, bo, cy]))
    }

    /// A member replaced at its place (deleted, another added there) is not an edit of it:
    /// fewer than half of its answers are left. My edit of Bo stays Bo's.
    func testAMemberReplacedAtItsPlaceIsNotTakenForAnEditOfIt() {
        let boOlder = with(bo, "age", .integer(13))
        let outcome = AnswerMerge.merge(base: roster([ana, bo]), mine: roster([ana, boOlder]), theirs: roster([ana, dee]))
        XCTAssertEqual(outcome.conflicts, [FieldConflict(path: SyncFieldPath([.key("member"), .index(1)]),
                                                         base: .dictionary(bo), mine: .dictionary(boOlder), theirs: nil)])
        XCTAssertEqual(outcome.answers, roster([ana, boOlder, dee]), "Bo at his place, Dee after him")
    }

    /// Of two base members an edited one could be, the one it keeps more answers of.
    func testAnEditedMemberIsTheBaseMemberItKeepsMostAnswersOf() {
        let ana: Member = ["name": .string("Ana"), "age": .integer(34), "sex": .string("f"), "school": .string("no")]
        let twin: Member = ["name": .string("Bea"), "age": .integer(34), "sex": .string("f"), "school": .string("no")]
        let twinOlder = with(twin, "age", .integer(35)) // keeps 2 of Ana's 4 answers, 3 of Bea's
        let anaNamed = with(ana, "name", .string("Anna"))
        // Mine deleted Ana and aged Bea; theirs renamed Ana.
        let outcome = AnswerMerge.merge(base: roster([ana, twin]), mine: roster([twinOlder]), theirs: roster([anaNamed, twin]))
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member[1]"], "Ana: deleted here, renamed there")
        XCTAssertEqual(outcome.answers, roster([anaNamed, twinOlder]))
    }

    func testMembersMovedOnOneSideKeepThatOrderAndTheOtherSidesEdits() {
        let boOlder = with(bo, "age", .integer(13))
        let outcome = merged([ana, bo, cy], [cy, ana, bo], [ana, boOlder, cy, dee])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster([cy, ana, boOlder, dee]), "Dee after Cy, where she was added")
    }

    func testMembersMovedOnBothSidesAreOneConflictOnTheRoster() {
        let outcome = AnswerMerge.merge(base: roster([ana, bo, cy]), mine: roster([cy, ana, bo]), theirs: roster([bo, ana, cy]))
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member"])
        XCTAssertEqual(outcome.answers, roster([cy, ana, bo]))
    }

    /// Two identical members in the base, one gone on a side: which one is not known, so
    /// the roster is one conflict rather than a guess.
    func testIdenticalMembersOneOfThemGoneIsOneConflict() {
        let outcome = AnswerMerge.merge(base: roster([bo, bo]), mine: roster([bo]), theirs: roster([bo, with(bo, "age", .integer(13))]))
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member"])
    }

    /// The same member added before Bo on one side and after him on the other: no order
    /// keeps both, so the roster is one conflict.
    func testOneMemberAddedAtContradictoryPlacesIsOneConflict() {
        let outcome = AnswerMerge.merge(base: roster([ana, bo]), mine: roster([ana, cy, bo]), theirs: roster([ana, bo, cy]))
        XCTAssertEqual(outcome.conflicts.map(\.path.description), ["member"])
        XCTAssertEqual(outcome.answers, roster([ana, cy, bo]))
    }

    /// A large roster: members found by hashing, so 4,000 members and 4,000 added merge at
    /// once, and so do every member edited in place on both sides (a calculation a new form
    /// version changed); every member edited and the first deleted, with none unchanged to
    /// anchor them, is more pairing than `pairingLimit` allows: one conflict, not a stall.
    func testALargeRosterMergesAtOnceAndOneEditedThroughoutIsOneConflict() {
        let people: [Member] = (0..<4000).map { ["name": .string("P\($0)"), "age": .integer($0 % 90), "sex": .string("f")] }
        let born: [Member] = (0..<4000).map { ["name": .string("N\($0)"), "age": .integer(0), "sex": .string("m")] }
        var edited = people
        edited[0]["age"] = .integer(91)
        let started = Date()
        let outcome = AnswerMerge.merge(base: roster(people), mine: roster(people + born), theirs: roster(edited))
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster(edited + born))
        let everyone = people.map { with($0, "age", .integer(99)) }, renamed = people.map { with($0, "sex", .string("x")) }
        let inPlace = AnswerMerge.merge(base: roster(people), mine: roster(everyone), theirs: roster(renamed))
        XCTAssertEqual(inPlace.conflicts, [])
        XCTAssertEqual(inPlace.answers, roster(people.map { with(with($0, "age", .integer(99)), "sex", .string("x")) }))
        let whole = AnswerMerge.merge(base: roster(people), mine: roster(Array(everyone.dropFirst())), theirs: roster(renamed))
        XCTAssertEqual(whole.conflicts.map(\.path.description), ["member"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "linear, not 4,000 × 8,000 comparisons")
    }

    func testMembersWithTheirOwnIDsAreAddedDeletedAndEditedByID() {
        func withID(_ member: Member, _ id: String) -> Member { with(member, "memberID", .string(id)) }
        let (a, b, c, d) = (withID(ana, "m1"), withID(bo, "m2"), withID(cy, "m3"), withID(dee, "m4"))
        // Mine renamed Bo entirely (an id says it is still Bo) and deleted Ana; theirs added Dee.
        let renamed = with(with(with(b, "name", .string("Robert")), "age", .integer(13)), "sex", .string("x"))
        let outcome = merged([a, b, c], [renamed, c], [a, b, c, d])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster([renamed, c, d]))
    }

    func testARosterInsideAMemberMergesMemberByMemberToo() {
        let plot1: Member = ["area": .real(1.5), "crop": .string("maize")]
        let plot2: Member = ["area": .real(0.5), "crop": .string("beans")]
        let plot3: Member = ["area": .real(2), "crop": .string("sorghum")]
        let farmer = with(ana, "plot", .array([.dictionary(plot1), .dictionary(plot2)]))
        let mine = with(ana, "plot", .array([.dictionary(plot1), .dictionary(plot2), .dictionary(plot3)]))
        let theirs = with(with(ana, "age", .integer(35)), "plot", .array([.dictionary(plot1), .dictionary(with(plot2, "area", .real(0.75)))]))
        let outcome = merged([farmer, bo], [mine, bo], [theirs, with(bo, "age", .integer(13))])
        XCTAssertEqual(outcome.conflicts, [])
        XCTAssertEqual(outcome.answers, roster([
            with(with(ana, "age", .integer(35)), "plot", .array([.dictionary(plot1), .dictionary(with(plot2, "area", .real(0.75))),
                                                                 .dictionary(plot3)])),
            with(bo, "age", .integer(13)),
        ]))
        let clash = AnswerMerge.merge(base: roster([bo, farmer]),
                                      mine: roster([bo, with(ana, "plot", .array([.dictionary(with(plot1, "area", .real(9)))]))]),
                                      theirs: roster([bo, with(ana, "plot", .array([.dictionary(with(plot1, "area", .real(8))),
                                                                                    .dictionary(plot2)]))]))
        XCTAssertEqual(clash.conflicts.map(\.path.description), ["member[2]/plot[1]/area"])
    }
}
