import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Documents to JSON and back: the exact text, the value mapping, and what is refused.
final class DocumentJSONTests: XCTestCase {
    private func fixture(_ name: String) throws -> SurveyDocument {
        try SurveyDocument(propertyListData: TestSupport.fixtureData(name))
    }

    private func records(_ json: String) throws -> [Record] {
        try SurveyDocument.records(json: Data(json.utf8))
    }

    func testKnownKeysComeFirstInOrderThenTheIDThenOthersSorted() {
        let document = SurveyDocument(records: [
            Record(["zeta": .bool(true), "age": .integer(35), "firstName": .string("Ana"),
                    "instanceID": .string("uuid:0f8fad5b-d9cb-469f-a165-70867728950e"),
                    "alpha": .array([.string("x"), .dictionary(["b": .integer(1), "a": .array([])])])]),
        ])
        XCTAssertEqual(document.jsonText(), """
            [
              {
                "firstName": "Ana",
                "lastName": null,
                "address": null,
                "phone": null,
                "age": 35,
                "instanceID": "uuid:0f8fad5b-d9cb-469f-a165-70867728950e",
                "alpha": [
                  "x",
                  {
                    "a": [],
                    "b": 1
                  }
                ],
                "zeta": true
              }
            ]

            """)
    }

    func testARecordWithoutAnIDSaysNullAtItsPlace() {
        XCTAssertEqual(SurveyDocument(records: [Record(["notes": .string("n")])]).jsonText(), """
            [
              {
                "firstName": null,
                "lastName": null,
                "address": null,
                "phone": null,
                "age": null,
                "instanceID": null,
                "notes": "n"
              }
            ]

            """)
    }

    func testAnEmptyDocumentIsAnEmptyArray() {
        XCTAssertEqual(SurveyDocument().jsonText(), "[]\n")
    }

    func testAgeIsANumberNullOrTheStoredText() throws {
        let document = SurveyDocument(records: [
            Record(["age": .integer(0)]), Record([:]), Record(["age": .string("thirty")]),
        ])
        let ages = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(document.jsonText().utf8)) as? [[String: Any]])
            .map { $0["age"] }
        XCTAssertEqual(ages[0] as? Int, 0)
        XCTAssertTrue(ages[1] is NSNull)
        XCTAssertEqual(ages[2] as? String, "thirty")
    }

    func testEveryPropertyListTypeHasADocumentedForm() {
        let expected: [String: String] = [
            "uString": #""héllo 🏙️""#, "uInteger": "-42", "uBigInteger": "9223372036854775807",
            "uReal": "2.5", "uWholeReal": "3.0", "uTrue": "true", "uFalse": "false", "uZero": "0", "uOne": "1",
            "uDate": #""2023-11-14T22:13:20Z""#, "uData": #""AAEC/w==""#, "uEmptyData": #""""#,
        ]
        for (key, text) in expected {
            XCTAssertEqual(everyTypeValues[key]?.jsonText(), text, key)
        }
        XCTAssertEqual(PropertyValue.real(.nan).jsonText(), #""NaN""#)
        XCTAssertEqual(PropertyValue.real(-.infinity).jsonText(), #""-Infinity""#)
        XCTAssertEqual(PropertyValue.real(1e-5).jsonText(), "1e-05")
    }

    func testStringsEscapeQuotesBackslashesAndControls() {
        XCTAssertEqual(PropertyValue.string("q\"b\\n\n\r\t\u{1}\u{1B}\u{7F}\u{9B}\u{2028}/é").jsonText(),
                       #""q\"b\\n\n\r\t\u0001\u001b\u007f\u009b\u2028/é""#)
    }

    func testPlistlibFixtureRoundTripsIncludingUnknownKeys() throws {
        let document = try fixture("plistlib-unicode.plist")
        let check = Questionnaire.standard.checkImport(try records(document.jsonText()), clock: .wall)
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.records, Array(document.records))
        XCTAssertEqual(check.records[4].values["tags"], .array([.string("pilot"), .string("wave-2")]))
        XCTAssertEqual(check.records[4].values["notes"], .string("kept by other tools"))
    }

    func testUnknownValuesRoundTripExceptDatesAndDataWhichComeBackAsText() throws {
        var values = everyTypeValues
        values["firstName"] = .string("Ana")
        let back = try records(SurveyDocument(records: [Record(values)]).jsonText())
        var expected = values
        expected["uDate"] = .string("2023-11-14T22:13:20Z")
        expected["uData"] = .string("AAEC/w==")
        expected["uEmptyData"] = .string("")
        XCTAssertEqual(back, [Record(expected)])
    }

    func testNullOrMissingMeansNoValue() throws {
        XCTAssertEqual(try records(#"[{"firstName": "Ana", "age": null}, {}]"#),
                       [Record(["firstName": .string("Ana")]), Record()])
    }

    func testKeysAreMatchedExactly() throws {
        XCTAssertEqual(try records(#"[{"FirstName": "Ana"}]"#), [Record(["FirstName": .string("Ana")])])
    }

    func testWholeFileRefusals() {
        let cases: [(String, String)] = [
            ("", "not JSON: "),
            ("{\"firstName\": \"Ana\"}", "the JSON must be an array of records (objects), not an object"),
            ("[{}, \"Ana\"]", "record 2: a record must be a JSON object, not a string"),
            (#"[{"tags": ["a", null]}]"#, "record 1: null cannot be kept in a survey file (inside a list)"),
            (#"[{"extra": {"inner": null}}]"#, "record 1: null cannot be kept in a survey file (inside “inner”)"),
            (#"[{"big": 12345678901234567890}]"#, "record 1: the number 12345678901234567890 is too large to keep exactly"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try records(json), json) { error in
                let text = (error as? DocumentError)?.message ?? "\(error)"
                XCTAssertTrue(text.hasPrefix(message), "\(json): \(text)")
            }
        }
    }
}
