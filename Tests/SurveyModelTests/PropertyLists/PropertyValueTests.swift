import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class PropertyValueTests: XCTestCase {
    func testFoundationValueRoundTripsEveryType() {
        for (key, value) in everyTypeValues {
            XCTAssertEqual(PropertyValue(foundation: value.foundationValue), value, key)
        }
        let whole = PropertyValue.dictionary(everyTypeValues)
        XCTAssertEqual(PropertyValue(foundation: whole.foundationValue), whole)
    }

    func testSerializationRoundTripsEveryTypeInXMLAndBinary() throws {
        let whole = PropertyValue.array([.dictionary(everyTypeValues)])
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: whole.foundationValue, format: format, options: 0)
            let back = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            XCTAssertEqual(PropertyValue(foundation: back), whole, "format \(format)")
        }
    }

    func testLooseDictionaryKeysAreAccepted() {
        let loose: [AnyHashable: Any] = ["a": 1, "b": ["c": "d"] as [AnyHashable: Any]]
        XCTAssertEqual(PropertyValue(foundation: loose),
                       .dictionary(["a": .integer(1), "b": .dictionary(["c": .string("d")])]))
    }

    func testUnrepresentableValuesAreRejected() {
        XCTAssertNil(PropertyValue(foundation: NSNumber(value: UInt64.max)))
        XCTAssertEqual(PropertyValue(foundation: NSNumber(value: UInt64(7))), .integer(7))
        XCTAssertNil(PropertyValue(foundation: URL(fileURLWithPath: "/")))
        XCTAssertNil(PropertyValue(foundation: [1: "non-string key"] as [AnyHashable: Any]))
        XCTAssertNil(PropertyValue(foundation: [URL(fileURLWithPath: "/")] as [Any]))
    }

    func testForbiddenCharactersAreCountedAndReplacedEverywhere() {
        let value = PropertyValue.dictionary([
            "k\u{1}": .string("a\u{0}b\u{FFFE}\u{FFFF}"),
            "tab\tlf\ncr\r": .array([.string("\u{1F}ok"), .integer(1)]),
        ])
        XCTAssertEqual(value.forbiddenCharacterCount, 5)
        XCTAssertEqual(value.replacingForbiddenCharacters(), .dictionary([
            "k\u{FFFD}": .string("a\u{FFFD}b\u{FFFD}\u{FFFD}"),
            "tab\tlf\ncr\r": .array([.string("\u{FFFD}ok"), .integer(1)]),
        ]))
    }

    func testKindDescriptions() {
        XCTAssertEqual(PropertyValue.dictionary([:]).kindDescription, "a dictionary")
        XCTAssertEqual(PropertyValue.string("").kindDescription, "a string")
        XCTAssertEqual(PropertyValue.integer(1).kindDescription, "an integer")
    }
}
