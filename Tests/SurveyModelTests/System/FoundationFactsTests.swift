import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Pins down how Linux Foundation's property-list code behaves, since the model's design
/// (and its workarounds) depend on it.
final class FoundationFactsTests: XCTestCase {
    private let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>int</key><integer>42</integer>
        <key>zero</key><integer>0</integer>
        <key>one</key><integer>1</integer>
        <key>real</key><real>4.5</real>
        <key>realOne</key><real>1</real>
        <key>yes</key><true/>
        <key>date</key><date>2024-01-02T03:04:05Z</date>
        <key>data</key><data>AAEC</data>
        <key>text</key><string>x</string>
        <key>list</key><array><integer>1</integer></array>
        <key>dict</key><dict><key>a</key><string>b</string></dict>
        </dict></plist>
        """

    private func parsed() throws -> [String: Any] {
        let object = try PropertyListSerialization.propertyList(from: Data(xml.utf8), options: [], format: nil)
        return try XCTUnwrap(object as? [String: Any])
    }

    func testNumbersAreNSNumberTellApartByObjCType() throws {
        let values = try parsed()
        for key in ["int", "zero", "one"] {
            let number = try XCTUnwrap(values[key] as? NSNumber, key)
            XCTAssertFalse(["d", "f"].contains(String(cString: number.objCType)), key)
        }
        for key in ["real", "realOne"] {
            let number = try XCTUnwrap(values[key] as? NSNumber, key)
            XCTAssertTrue(["d", "f"].contains(String(cString: number.objCType)), key)
        }
    }

    func testIsBoolMatchesIntegersZeroAndOneSoExactTypeIsNeeded() throws {
        let values = try parsed()
        XCTAssertTrue(values["zero"]! is Bool, "pitfall: `is Bool` matches an NSNumber 0")
        XCTAssertTrue(type(of: values["yes"]!) == Bool.self)
        XCTAssertFalse(type(of: values["zero"]!) == Bool.self)
        XCTAssertEqual(PropertyValue(foundation: values["zero"]!), .integer(0))
        XCTAssertEqual(PropertyValue(foundation: values["one"]!), .integer(1))
        XCTAssertEqual(PropertyValue(foundation: values["realOne"]!), .real(1))
        XCTAssertEqual(PropertyValue(foundation: values["yes"]!), .bool(true))
    }

    func testOtherTypes() throws {
        let values = try parsed()
        XCTAssertEqual(values["date"] as? Date, Date(timeIntervalSince1970: 1_704_164_645))
        XCTAssertEqual(values["data"] as? Data, Data([0, 1, 2]))
        XCTAssertEqual(values["text"] as? String, "x")
        XCTAssertNotNil(values["list"] as? [Any])
        XCTAssertNotNil(values["dict"] as? [String: Any])
    }

    func testWriterSortsKeysUsesTabsAndWritesControlCharactersRaw() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["b": "x\u{1}y", "a": 1] as [String: Any], format: .xml, options: 0)
        let text = String(decoding: data, as: UTF8.self)
        let a = try XCTUnwrap(text.range(of: "<key>a</key>"))
        let b = try XCTUnwrap(text.range(of: "<key>b</key>"))
        XCTAssertLessThan(a.lowerBound, b.lowerBound)
        XCTAssertTrue(text.contains("\t<key>a</key>"))
        XCTAssertTrue(text.contains("x\u{1}y"), "raw control character: why we replace them first")
    }

    func testOpenStepTextIsAcceptedSoWeMustCheckTheFormat() throws {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object = try PropertyListSerialization.propertyList(from: Data("garbage".utf8), options: [], format: &format)
        XCTAssertEqual(object as? String, "garbage")
        XCTAssertEqual(format, .openStep)
    }
}
