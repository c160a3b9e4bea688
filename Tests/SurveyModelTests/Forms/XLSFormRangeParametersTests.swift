import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms

/// A `range` question's parameters judged as pyxform 4.5 judges them (Python's `Decimal`),
/// for the numbers a designer writes and those a hostile file carries: none crashes the
/// check, and each verdict is pyxform's, asked of the same form.
final class XLSFormRangeParametersTests: XCTestCase {
    private struct Case {
        let parameters: String
        /// Part of survey's error, nil when the form is accepted.
        let refusal: String?
    }

    private static let cases: [Case] = [
        // Sums and magnitudes that do not fit in 64 bits (each trapped before).
        Case(parameters: "start=9e18 end=-999999999999999999 step=1", refusal: nil),
        Case(parameters: "start=92233720368547758e2 end=-8 step=1", refusal: nil),
        Case(parameters: "start=92233720368547758e2 end=-8 step=-1 placeholder=-8", refusal: nil),
        Case(parameters: "start=1e-9223372036854775808 end=10 step=1", refusal: "the range’s start must be a number"),
        Case(parameters: "start=1e99999999999999999999999 end=10 step=1", refusal: "the range’s start must be a number"),
        // What Python's Decimal reads, so pyxform takes (each refused before).
        Case(parameters: "start=0 end=1e30 step=1e29", refusal: nil),
        Case(parameters: "start=0 end=1 step=0.0000000000000000001", refusal: nil),
        Case(parameters: "start=1_0 end=20 step=1", refusal: nil),
        Case(parameters: "start=٠ end=٢٠ step=١", refusal: nil),
        Case(parameters: "start=0 end=1234567890123456789012345 step=1", refusal: nil),
        Case(parameters: "start=0 end=1e100 step=1e99", refusal: nil),
        // What pyxform refuses, refused still.
        Case(parameters: "start=0 end=1e30 step=2e30", refusal: "must not be larger than the range"),
        Case(parameters: "start=0 end=5 step=10", refusal: "must not be larger than the range"),
        Case(parameters: "start=0 end=Infinity step=1", refusal: "the range’s end must be a number"),
        Case(parameters: "start=0 end=1 step=0.1 tick_interval=0.25", refusal: "'tick_interval' must be a multiple of 'step'"),
        Case(parameters: "start=0.1 end=0.7 step=0.2 placeholder=0.3", refusal: nil),
        Case(parameters: "start=0.1 end=0.7 step=0.2 placeholder=0.4", refusal: "'placeholder' must be a multiple of 'step'"),
        Case(parameters: "start=1 end=5 step=1 placeholder=6", refusal: "'placeholder' must be between"),
        Case(parameters: "start=1_ end=1e_1 step=.5", refusal: nil),
        Case(parameters: "start=1e end=10 step=1", refusal: "the range’s start must be a number"),
    ]

    private static func csv(_ parameters: String) -> String {
        "survey,,,,\n,type,name,label,parameters\n,range,a,A,\"\(parameters)\"\n"
    }

    func testHostileAndUnusualNumbersAreJudgedAsPyxformJudgesThem() throws {
        for c in Self.cases {
            let result = XLSForm.read(try XLSFormSheets.csv(Self.csv(c.parameters)))
            let errors = result.errors.map(\.description)
            if let refusal = c.refusal {
                XCTAssertEqual(errors.count, 1, c.parameters)
                XCTAssertTrue(errors.first?.contains(refusal) == true, "\(c.parameters): \(errors)")
            } else {
                XCTAssertEqual(errors, [], c.parameters)
            }
            let pyxform = try FormTestSupport.pyxform(Self.csv(c.parameters))
            XCTAssertEqual(pyxform["error"] == nil, c.refusal == nil, "pyxform on \(c.parameters): \(pyxform["error"] ?? "accepted")")
        }
    }

    /// The numbers a keyer's range is drawn from are the ones read here.
    func testTheQuestionUsesTheNumbersPythonReads() throws {
        let q = try FormTestSupport.questionnaire(Self.csv("start=1_0 end=2e1 step=0.5"))
        XCTAssertEqual(q.fields.first?.kind, .range(start: 10, end: 20, step: 0.5))
        let tiny = try FormTestSupport.questionnaire(Self.csv("start=0 end=1 step=0.0000000000000000001"))
        XCTAssertEqual(tiny.fields.first?.kind, .range(start: 0, end: 1, step: 1e-19))
    }
}
