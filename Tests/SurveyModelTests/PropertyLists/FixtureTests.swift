import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The two files handed over from the original app and from plistlib load with exact values.
final class FixtureTests: XCTestCase {
    func testSeedSerialized() throws {
        let document = try SurveyDocument(propertyListData: TestSupport.fixtureData("seed-serialized.xml"))
        XCTAssertEqual(document.records, [
            Record(["address": .string("123 Any St."), "age": .integer(20), "firstName": .string("John"),
                    "lastName": .string("Smith"), "phone": .string("555-1234")]),
            Record(["address": .string("789 Town St."), "age": .integer(40), "firstName": .string("Doris"),
                    "lastName": .string("Jones"), "phone": .string("555-1234")]),
        ])
        XCTAssertEqual(document.forbiddenCharacterCount, 0)
    }

    func testPlistlibUnicode() throws {
        let document = try SurveyDocument(propertyListData: TestSupport.fixtureData("plistlib-unicode.plist"))
        XCTAssertEqual(document.records, [
            Record(["address": .string("Calle Mayor 5, Madrid"), "age": .integer(35),
                    "firstName": .string("Jos\u{E9}"), "lastName": .string("N\u{FA}\u{F1}ez"),
                    "phone": .string("+34 600 000 000")]),
            Record(["address": .string("\u{6771}\u{4EAC}\u{90FD}\u{5343}\u{4EE3}\u{7530}\u{533A}1-1"),
                    "age": .integer(28), "firstName": .string("\u{7F8E}\u{54B2}"),
                    "lastName": .string("\u{5C71}\u{7530}"), "phone": .string("03-1234-5678")]),
            Record(["address": .string("12 Rue de l'\u{C9}glise"), "age": .integer(61),
                    "firstName": .string("Zo\u{EB}"), "lastName": .string("O'Brien"), "phone": .string("")]),
            Record(["address": .string("Av. Paulista 1000 \u{1F3D9}\u{FE0F}"), "firstName": .string("Ana"),
                    "lastName": .string("Lima"), "phone": .string("+55 11 99999-0000")]),
            Record(["address": .string(""), "age": .integer(0), "firstName": .string("Omar"),
                    "lastName": .string("Haddad"), "notes": .string("kept by other tools"),
                    "phone": .string("555-0100"), "tags": .array([.string("pilot"), .string("wave-2")])]),
        ])
        let age = Questionnaire.standard.field(forKey: "age")!
        XCTAssertEqual(document.records.map { $0.text(for: age) }, ["35", "28", "61", "", "0"])
        XCTAssertEqual(document.records.map(\.listTitle),
                       ["N\u{FA}\u{F1}ez, Jos\u{E9}", "\u{5C71}\u{7530}, \u{7F8E}\u{54B2}",
                        "O'Brien, Zo\u{EB}", "Lima, Ana", "Haddad, Omar"])
    }

    func testFixturesSurviveSaveAndLoad() throws {
        for name in ["seed-serialized.xml", "plistlib-unicode.plist"] {
            let document = try SurveyDocument(propertyListData: TestSupport.fixtureData(name))
            let again = try SurveyDocument(propertyListData: document.propertyListData())
            XCTAssertEqual(again, document, name)
        }
    }

    func testSeedIsWrittenBackByteForByte() throws {
        // Same writer as the original app: sorted keys and tabs, so diffs stay minimal.
        let data = try TestSupport.fixtureData("seed-serialized.xml")
        let document = try SurveyDocument(propertyListData: data)
        XCTAssertEqual(String(decoding: try document.propertyListData(), as: UTF8.self),
                       String(decoding: data, as: UTF8.self))
    }
}
