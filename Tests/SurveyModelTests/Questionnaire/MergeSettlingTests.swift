import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A survey merged from two copies gets the form's calculations (`settledAfterMerge`), and
/// only those: its answers stay as the merge left them.
final class MergeSettlingTests: XCTestCase {
    private let clock = FormTestSupport.clock

    static let form = """
        survey
        ,type,name,label,relevant,calculation
        ,integer,a,A
        ,text,why,Why,${a} > 1
        ,calculate,twice,,,${a} * 2
        ,begin repeat,member,Member
        ,integer,age,Age
        ,calculate,older,,,${age} + 1
        ,end repeat
        ,calculate,people,,,count(${member})
        """

    func testOnlyTheCalculationsChangeAndEveryAnswerStaysAsMerged() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        let before = Record(["a": .integer(5), "why": .string("kept"), "twice": .string("10"),
                             "member": .array([.dictionary(["age": .integer(3), "older": .string("4")])]), "people": .string("1")])
        var merged = before
        merged["a"] = .integer(0)   // theirs: the form now skips `why`
        merged["member"] = .array([.dictionary(["age": .integer(7), "older": .string("4")]),
                                   .dictionary(["age": .integer(9), "older": .string("10")])])
        let settled = q.settledAfterMerge(merged, before: before, clock: clock)
        XCTAssertEqual(settled["why"], .string("kept"), "an answer is never hidden by the merge's settling")
        XCTAssertEqual(settled["twice"], .string("0"))
        XCTAssertEqual(settled["member"], .array([.dictionary(["age": .integer(7), "older": .string("8")]),
                                                  .dictionary(["age": .integer(9), "older": .string("10")])]))
        XCTAssertEqual(settled["people"], .string("2"))
        XCTAssertEqual(q.settledAfterMerge(before, before: before, clock: clock), before, "nothing merged, nothing computed")
    }

    func testAConflictsPathNamesACalculationInItsScope() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        XCTAssertTrue(q.isCalculation(at: SyncFieldPath(text: "twice")!))
        XCTAssertTrue(q.isCalculation(at: SyncFieldPath(text: "member[2]/older")!))
        XCTAssertFalse(q.isCalculation(at: SyncFieldPath(text: "member[2]/age")!))
        XCTAssertFalse(q.isCalculation(at: SyncFieldPath(text: "member")!), "the roster as a whole")
        XCTAssertFalse(q.isCalculation(at: SyncFieldPath(text: "older")!), "not a top-level name")
        XCTAssertFalse(q.isCalculation(at: SyncFieldPath()), "the whole survey")
        XCTAssertFalse(Questionnaire.standard.isCalculation(at: SyncFieldPath(text: "age")!))
    }
}
