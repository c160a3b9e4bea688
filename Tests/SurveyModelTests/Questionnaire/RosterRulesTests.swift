import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A household roster evaluated as ODK evaluates it: `${age}` in a member's rule is that
/// member's (pyxform's `../age`), `count(${member})` and `sum(${age})` outside see every
/// member (`/data/member/age`), `repeat_count` makes the instances, and the gate judges
/// each member by path.
final class RosterRulesTests: XCTestCase {
    private let clock = FormTestSupport.clock

    static let form = """
    survey,,,,,,,,,
    ,type,name,label,calculation,repeat_count,relevant,constraint,constraint_message,default
    ,integer,household_size,People,,,,. > 0,,
    ,begin repeat,member,Member,,${household_size},${household_size} > 0,,,
    ,text,name,Name,,,,,,
    ,integer,age,Age,,,,. >= 0 and . < 130,Age must be 0 to 129,
    ,select_one sex,sex,Sex,,,,,,
    ,text,relation,Relation,,,,,,member
    ,text,school,School,,,${age} >= 5 and ${age} < 19,,,
    ,calculate,is_adult,,"if(${age} >= 18, 1, 0)",,,,,
    ,calculate,pos,,position(..),,,,,
    ,calculate,share,,${age} div ${total_age},,,,,
    ,end repeat,,,,,,,,
    ,calculate,members,,count(${member}),,,,,
    ,calculate,total_age,,sum(${age}),,,,,
    ,calculate,adults,,sum(${is_adult}),,,,,
    ,calculate,oldest,,max(${age}),,,,,
    ,calculate,named,,count-non-empty(${name}),,,,,
    ,calculate,names,,"join(', ', ${name})",,,,,
    ,calculate,second,,"indexed-repeat(${name}, ${member}, 2)",,,,,
    ,integer,interviewed,Interviewed,,,,. <= ${members},Cannot be more than the members listed,
    choices,,,,,,,,,
    ,list_name,name,label,,,,,,
    ,sex,f,Female,,,,,,
    ,sex,m,Male,,,,,,
    """

    static func member(_ i: Int) -> [AnswerPath.Step] { [AnswerPath.Step(name: "member", index: i)] }

    private func household(_ q: Questionnaire, ages: [Int?]) -> Record {
        var record = Record(["household_size": .integer(ages.count)])
        for (i, age) in ages.enumerated() {
            var answers: [String: PropertyValue] = ["name": .string("P\(i + 1)")]
            answers["age"] = age.map { .integer($0) }
            record.insertInstance(of: "member", answers: answers)
        }
        return record
    }

    func testNamesInAMemberAreItsOwnAndOutsideTheRoster() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var hidden: [String: PropertyValue] = [:]
        let settled = q.settled(household(q, ages: [40, 12, 70]), hidden: &hidden, clock: clock)
        XCTAssertEqual(settled["members"], .string("3"))
        XCTAssertEqual(settled["total_age"], .string("122"))
        XCTAssertEqual(settled["adults"], .string("2"))
        XCTAssertEqual(settled["oldest"], .string("70"))
        XCTAssertEqual(settled["named"], .string("3"))
        XCTAssertEqual(settled["names"], .string("P1, P2, P3"))
        XCTAssertEqual(settled["second"], .string("P2"))
        XCTAssertEqual(settled.instances(of: "member").map { $0["is_adult"] }, [.string("1"), .string("0"), .string("1")])
        XCTAssertEqual(settled.instances(of: "member").map { $0["pos"] }, [.string("1"), .string("2"), .string("3")])
        // A member's rule reads the survey's calculation too (`/data/total_age` from inside).
        XCTAssertEqual(settled.value(at: AnswerPath(Self.member(1), "share")), .string(String(12.0 / 122)))
        // `relevant` inside, per member: school is asked of the 12-year-old only.
        let school = try XCTUnwrap(q.scopeQuestionnaire(Self.member(0)).fields.firstIndex { $0.key == "school" })
        XCTAssertEqual((0..<3).map { q.relevance(at: Self.member($0), in: settled, clock: clock)[school] }, [false, true, false])
        // Defaults are the instance's own when `repeat_count` makes it.
        XCTAssertEqual(settled.instances(of: "member").map { $0["relation"] }, [nil, nil, nil], "members keyed: no default added")
    }

    func testRepeatCountMakesTheInstancesWithTheirDefaults() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        XCTAssertEqual(q.repeatCount(of: try XCTUnwrap(q.repeats.first), in: Record(["household_size": .integer(4)]), clock: clock), 4)
        var hidden: [String: PropertyValue] = [:]
        let first = q.settled(Record(["household_size": .integer(2)]), hidden: &hidden, clock: clock)
        XCTAssertEqual(first.instanceCount(of: "member"), 2)
        XCTAssertEqual(first.instances(of: "member").map { $0["relation"] }, [.string("member"), .string("member")])
        XCTAssertEqual(first["members"], .string("2"))
        var edited = first
        edited.setValue(.string("Ana"), at: AnswerPath(Self.member(0), "name"))
        edited["household_size"] = .integer(3)
        let grown = q.settled(edited, changedAt: AnswerPath("household_size"), before: first, hidden: &hidden, clock: clock)
        XCTAssertEqual(grown.instanceCount(of: "member"), 3)
        XCTAssertEqual(grown.value(at: AnswerPath(Self.member(0), "name")), .string("Ana"), "kept")
        XCTAssertEqual(grown.value(at: AnswerPath(Self.member(2), "relation")), .string("member"), "the new one's default")
        XCTAssertEqual(grown["members"], .string("3"))
        // Fewer asked for: the extra members are the keyer's to delete, never dropped.
        var fewer = grown
        fewer["household_size"] = .integer(1)
        XCTAssertEqual(q.settled(fewer, before: grown, hidden: &hidden, clock: clock).instanceCount(of: "member"), 3)
    }

    /// [ Add ]'s gate names a member's bad answer by its path, and the top level's rule that
    /// reads the roster (`. <= ${members}`) judges against its count.
    func testTheGateRefusesAMembersAnswerByPath() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var record = household(q, ages: [40, 200])
        record["interviewed"] = .integer(3)
        let completed = q.completed(record, clock: clock)
        let problems = q.problems(in: completed, clock: clock)
        XCTAssertEqual(problems.map(\.path.description), ["member[2]/age", "interviewed"])
        XCTAssertEqual(problems.map(\.message), ["member[2]/age: Age must be 0 to 129", "Cannot be more than the members listed"])
        XCTAssertEqual(problems.map { q.fields[$0.index].key }, ["member", "interviewed"])
        // The form screen's question, asked of one member.
        let age = try XCTUnwrap(q.scopeQuestionnaire(Self.member(0)).fields.firstIndex { $0.key == "age" })
        XCTAssertEqual(q.ruleProblem(age, at: Self.member(1), value: .integer(131), in: completed, clock: clock), "Age must be 0 to 129")
        XCTAssertNil(q.ruleProblem(age, at: Self.member(1), value: .integer(31), in: completed, clock: clock))
        var fixed = completed
        fixed.setValue(.integer(20), at: AnswerPath(Self.member(1), "age"))
        fixed["interviewed"] = .integer(2)
        XCTAssertEqual(q.problems(in: q.completed(fixed, clock: clock), clock: clock).map(\.message), [])
        // `repeat_count` asks for three: the third, made on completing, lacks nothing required.
        fixed["household_size"] = .integer(3)
        XCTAssertEqual(q.completed(fixed, clock: clock).instanceCount(of: "member"), 3)
    }

    /// An edit in one member re-evaluates that member's rules and the rules outside that
    /// read the roster, not the other members' (a clock calculation tells which ran).
    func testAnEditInAMemberSettlesThatMemberAndTheTotals() throws {
        let q = try FormTestSupport.questionnaire(Self.form.replacingOccurrences(of: ",calculate,pos,,position(..),,,,,",
                                                                                  with: ",calculate,pos,,\"concat(position(..), ${age}, now())\",,,,,"))
        var hidden: [String: PropertyValue] = [:]
        let first = q.settled(household(q, ages: [40, 12, 70]), hidden: &hidden, clock: clock)
        var edited = first
        let path = AnswerPath(Self.member(1), "age")
        edited.setValue(.integer(30), at: path)
        let later = Questionnaire.Clock(now: clock.now.addingTimeInterval(3600), timeZone: clock.timeZone)
        let settled = q.settled(edited, changedAt: path, before: first, hidden: &hidden, clock: later)
        XCTAssertEqual(settled["total_age"], .string("140"))
        XCTAssertEqual(settled["adults"], .string("3"))
        XCTAssertEqual(settled.value(at: AnswerPath(Self.member(1), "is_adult")), .string("1"))
        XCTAssertEqual(settled.value(at: AnswerPath(Self.member(1), "pos")), .string("2302026-12-01T01:30:00+01:00"))
        XCTAssertEqual(settled.value(at: AnswerPath(Self.member(0), "pos")), first.value(at: AnswerPath(Self.member(0), "pos")),
                       "member 1 reads nothing that changed")
        // …but its share of the total reads the total, which did.
        XCTAssertEqual(settled.value(at: AnswerPath(Self.member(0), "share")), .string(String(40.0 / 140)))
    }

    /// An answer a change hides is put aside under its path, member by member, and comes
    /// back when its question shows again; one the form hid before the change stays.
    func testHiddenAnswersArePutAsideByPath() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var record = household(q, ages: [40, 12])
        record.setValue(.string("Old school"), at: AnswerPath(Self.member(0), "school"))   // an older version's answer
        record.setValue(.string("Hill school"), at: AnswerPath(Self.member(1), "school"))
        var hidden: [String: PropertyValue] = [:]
        let start = q.settled(record, before: record, hidden: &hidden, clock: clock)
        XCTAssertEqual(start.value(at: AnswerPath(Self.member(0), "school")), .string("Old school"))
        var older = start
        older.setValue(.integer(25), at: AnswerPath(Self.member(1), "age"))
        let hiding = q.settled(older, before: start, hidden: &hidden, clock: clock)
        XCTAssertNil(hiding.value(at: AnswerPath(Self.member(1), "school")))
        XCTAssertEqual(hidden["member[2]/school"], .string("Hill school"))
        XCTAssertEqual(hiding.value(at: AnswerPath(Self.member(0), "school")), .string("Old school"), "hidden before: kept")
        var younger = hiding
        younger.setValue(.integer(13), at: AnswerPath(Self.member(1), "age"))
        let back = q.settled(younger, before: hiding, hidden: &hidden, clock: clock)
        XCTAssertEqual(back.value(at: AnswerPath(Self.member(1), "school")), .string("Hill school"))
        XCTAssertNil(hidden["member[2]/school"])
    }

    /// Members moved (settled with the repeat's name as the change): each is compared with
    /// itself, so an older version's answer a member carries is not taken for one the move
    /// hid.
    func testMovedMembersKeepWhatTheFormHidBefore() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var record = household(q, ages: [40, 12])
        record.setValue(.string("Old school"), at: AnswerPath(Self.member(0), "school"))   // not asked at 40 in this version
        record.setValue(.string("Hill school"), at: AnswerPath(Self.member(1), "school"))
        var hidden: [String: PropertyValue] = [:]
        let start = q.settled(record, before: record, hidden: &hidden, clock: clock)
        var moved = start
        XCTAssertTrue(moved.moveInstance(of: "member", from: 1, to: 0))
        let settled = q.settled(moved, changedAt: AnswerPath("member"), before: start, hidden: &hidden, clock: clock)
        XCTAssertEqual(settled.instances(of: "member").map { $0["school"] }, [.string("Hill school"), .string("Old school")])
        XCTAssertEqual(settled.instances(of: "member").map { $0["pos"] }, [.string("1"), .string("2")])
        XCTAssertEqual(hidden, [:])
    }

    /// `relevant` on the repeat hides the roster, as ODK leaves a non-relevant repeat out of
    /// the submission: members and answers put aside whole (no empty shell left to export as
    /// a blank row, issue 27 item 9), and back with it.
    func testARepeatsRelevantHidesItsInstancesAnswers() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var hidden: [String: PropertyValue] = [:]
        let start = q.settled(household(q, ages: [40, 12]), hidden: &hidden, clock: clock)
        var none = start
        none["household_size"] = .integer(0)
        let hiding = q.settled(none, before: start, hidden: &hidden, clock: clock)
        XCTAssertNil(hiding["member"], "no shells: the roster is out of the survey")
        XCTAssertEqual(hidden["member"], start["member"], "kept aside whole, members and answers")
        XCTAssertNil(q.completed(none, clock: clock)["member"], "a survey added with the roster hidden holds none of it")
        XCTAssertEqual(q.relevance(at: Self.member(0), in: hiding, clock: clock), Array(repeating: false, count: q.scopeQuestionnaire(Self.member(0)).fields.count))
        XCTAssertEqual(q.problems(in: hiding, clock: clock).filter { !$0.path.steps.isEmpty }.map(\.message), [], "a hidden roster is not judged")
        var again = hiding
        again["household_size"] = .integer(2)
        let back = q.settled(again, before: hiding, hidden: &hidden, clock: clock)
        XCTAssertEqual(back.instances(of: "member").map { $0["name"] }, [.string("P1"), .string("P2")])
        XCTAssertEqual(back["total_age"], .string("52"))
    }

    /// The binds pyxform writes for this form: a name inside the roster relative to its
    /// instance (`../age`), from outside absolute, so a node-set; the reading these tests
    /// hold the model to.
    func testPyxformWritesTheReferencesTheModelReads() throws {
        let binds = try Self.pyxformCalculations(Self.form)
        XCTAssertEqual(binds["is_adult"], "if( ../age  >= 18, 1, 0)")
        XCTAssertEqual(binds["share"], " ../age  div  /data/total_age ")
        XCTAssertEqual(binds["total_age"], "sum( /data/member/age )")
        XCTAssertEqual(binds["members"], "count( /data/member )")
        XCTAssertEqual(binds["second"], "indexed-repeat( /data/member/name ,  /data/member , 2)")
        XCTAssertEqual(binds["pos"], "position(..)")
    }

    /// Each calculation's bind as pyxform writes it into the XForm, by the question's name.
    static func pyxformCalculations(_ csv: String) throws -> [String: String] {
        let folder = try FormTestSupport.writeForms([csv])
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let script = #"""
        import json, sys, re
        from pyxform.xls2xform import convert
        xml = convert(xlsform=sys.argv[1]).xform
        import xml.etree.ElementTree as ET
        root = ET.fromstring(xml)
        out = {}
        for bind in root.iter("{http://www.w3.org/2002/xforms}bind"):
            if "calculate" in bind.attrib:
                out[bind.attrib["nodeset"].split("/")[-1]] = bind.attrib["calculate"]
        print(json.dumps(out))
        """#
        let run = try ChildProcess.run(["python3", "-c", script, folder.paths[0]])
        guard run.status == 0 else { throw XCTSkip("pyxform is not installed: \(run.errors)") }
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [String: String])
    }
}
