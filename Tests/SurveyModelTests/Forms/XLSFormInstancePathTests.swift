import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Paths into the form's own instance, as pyxform passes them to the XForm (`/data/x`,
/// `../total`, `current()/../..`, `${rep}[i]/x`): read as the question each reaches.
final class XLSFormInstancePathTests: XCTestCase {
    func testAnAbsolutePathIsTheQuestionItReaches() throws {
        let q = try FormTestSupport.questionnaire("""
            survey,,,,
            ,type,name,label,calculation
            ,begin group,g,G,
            ,integer,a,A,
            ,end group,,,
            ,calculate,double,,/data/g/a * 2
            ,calculate,other_root,,/test_name/g/a + 1
            """)
        let done = q.completed(Record(["a": .integer(4)]), clock: .wall)
        XCTAssertEqual(done["double"], .string("8"))
        XCTAssertEqual(done["other_root"], .string("5"), "pyxform does not check the root's name")
    }

    /// `../total` beside the question: in a loop, the `total` of the same choice.
    func testARelativePathReadsBesideTheQuestion() throws {
        let q = try FormTestSupport.questionnaire("""
            survey,,,,
            ,type,name,label,constraint
            ,begin loop over types,vehicles,,
            ,integer,total,How many?,
            ,integer,working,How many work?,. <= ../total
            ,end loop,,,
            choices,,,,
            ,list_name,name,label,
            ,types,car,Car,
            ,types,bike,Bike,
            """)
        let working = try XCTUnwrap(q.fields.firstIndex { $0.key == "vehicles/bike/working" })
        let record = Record(["vehicles/car/total": .integer(1), "vehicles/bike/total": .integer(5)])
        XCTAssertNil(q.ruleProblem(working, value: .integer(3), in: record, clock: .wall))
        XCTAssertNotNil(q.ruleProblem(working, value: .integer(6), in: record, clock: .wall))
    }

    /// `${rep}[position() = position(current()/../..) - 1]/group/x`: the previous instance's
    /// answer, as pyxform's own test writes it; `${rep}[2]/x` the second's.
    func testARepeatInstanceByPredicateIsIndexedRepeat() throws {
        let q = try FormTestSupport.questionnaire("""
            survey,,,,
            ,type,name,label,calculation
            ,begin repeat,visit,Visit,
            ,begin group,g,G,
            ,integer,weight,Weight,
            ,calculate,before,,${visit}[position() = position(current()/../..) - 1]/g/weight
            ,end group,,,
            ,end repeat,,,
            ,calculate,second,,${visit}[2]/g/weight
            """)
        let visits = PropertyValue.array([.dictionary(["weight": .integer(60)]), .dictionary(["weight": .integer(62)]),
                                          .dictionary(["weight": .integer(65)])])
        let done = q.completed(Record(["visit": visits]), clock: .wall)
        XCTAssertEqual(done["second"], .string("62"))
        guard case .array(let items)? = done["visit"], items.count == 3, case .dictionary(let third) = items[2] else {
            return XCTFail("three visits")
        }
        XCTAssertEqual(third["before"], .string("62"))
    }

    /// A path that reaches no question reads nothing, with a warning naming it, as JavaRosa
    /// reads an empty node-set (XLSFormReadsNothingTests has what is kept).
    func testAPathToNoQuestionIsAWarning() throws {
        func read(_ calculation: String) throws -> (errors: [String], warnings: [String]) {
            let result = XLSForm.read(try XLSFormSheets.csv("survey,,,,\n,type,name,label,calculation\n,integer,a,A,\n,calculate,c,,\(calculation)\n"))
            return (result.errors.map(\.description), result.warnings.map(\.description))
        }
        XCTAssertEqual(try read("/data/b + 1").warnings, ["survey row 4, calculation: the path /data/b reaches no question of the form: it reads nothing"])
        XCTAssertEqual(try read("../b").warnings, ["survey row 4, calculation: the path ../b reaches no question of the form: it reads nothing"])
        XCTAssertEqual(try read("../../../a").warnings, ["survey row 4, calculation: the path ../../../a goes above the form's root: it reads nothing"])
        for path in ["/data/b + 1", "../b", "../../../a", "/data/a", "../a"] { XCTAssertEqual(try read(path).errors, [], path) }
        XCTAssertEqual(try read("/data/a").warnings, [])
        XCTAssertEqual(try read("../a").warnings, [])
    }
}
