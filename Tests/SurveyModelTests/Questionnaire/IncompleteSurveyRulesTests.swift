import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms

/// Issue 30: what an incomplete survey (`Record.isIncomplete`) is spared and what it is not.
/// Stored (an import, `survey add`'s gate), only completeness is waived: a `required` answer
/// not given, a member holding no answer. A type, a constraint, an answer the form skips
/// refuse it as any survey. Finishing keeps the metadata of the interview's first opening.
final class IncompleteSurveyRulesTests: XCTestCase {
    static let form = """
    survey,,,,,,,
    ,type,name,label,required,constraint,relevant,calculation
    ,start,start,,,,,
    ,text,village,Village,yes,,,
    ,integer,age,Age,yes,. >= 15,,
    ,text,why,Why,,,${age} > 60,
    ,begin repeat,member,Household member,,,,
    ,text,name,Name,yes,,,
    ,text,relation,Relation,,,,
    ,end repeat,,,,,,
    settings,,,,,,,
    ,form_id,version,,,,,
    ,village,7,,,,,
    """

    private func marked(_ values: [String: PropertyValue]) -> Record {
        var record = Record(values)
        record.setIncomplete(true)
        return record
    }

    func testOnlyWhatACompleteSurveyMustHaveIsWaived() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let half: [String: PropertyValue] = ["village": .string("Mathare"), "member": .array([.dictionary([:]), .dictionary(["name": .string("Bo")])])]
        let complete = q.stored(Record(half), arriving: .imported, clock: FormTestSupport.clock)
        XCTAssertEqual(complete.problems.map(\.message), ["Age is required"], "a survey without the mark: refused for what it lacks")
        XCTAssertEqual(complete.problems.map(\.missing), [true])
        let incomplete = q.stored(marked(half), arriving: .imported, clock: FormTestSupport.clock)
        XCTAssertEqual(incomplete.problems, [], "the same answers, marked incomplete: stored")
        XCTAssertTrue(incomplete.record.isIncomplete, "the mark is kept")
        XCTAssertEqual(incomplete.droppedMembers, ["member[1]"], "an empty member is still left out, never stored")

        // An answer its rule refuses, and one the form skips: refused, marked or not.
        let wrong = q.stored(marked(["village": .string("Mathare"), "age": .integer(12)]), arriving: .imported, clock: FormTestSupport.clock)
        XCTAssertEqual(wrong.problems.map(\.message), ["Age: the answer is not accepted by the form's rule"])
        XCTAssertEqual(wrong.problems.map(\.missing), [false])
        let skipped = q.stored(marked(["age": .integer(30), "why": .string("old")]), arriving: .imported, clock: FormTestSupport.clock)
        XCTAssertEqual(skipped.problems.map(\.place), ["why"], "an answer the form skips would be lost: refused")
        let typed = q.checkImport([marked(["village": .string("Mathare"), "age": .string("thirty")])], clock: FormTestSupport.clock)
        XCTAssertEqual(typed.problems.map(\.field), ["age"], "a type: refused")
    }

    /// A required answer missing inside a member is what an incomplete survey may lack too.
    func testAMembersMissingAnswerIsWaivedToo() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let values: [String: PropertyValue] = ["village": .string("Mathare"), "age": .integer(40),
                                               "member": .array([.dictionary(["relation": .string("wife")])])]
        XCTAssertEqual(q.stored(Record(values), arriving: .imported, clock: FormTestSupport.clock).problems.map(\.message),
                       ["Name is required"])
        XCTAssertEqual(q.stored(marked(values), arriving: .imported, clock: FormTestSupport.clock).problems, [])
    }

    /// The mark as files give it: a CSV's text read as the app stores it, anything else named.
    func testImportReadsTheMarkAsFilesGiveIt() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let rows: [Record] = [
            Record(["village": .string("A"), Record.incompleteKey: .string(" TRUE ")]),
            Record(["village": .string("B"), "age": .integer(20), Record.incompleteKey: .string("")]),
            Record(["village": .string("C"), "age": .integer(20), Record.incompleteKey: .bool(false)]),
            Record(["village": .string("D"), Record.incompleteKey: .string("yes")]),
        ]
        let check = q.checkImport(rows, clock: FormTestSupport.clock)
        XCTAssertEqual(check.records[0][Record.incompleteKey], .bool(true))
        XCTAssertNil(check.records[1][Record.incompleteKey], "empty: complete, no key left behind")
        XCTAssertNil(check.records[2][Record.incompleteKey])
        XCTAssertEqual(check.problems.map(\.place), [.record(4), .record(4)])
        XCTAssertEqual(check.problems.map(\.field), ["age", Record.incompleteKey],
                       "an unreadable mark is no mark: D is judged complete, and the mark named")
    }

    func testFinishingKeepsWhenTheInterviewBegan() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let began = FormTestSupport.clock
        let kept = q.keptIncomplete(Record(["village": .string("Mathare")]), started: began.now,
                                    device: DeviceMetadata(deviceID: "a", username: "ana"), clock: began)
        XCTAssertTrue(kept.isIncomplete)
        XCTAssertEqual(kept["formID"], .string("village"))
        XCTAssertEqual(kept["formVersion"], .string("7"))
        let start = try XCTUnwrap(kept["start"])
        var later = began
        later.now = began.now.addingTimeInterval(86_400)
        var answered = kept
        answered["age"] = .integer(30)
        let done = q.finished(answered, device: DeviceMetadata(deviceID: "b", username: "bo"), clock: later)
        XCTAssertFalse(done.isIncomplete)
        XCTAssertNil(done[Record.incompleteKey])
        XCTAssertEqual(done["start"], start, "a day later, on another laptop: it began when it began")
        XCTAssertEqual(q.problems(in: done, clock: later).count, 0)
    }

    /// No question may be named `incomplete`: its answer would be taken for the mark.
    func testAQuestionNamedIncompleteIsRefused() throws {
        let result = XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n,text,Incomplete,Incomplete?\n"))
        XCTAssertNil(result.form)
        XCTAssertEqual(result.errors.map(\.description),
                       ["survey row 3, name: “Incomplete” cannot be a question’s name: survey writes a key of that name itself, "
                        + "so the answer would be lost or mistaken for it; rename the question"])
        XCTAssertTrue(Questionnaire.reservedKeys.contains(Record.incompleteKey))
    }
}
