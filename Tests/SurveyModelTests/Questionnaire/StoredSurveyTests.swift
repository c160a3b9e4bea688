import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A survey as stored (`Questionnaire.stored(_:arriving:)`, through `checkImport`): the form
/// computes first (calculations, the members `repeat_count` asks for), then judges; a value
/// the input gives for a calculation is not used; a member holding no answer is never
/// stored. The app's [ Add ], `survey add` and `survey import` all go this way.
final class StoredSurveyTests: XCTestCase {
    private let clock = FormTestSupport.clock

    /// A limit the form computes, and an answer whose constraint reads it.
    static let limitForm = """
        survey
        ,type,name,label,constraint,constraint_message,calculation
        ,integer,x,Amount,. <= ${lim},more than lim
        ,calculate,lim,,,,20
        ,calculate,first,,,,once(${x})
        settings
        ,form_title,form_id,version
        ,Limit,limit,1
        """

    /// A roster the form sizes (`repeat_count`), one it does not, and a count of the second.
    static let rosterForm = """
        survey
        ,type,name,label,required,relevant,calculation,repeat_count,default
        ,integer,n,People,yes
        ,begin repeat,member,Member,,,,${n}
        ,text,name,Name,yes
        ,end repeat
        ,begin repeat,visit,Visit,,${n} >= 0
        ,text,place,Place
        ,integer,hours,Hours
        ,calculate,number,,,,position(..)
        ,begin repeat,stop,Stop
        ,text,what,What
        ,end repeat
        ,end repeat
        ,calculate,visits,,,,count(${visit})
        ,begin repeat,pet,Pet,,,,${n} - 1
        ,text,kind,Kind
        ,end repeat
        """

    // MARK: - Item 10: calculations before the rules

    func testAConstraintReadsTheFormsCalculationNeverAnEmptyOneOrTheInputs() throws {
        let q = try FormTestSupport.questionnaire(Self.limitForm)
        let check = q.checkImport([Record(["x": .integer(15)]), Record(["x": .integer(50), "lim": .integer(100)])], clock: clock)
        XCTAssertEqual(check.problems.map(\.description), ["record 2: x 50: more than lim"],
                       "15 is within the form's 20; a limit of 100 given for the calculation does not let 50 through")
        XCTAssertEqual(check.records.map { $0["lim"] }, [.string("20"), .string("20")], "stored as the form computes it")
        XCTAssertEqual(check.ignoredCalculations, ["lim"])
        // Keyed (`survey add`) the same.
        let keyed = q.checkImport([Record(["x": .string("15")])], arriving: .keyed(started: nil, device: DeviceMetadata()),
                                  clock: clock)
        XCTAssertEqual(keyed.problems, [])
        XCTAssertEqual(keyed.records.first?["lim"], .string("20"))
    }

    func testTheSameValueGivenIsNoNoteAndOnceKeepsTheValueItHas() throws {
        let q = try FormTestSupport.questionnaire(Self.limitForm)
        let check = q.checkImport([Record(["x": .integer(15), "lim": .string("20"), "first": .string("7")])], clock: clock)
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.ignoredCalculations, [], "the app's own export gives the form's values back")
        XCTAssertEqual(check.records.first?["first"], .string("7"), "once() keeps what it holds, as Collect does on a saved form")
        XCTAssertEqual(q.checkImport([Record(["x": .integer(15)])], clock: clock).records.first?["first"], .string("15"))
    }

    /// The app's [ Add ] (`completed`, then `problems(in:)`) and the shared function agree.
    func testTheAppsAddAndTheSharedFunctionAgree() throws {
        let q = try FormTestSupport.questionnaire(Self.limitForm)
        for x in [15, 50] {
            let record = Record(["x": .integer(x)])
            let app = q.problems(in: q.completed(record, clock: clock), clock: clock)
            let shared = q.stored(record, arriving: .keyed(started: nil, device: DeviceMetadata()), clock: clock)
            XCTAssertEqual(shared.record, q.completed(record, clock: clock))
            XCTAssertEqual(shared.formProblems.map(\.message), app.map(\.message))
            XCTAssertEqual(shared.formProblems.map(\.index), app.map(\.index))
        }
    }

    // MARK: - Item 11: members

    func testMembersRepeatCountAsksForAreJudgedAndRefusedEmpty() throws {
        let q = try FormTestSupport.questionnaire(Self.rosterForm)
        let keyed = q.checkImport([Record(["n": .string("3")])], arriving: .keyed(started: nil, device: DeviceMetadata()),
                                  clock: clock)
        XCTAssertEqual(keyed.problems.map(\.withoutPlace), [
            "member[1]/name: Name is required", "member[2]/name: Name is required", "member[3]/name: Name is required",
            "pet[1]: holds no answer; the form's repeat_count asks for 2",
            "pet[2]: holds no answer; the form's repeat_count asks for 2",
        ], "three empty members are never stored: each one's required question, and a member with none required")
        let answered = q.checkImport([Record(["n": .integer(2), "member": .array([.dictionary(["name": .string("Ana")]), .dictionary(["name": .string("Bo")])]),
                                              "pet": .array([.dictionary(["kind": .string("cat")])])])],
                                     clock: clock)
        XCTAssertEqual(answered.problems, [])
        let empty = q.checkImport([Record(["n": .integer(3), "member": .array([.dictionary([:]), .dictionary(["name": .string("Bo")])]),
                                           "pet": .array([.dictionary(["kind": .string("cat")]), .dictionary(["kind": .string(" ")]),
                                                          .dictionary([:])])])],
                                  clock: clock)
        XCTAssertEqual(empty.problems.map(\.description), [
            "record 1: member[1]/name: Name is required",
            "record 1: member[3]/name: Name is required",
            "record 1: pet: 3 Pet entries where the form counts 2: delete those after 2 (^D) or change the count",
            "record 1: pet[2]: holds no answer; the form's repeat_count asks for 2",
        ], "with repeat_count an empty member in the file is refused in its place, not left out; one beyond the count is the roster's")
        XCTAssertEqual(empty.droppedMembers, [])
    }

    func testAMemberHoldingNoAnswerIsLeftOutAndPlacesAreTheInputs() throws {
        let q = try FormTestSupport.questionnaire(Self.rosterForm)
        let visits: PropertyValue = .array([
            .dictionary([:]),
            .dictionary(["place": .string("Kisumu"), "stop": .array([.dictionary(["what": .string("")]), .dictionary(["what": .string("fuel")])])]),
            .dictionary(["number": .string("3"), "instanceID": .string("uuid:v3"), "place": .string("  ")]),
            .dictionary(["hours": .string("many")]),
        ])
        let check = q.checkImport([Record(["n": .integer(0), "visit": visits, "visits": .string("4")])], clock: clock)
        XCTAssertEqual(check.droppedMembers.map(\.description), ["record 1: visit[1]: holds no answer", "record 1: visit[3]: holds no answer",
                                                               "record 1: visit[2]/stop[1]: holds no answer"])
        XCTAssertEqual(check.problems.map(\.description), ["record 1: visit[4]/hours \"many\": Hours must be a whole number"],
                       "named where it was in the file, not where it moved to")
        let kept = q.checkImport([Record(["n": .integer(0), "visit": .array(Array(visits.arrayValue!.prefix(3)))])], clock: clock)
        XCTAssertEqual(kept.problems, [])
        XCTAssertEqual(kept.records.first?["visit"], .array([.dictionary([
            "place": .string("Kisumu"), "number": .string("1"), "stop": .array([.dictionary(["what": .string("fuel")])]),
        ])]))
        XCTAssertEqual(kept.records.first?["visits"], .string("1"), "counted once the empty members are out")
    }

    func testAMemberHoldingOnlyKeysTheFormDoesNotAskIsRefusedNotDropped() throws {
        let q = try FormTestSupport.questionnaire(Self.rosterForm)
        let check = q.checkImport([Record(["n": .integer(0), "visit": .array([.dictionary(["mood": .string("good")])])])], clock: clock)
        XCTAssertEqual(check.problems.map(\.description), ["record 1: visit[1]: holds no answer to the form's questions"])
        XCTAssertEqual(check.droppedMembers, [])
    }

    func testASurveyHoldingOnlyEmptyMembersIsEmpty() throws {
        let q = try FormTestSupport.questionnaire(Self.rosterForm)
        let check = q.checkImport([Record(["visit": .array([.dictionary([:]), .dictionary(["place": .string(" ")])])])], clock: clock)
        XCTAssertEqual(check.problems.map(\.description), ["record 1: every answer is empty"])
    }

    func testARosterTheFormSkipsIsRefusedNotDropped() throws {
        let q = try FormTestSupport.questionnaire(Self.rosterForm)
        let check = q.checkImport([Record(["n": .integer(-1), "member": .array([]),
                                           "visit": .array([.dictionary(["place": .string("Kisumu")])])])], clock: clock)
        XCTAssertEqual(check.problems.map(\.description), [
            "record 1: visit: Visit is not asked in this survey (the form's relevant rule skips it): leave its members out",
        ], "the form leaves the roster out whole (ODK leaves a skipped repeat out of the submission)")
    }

    func testAPlaceReadsBackAsItsPath() {
        XCTAssertEqual(AnswerPath(place: "member[2]/job[1]/title"),
                       AnswerPath([.init(name: "member", index: 1), .init(name: "job", index: 0)], "title"))
        XCTAssertEqual(AnswerPath(place: "age"), AnswerPath("age"))
        for bad in ["", "member[0]/age", "member[x]/age", "member/age", "[2]/age", "member[2]", "a//b"] {
            XCTAssertNil(AnswerPath(place: bad), bad)
        }
    }
}

private extension PropertyValue {
    var arrayValue: [PropertyValue]? { if case .array(let items) = self { items } else { nil } }
}
