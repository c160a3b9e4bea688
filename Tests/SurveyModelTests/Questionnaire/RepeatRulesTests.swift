import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The form's rules in every instance of a repeat: required, constraint (with `.` and a
/// name of the same instance), relevant inside the instance and on the repeat itself, a
/// nested repeat's instances, and the survey's own answers read from inside.
final class RepeatRulesTests: XCTestCase {
    private let clock = FormTestSupport.clock

    static let form = """
    survey,,,,,,,,
    ,type,name,label,required,constraint,constraint_message,relevant,repeat_count
    ,integer,size,People,yes,,,,
    ,integer,min_age,Youngest allowed,,,,,
    ,begin repeat,member,Member,,,,${size} > 0,
    ,text,name,Name,yes,,,,
    ,integer,age,Age,yes,. >= ${min_age},Too young,,
    ,text,job,Job,yes,,,${age} >= 16,
    ,begin repeat,plot,Plot,,,,,
    ,decimal,area,Area,yes,. > 0,Area must be more than 0,,
    ,end repeat,,,,,,,
    ,end repeat,,,,,,,
    """

    private func member(_ i: Int) -> [AnswerPath.Step] { [.init(name: "member", index: i)] }

    func testEachInstanceIsJudgedWithItsOwnAnswers() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var record = Record(["size": .integer(2), "min_age": .integer(5)])
        record.insertInstance(of: "member", answers: ["name": .string("Ana"), "age": .integer(34), "job": .string("Nurse")])
        record.insertInstance(of: "member", answers: ["name": .string("Bo"), "age": .integer(3)])
        record.insertInstance(of: "member", answers: ["age": .integer(10)])
        record.insertInstance(of: "plot", in: member(0), answers: ["area": .real(0)])
        record.insertInstance(of: "plot", in: member(0))
        let problems = q.repeatProblems(in: record, clock: clock).map { "\($0.path): \($0.message)" }
        XCTAssertEqual(problems, [
            "member[1]/plot[1]/area: Area must be more than 0",
            "member[1]/plot[2]/area: Area is required",
            "member[2]/age: Too young",          // 3 < ${min_age}, the survey's answer
            "member[3]/name: Name is required",  // job is not asked at 10: age is this member's
        ])
        // The gate for [ Add ] judges them too, each at the repeat's row, named by its path.
        let gate = q.problems(in: record, clock: clock)
        XCTAssertEqual(gate.map(\.path.description), ["member[1]/plot[1]/area", "member[1]/plot[2]/area", "member[2]/age", "member[3]/name"])
        XCTAssertEqual(Set(gate.map { q.fields[$0.index].key }), ["member"])
        XCTAssertEqual(gate[2].message, "member[2]/age: Too young")
    }

    func testARepeatItsRelevantHidesIsNotJudged() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var record = Record(["size": .integer(0)])
        record.insertInstance(of: "member")
        XCTAssertEqual(q.repeatProblems(in: record, clock: clock).map(\.path.description), [])
        record["size"] = .integer(1)
        XCTAssertEqual(q.repeatProblems(in: record, clock: clock).map(\.path.description), ["member[1]/name", "member[1]/age"])
    }

    func testAFlatFormHasNoRepeatProblems() throws {
        let q = try FormTestSupport.household()
        XCTAssertEqual(q.repeats, [])
        XCTAssertTrue(q.repeatProblems(in: Record(["members": .integer(-1)]), clock: clock).isEmpty)
    }

    /// An import (a JSON or plist file another tool wrote) is judged member by member too,
    /// and a survey whose answers are all in its roster is not blank. Answers in a roster the
    /// form skips (no `size`) are refused, as any answer to a question the form skips.
    func testAnImportIsJudgedInEveryInstance() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let roster: PropertyValue = .array([.dictionary(["name": .string("Ana"), "age": .integer(34), "job": .string("Nurse")]),
                                            .dictionary(["name": .string("Bo"), "age": .string("old")])])
        let check = q.checkImport([Record(["size": .integer(2), "min_age": .integer(5), "member": roster]), Record(["member": .array([.dictionary(["name": .string("Cy"), "age": .integer(3)])])])],
                                  clock: clock)
        XCTAssertEqual(check.problems.map(\.description), [
            "record 1: member[2]/age \"old\": Age must be a whole number",
            "record 2: size: People is required",
            "record 2: member: Member is not asked in this survey (the form's relevant rule skips it): leave its members out",
        ])
    }
}
