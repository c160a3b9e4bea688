import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The types a terminal collects after all: locations typed, a range's steps, a rank's
/// order, an attachment's file name; the device metadata kept without a value.
final class TypedAnswerTests: XCTestCase {
    static let form = """
    survey,,,,
    ,type,name,label,parameters
    ,geopoint,spot,Spot,
    ,geotrace,path,Path,
    ,geoshape,plot,Plot,
    ,range,score,Score,start=0 end=10 step=2
    ,range,depth,Depth,start=0.5 end=2 step=0.5
    ,rank fruit,order,Order,
    ,image,photo,Photo,
    ,barcode,code,Code,
    ,username,user,,
    ,start-geopoint,where,,
    ,hidden,secret,,
    ,audit,,,
    choices,,,,
    ,list_name,name,label,
    ,fruit,apple,Apple,
    ,fruit,mango,Mango,
    ,fruit,kiwi,Kiwi,
    """

    private func field(_ key: String) throws -> FieldSpec {
        try XCTUnwrap(try FormTestSupport.questionnaire(Self.form).field(forKey: key))
    }

    private func refusal(_ key: String, _ text: String) throws -> String? {
        if case .failure(let error) = try field(key).parse(text) { return error.message }
        return nil
    }

    func testEachRowHasItsKind() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        XCTAssertEqual(q.fields.map(\.kind), [
            .geo(.point), .geo(.trace), .geo(.shape), .range(start: 0, end: 10, step: 2), .range(start: 0.5, end: 2, step: 0.5),
            .rank(list: "fruit", names: ["apple", "mango", "kiwi"]), .attachment("image"), .text(maxLength: Int.max),
            .metadata("username"), .metadata("start-geopoint"), .metadata("hidden"), .metadata("audit"),
        ])
        let warnings = XLSForm.read(try XLSFormSheets.csv(Self.form)).warnings.map(\.description)
        XCTAssertEqual(warnings, [
            "survey row 12, type: “start-geopoint” is device metadata a laptop does not have: kept in the survey, empty",
        ])
    }

    func testALocationIsTypedAsODKStoresIt() throws {
        XCTAssertEqual(try field("spot").parse(" -1.5  36.8 1650 5 "), .success(.string("-1.5 36.8 1650 5")))
        XCTAssertEqual(try refusal("spot", "91 36"), "Spot: the latitude 91 is not between -90 and 90")
        XCTAssertEqual(try refusal("spot", "1 -181"), "Spot: the longitude -181 is not between -180 and 180")
        XCTAssertEqual(try refusal("spot", "1"), "Spot: a location is “latitude longitude [altitude [accuracy]]”, numbers separated by spaces")
        XCTAssertEqual(try refusal("spot", "1 2 3 -4"), "Spot: the accuracy -4 cannot be negative")
        XCTAssertEqual(try refusal("spot", "1 x"), "Spot: “x” is not a number")
        XCTAssertEqual(try field("path").parse("1 2;1.5 2.5"), .success(.string("1 2; 1.5 2.5")))
        XCTAssertEqual(try refusal("path", "1 2"), "Path is a line: at least 2 points, separated by “;”")
        XCTAssertEqual(try refusal("path", "1 2; 95 3"), "Path (point 2): the latitude 95 is not between -90 and 90")
        XCTAssertEqual(try field("plot").parse("0 0; 0 1; 1 1; 0 0"), .success(.string("0 0; 0 1; 1 1; 0 0")))
        XCTAssertEqual(try refusal("plot", "0 0; 0 1; 1 1; 1 0"), "Plot is a closed shape: its last point must be its first again")
    }

    func testARangeTakesItsSteps() throws {
        XCTAssertEqual(try field("score").parse("4"), .success(.integer(4)))
        XCTAssertEqual(try refusal("score", "5"), "Score must be a number from 0 to 10 in steps of 2")
        XCTAssertEqual(try refusal("score", "12"), "Score must be a number from 0 to 10 in steps of 2")
        XCTAssertEqual(try field("depth").parse("1.5"), .success(.real(1.5)))
        XCTAssertEqual(try refusal("depth", "0.7"), "Depth must be a number from 0.5 to 2 in steps of 0.5")
        XCTAssertEqual(try field("score").imported(.real(6)), .success(.integer(6)))
        let bad = XLSForm.read(try XLSFormSheets.csv("survey,,,,\n,type,name,label,parameters\n,range,r,R,start=a step=0\n"))
        XCTAssertEqual(bad.errors.map(\.message), ["the range’s start must be a number, not “a”", "the range’s step cannot be 0"])
    }

    func testARankOrdersEveryChoiceOnce() throws {
        XCTAssertEqual(try field("order").parse("kiwi apple mango"), .success(.string("kiwi apple mango")))
        XCTAssertEqual(try refusal("order", "kiwi apple"), "Order ranks every choice, in order: “mango” is missing")
        XCTAssertEqual(try refusal("order", "kiwi kiwi apple mango"), "Order ranks “kiwi” twice: each choice once, in order")
        XCTAssertEqual(try refusal("order", "kiwi pear"), "“pear” is not one of the choices of Order")
    }

    func testAnAttachmentIsAFileNameThatStaysInItsFolder() throws {
        XCTAssertEqual(try field("photo").parse("tree.jpg"), .success(.string("tree.jpg")))
        XCTAssertEqual(try refusal("photo", "../tree.jpg"),
                       "Photo is the name of a file in the document’s media folder: “../tree.jpg” is a path, not a file name")
        XCTAssertEqual(try refusal("photo", ".hidden"),
                       "Photo is the name of a file in the document’s media folder: “.hidden” starts with a dot")
    }
}
