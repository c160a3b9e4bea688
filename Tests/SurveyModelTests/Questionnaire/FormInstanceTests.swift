import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms

/// `FormInstance` (issue 29): one survey under its form answers every rule at a typed place,
/// the top level's and a member's alike, as the questionnaire's own rules do there; and it
/// reads the survey's answers out of its bytes only when a rule reads them.
final class FormInstanceTests: XCTestCase {
    private let clock = FormTestSupport.clock

    private func household(_ q: Questionnaire, ages: [Int]) -> Record {
        var record = Record(["household_size": .integer(ages.count)])
        for (i, age) in ages.enumerated() {
            record.insertInstance(of: "member", answers: ["name": .string("P\(i + 1)"), "age": .integer(age)])
        }
        return q.completed(record, clock: clock)
    }

    func testAMembersRulesAreItsOwnAndTheTopLevelsAreTheSurveys() throws {
        let q = try FormTestSupport.questionnaire(RosterRulesTests.form)
        let record = household(q, ages: [40, 12, 70])
        let survey = FormInstance(q, record: record, clock: clock)
        let member = q.scopeQuestionnaire(RosterRulesTests.member(1))
        let school = FieldIndex(try XCTUnwrap(member.fields.firstIndex { $0.key == "school" }))
        let age = FieldIndex(try XCTUnwrap(member.fields.firstIndex { $0.key == "age" }))
        let interviewed = FieldIndex(try XCTUnwrap(q.fields.firstIndex { $0.key == "interviewed" }))

        // Relevance: member 2 (12) goes to school, members 1 and 3 do not.
        XCTAssertEqual((0..<3).map { survey.relevance(at: RosterRulesTests.member($0))[school.row] }, [false, true, false])
        XCTAssertEqual(survey.relevance(), q.relevance(in: record, clock: clock))
        // A member's constraint in its own words; the top level's reads the roster.
        XCTAssertEqual(survey.problem(at: QuestionPlace(age, at: RosterRulesTests.member(1)), value: .integer(131)), "Age must be 0 to 129")
        XCTAssertNil(survey.problem(at: QuestionPlace(age, at: RosterRulesTests.member(1)), value: .integer(30)))
        XCTAssertEqual(survey.problem(at: QuestionPlace(interviewed), value: .integer(4)), "Cannot be more than the members listed")
        XCTAssertNil(survey.problem(at: QuestionPlace(interviewed), value: .integer(3)))
        // The default a member's question offers, the count the roster asks for, the gate.
        let relation = FieldIndex(try XCTUnwrap(member.fields.firstIndex { $0.key == "relation" }))
        XCTAssertEqual(survey.defaultText(at: QuestionPlace(relation, at: RosterRulesTests.member(0))), "member")
        XCTAssertEqual(survey.repeatCount(of: try XCTUnwrap(q.repeats.first)), 3)
        XCTAssertEqual(survey.problems().map(\.message), q.problems(in: record, clock: clock).map(\.message))
        let sex = FieldIndex(try XCTUnwrap(member.fields.firstIndex { $0.key == "sex" }))
        XCTAssertEqual(survey.choices(at: QuestionPlace(sex, at: RosterRulesTests.member(2))).map(\.name), ["f", "m"])
    }

    /// A rule that reads no answer (`required: yes`) never has the survey's answers read out
    /// of its bytes: a frame of such questions decodes no roster.
    func testARuleThatReadsNoAnswerReadsNoneOutOfTheSurvey() throws {
        let q = try FormTestSupport.questionnaire("""
            survey,,,,
            ,type,name,label,required
            ,text,name,Name,yes
            ,integer,age,Age,${name} != ''
            """)
        let reads = Counter()
        let survey = FormInstance(q, reading: { reads.add(); return ["name": .string("Ana")] }, clock: clock)
        XCTAssertTrue(survey.isRequired(QuestionPlace(FieldIndex(0))))
        XCTAssertEqual(reads.value, 0, "required: yes reads nothing")
        XCTAssertTrue(survey.isRequired(QuestionPlace(FieldIndex(1))))
        XCTAssertTrue(survey.isRequired(QuestionPlace(FieldIndex(1))))
        XCTAssertEqual(reads.value, 1, "read once, when a rule first read an answer")
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
