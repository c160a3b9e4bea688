import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The hand-written XML writer must produce what Foundation produces, read back as the same
/// values by Foundation and plistlib.
final class PropertyListWriterTests: XCTestCase {
    private let everyType: PropertyValue = .array([
        .dictionary([
            "firstName": .string("José & <Zoë> \"quoted\" 'single'"),
            "age": .integer(-42),
            "big": .integer(Int.max),
            "ratio": .real(2.5),
            "whole": .real(3),
            "tiny": .real(1e-300),
            "flag": .bool(true),
            "off": .bool(false),
            "when": .date(Date(timeIntervalSince1970: 1_700_000_000)),
            "blob": .data(Data([0, 1, 2, 255, 254])),
            "empty": .string(""),
            "nested": .array([.dictionary([:]), .array([]), .string("東京 🏙️")]),
            "tabs\tand\nlines": .string("a\tb\nc"),
        ]),
    ])

    func testForeignValuesReadBackEqualThroughFoundation() throws {
        let data = PropertyListWriter.data(for: everyType)
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        XCTAssertEqual(PropertyValue(foundation: object), everyType)
    }

    func testLayoutMatchesFoundationsWriter() throws {
        // Reals and data are spelled differently by different writers; everything else must
        // match Foundation byte for byte, so files diff cleanly against ones Apple's tools wrote.
        let plain: PropertyValue = .array([
            .dictionary(["firstName": .string("A & B <c>"), "age": .integer(7), "ok": .bool(true),
                         "when": .date(Date(timeIntervalSince1970: 0)), "list": .array([.string("x")]),
                         "none": .array([]), "map": .dictionary([:])]),
            .dictionary([:]),
        ])
        let ours = PropertyListWriter.data(for: plain)
        let theirs = try PropertyListSerialization.data(fromPropertyList: plain.foundationValue, format: .xml, options: 0)
        XCTAssertEqual(String(decoding: ours, as: UTF8.self), String(decoding: theirs, as: UTF8.self))
    }

    func testEmptyDocumentIsAnEmptyArray() {
        XCTAssertTrue(String(decoding: PropertyListWriter.data(for: .array([])), as: UTF8.self)
            .contains("<plist version=\"1.0\">\n<array/>\n</plist>\n"))
    }

    func testForbiddenCharactersAndCarriageReturnsAreCleanedAsWritten() throws {
        let value: PropertyValue = .array([.dictionary(["k\u{1}": .string("a\u{0}b\rc\u{FFFF}")])])
        let text = String(decoding: PropertyListWriter.data(for: value), as: UTF8.self)
        XCTAssertTrue(text.contains("<key>k\u{FFFD}</key>"), text)
        XCTAssertTrue(text.contains("<string>a\u{FFFD}b&#13;c\u{FFFD}</string>"), text)
    }

    /// Text is copied in runs of bytes that need nothing and escaped byte by byte between
    /// them: random texts mixing both, in a survey's packed answers and in a dictionary, read
    /// back through Foundation as the text with its forbidden characters replaced (U+FFFD),
    /// carriage returns kept.
    func testRandomTextsReadBackCleanedThroughFoundation() throws {
        let pieces = ["a", "Zoë", "東京", "🏙️", "&", "<", ">", "&amp;", "\r", "\r\n", "\t", "\n", "\u{0}", "\u{1F}", "\u{7F}",
                      "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "x\u{FEFF}", "\u{EFFFF}", "ï", "\"", "'", " ", "plain words "]
        // (U+FEFF only after other text: Foundation drops it at the start of a string.)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = XMLCharacters.replacingForbidden(in: text)
            let packed = SurveyDocument(records: [Record(["note": .string(text), "age": .integer(round)])])
            let data = try packed.propertyListData()
            let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            XCTAssertEqual(PropertyValue(foundation: object),
                           .array([.dictionary(["note": .string(expected), "age": .integer(round)])]), text.debugDescription)
            let nested = PropertyListWriter.data(for: .array([.dictionary(["note": .array([.string(text)])])]))
            XCTAssertEqual(PropertyValue(foundation: try PropertyListSerialization.propertyList(from: nested, options: [], format: nil)),
                           .array([.dictionary(["note": .array([.string(expected)])])]), text.debugDescription)
        }
    }
}
