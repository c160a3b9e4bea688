import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A survey's `instance_name` is worked out from the answers it names alone (each read out
/// of the packed survey, a roster whole when a name is inside it), and says what it said when
/// the whole survey was read for it.
final class InstanceNameTests: XCTestCase {
    static let form = """
    survey,,,,
    ,type,name,label,calculation
    ,text,village,Village,
    ,begin repeat,member,Member,
    ,text,name,Name,
    ,integer,age,Age,
    ,end repeat,,,
    ,text,notes,Notes,
    settings,,,,
    ,form_id,instance_name,,
    ,named,"concat(${village}, ': ', count(${member}), ' people, eldest ', max(${age}), ', first ', indexed-repeat(${name}, ${member}, 1))",,
    """

    func testANameReadingARosterReadsTheRosterAndNothingElse() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var record = Record(["village": .string("Kirra"), "notes": .string("long notes")])
        for (name, age) in [("Ana", 40), ("Bo", 71), ("Cy", 9)] {
            record.insertInstance(of: "member", answers: ["name": .string(name), "age": .integer(age)])
        }
        XCTAssertEqual(q.name(of: record), "Kirra: 3 people, eldest 71, first Ana")
        let expression = try XCTUnwrap(q.form?.instanceName)
        XCTAssertEqual(Set(q.answers(namedBy: expression, in: record).keys), ["village", "member"], "not the notes")
        XCTAssertEqual(expression.evaluate(in: q.context(record, current: "", clock: .wall)).string,
                       "Kirra: 3 people, eldest 71, first Ana", "the whole survey read says the same")
    }
}
