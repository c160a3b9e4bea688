import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// What a keyer is told when an answer is refused or must be given, as ODK Collect tells it:
/// in the language the labels are shown in, with the answers a message names filled in
/// where the question is (in a roster, the member's), and a `*` that follows a `required`
/// reading answers.
final class RuleMessageTests: XCTestCase {
    private let clock = FormTestSupport.clock

    static let form = """
    survey,,,,,,,,,,
    ,type,name,label::English (en),label::Swahili (sw),required,constraint,constraint_message::English (en),constraint_message::Swahili (sw),calculation,required_message::Swahili (sw)
    ,integer,minimum,Minimum,Kiwango,,,,,,
    ,begin repeat,stem,Stem,Tawi,,,,,,
    ,calculate,floor,,,,,,,${minimum} * 2,
    ,integer,cbh,Circumference,Mzunguuko,yes,. >= ${floor},At least ${floor} cm,Angalau ${floor} cm,,
    ,select_one health,health,Health,Hali,yes,,,,,
    ,decimal,height,Height,Urefu,${health} = 'dead',,,,,Urefu unahitajika
    ,end repeat,,,,,,,,,
    choices,,,,,,,,,,
    ,list_name,name,label::English (en),label::Swahili (sw),,,,,,
    ,health,alive,Alive,Hai,,,,,,
    ,health,dead,Dead,Mkavu,,,,,,
    settings,,,,,,,,,,
    ,default_language,,,,,,,,,
    ,Swahili (sw),,,,,,,,,
    """

    private func record(health: String) -> Record {
        Record(["minimum": .integer(3), "stem": .array([.dictionary(["floor": .string("6"), "health": .string(health)])])])
    }

    func testAConstraintMessageIsInTheShownLanguageWithTheMembersAnswersFilledIn() throws {
        let member = [AnswerPath.Step(name: "stem", index: 0)]
        for (language, expected) in [(nil, "Angalau 6 cm"), ("English (en)", "At least 6 cm")] {
            let q = try FormTestSupport.questionnaire(Self.form, language: language)
            let scope = q.scopeQuestionnaire(member)
            let cbh = try XCTUnwrap(scope.fields.firstIndex { $0.key == "cbh" })
            // Many runs: the language was once picked by a dictionary's order.
            for _ in 0..<5 {
                XCTAssertEqual(q.ruleProblem(cbh, at: member, value: .integer(4), in: record(health: "alive"), clock: clock), expected)
            }
            XCTAssertNil(q.ruleProblem(cbh, at: member, value: .integer(6), in: record(health: "alive"), clock: clock))
        }
    }

    func testARequiredThatReadsAnswersFollowsThem() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let member = [AnswerPath.Step(name: "stem", index: 0)]
        let scope = q.scopeQuestionnaire(member)
        let height = try XCTUnwrap(scope.fields.firstIndex { $0.key == "height" })
        let cbh = try XCTUnwrap(scope.fields.firstIndex { $0.key == "cbh" })
        XCTAssertFalse(q.isRequired(height, at: member, in: record(health: "alive"), clock: clock))
        XCTAssertTrue(q.isRequired(height, at: member, in: record(health: "dead"), clock: clock))
        XCTAssertTrue(q.isRequired(cbh, at: member, in: record(health: "alive"), clock: clock))
        XCTAssertEqual(q.ruleProblem(height, at: member, value: nil, in: record(health: "dead"), clock: clock), "Urefu unahitajika")
        XCTAssertNil(q.ruleProblem(height, at: member, value: nil, in: record(health: "alive"), clock: clock))
    }
}
