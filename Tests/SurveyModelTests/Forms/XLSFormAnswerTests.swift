import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Each type's rule at its bounds, required, constraint with the form's message, and
/// relevant (of the question and of its group).
final class XLSFormAnswerTests: XCTestCase {
    private func form() throws -> XLSForm {
        let csv = """
        survey,,,,,,,,
        ,type,name,label,required,required_message,constraint,constraint_message,relevant
        ,integer,age,Age,yes,Say the age,. >= 0 and . <= 150,Age is 0 to 150,
        ,decimal,height,Height,,,. > 0,,
        ,date,born,Born,,,,,
        ,time,woke,Woke,,,,,
        ,dateTime,seen,Seen,,,,,
        ,select_one yn,smoker,Smokes?,yes,,,,${age} >= 12
        ,select_multiple fruit,fruits,Fruits,,,,,
        ,begin group,work,Work,,,,,${age} >= 16
        ,text,job,Job,yes,,,,
        ,end group,,,,,,,
        ,note,thanks,Thanks,,,,,
        choices,,,,,,,,
        ,list_name,name,label,,,,,
        ,yn,yes,Yes,,,,,
        ,yn,no,No,,,,,
        ,fruit,apple,Apple,,,,,
        ,fruit,mango,Mango,,,,,
        """
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertEqual(result.errors, [])
        return try XCTUnwrap(result.form)
    }

    private func record(_ values: [String: PropertyValue]) -> Record { Record(values) }

    func testEachTypesRuleAtItsBounds() throws {
        let q = Questionnaire(form: try form())
        func stored(_ text: String, _ name: String) -> String {
            switch q.fields[q.index(name)].parse(text) {
            case .success(let v?): return "\(v)"
            case .success(nil): return "none"
            case .failure(let p): return p.message
            }
        }
        XCTAssertEqual(stored("42", "age"), "integer(42)")
        XCTAssertEqual(stored("4.5", "age"), "Age must be a whole number")
        XCTAssertEqual(stored("  ", "age"), "none")
        XCTAssertEqual(stored("1.75", "height"), "real(1.75)")
        XCTAssertEqual(stored("tall", "height"), "Height must be a number")
        XCTAssertEqual(stored("2024-02-29", "born"), "string(\"2024-02-29\")")
        XCTAssertEqual(stored("2023-02-29", "born"), "Born must be a date, YYYY-MM-DD")
        XCTAssertEqual(stored("23:59", "woke"), "string(\"23:59\")")
        XCTAssertEqual(stored("24:00", "woke"), "Woke must be a time, HH:MM")
        XCTAssertEqual(stored("2026-11-18T10:06:40+01:00", "seen"), "string(\"2026-11-18T10:06:40+01:00\")")
        XCTAssertEqual(stored("yes", "smoker"), "string(\"yes\")")
        XCTAssertEqual(stored("maybe", "smoker"), "“maybe” is not one of the choices of Smokes?")
        XCTAssertEqual(stored("mango  apple", "fruits"), "string(\"mango apple\")")
        XCTAssertEqual(stored("mango pear", "fruits"), "“pear” is not one of the choices of Fruits")
    }

    func testRequiredConstraintAndRelevantTogether() throws {
        let q = Questionnaire(form: try form())
        func check(_ r: Record) -> [String] { q.problems(in: r, clock: .wall).map { "\(q.fields[$0.index].key): \($0.message)" } }
        XCTAssertEqual(check(record([:])), ["age: Say the age"],
                       "with no age, smoker and the work group are not relevant")
        XCTAssertEqual(check(record(["age": .integer(151)])),
                       ["age: Age is 0 to 150", "smoker: Smokes? is required", "job: Job is required"])
        XCTAssertEqual(check(record(["age": .integer(13), "smoker": .string("no")])), [],
                       "13: smoker asked and answered, the work group (16+) not relevant")
        XCTAssertEqual(check(record(["age": .integer(30), "smoker": .string("no"), "job": .string("nurse")])), [])
        let job = q.index("job")
        XCTAssertFalse(q.isRelevant(job, in: record(["age": .integer(15)]), clock: .wall), "a group's relevant applies to its questions")
        XCTAssertTrue(q.isRelevant(job, in: record(["age": .integer(16)]), clock: .wall))
        XCTAssertFalse(q.fields[q.index("thanks")].kind.isAnswered, "notes are shown, not asked")
    }
}
