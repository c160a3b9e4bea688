import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Binary plists (and other tools) can carry characters XML 1.0 cannot; saving replaces
/// them so the XML we write stays readable by us and by plistlib.
final class ForbiddenCharacterTests: TemporaryFolderTestCase {
    private let dirty = SurveyDocument(records: [
        Record(["firstName": .string("Bad\u{1}Name"), "notes\u{2}": .array([.string("\u{0}\u{1F}")]),
                "age": .integer(3), "ok": .string("tab\tlf\ncr\r\u{FFFE}\u{FFFF}")]),
    ])
    private let cleaned = SurveyDocument(records: [
        Record(["firstName": .string("Bad\u{FFFD}Name"), "notes\u{FFFD}": .array([.string("\u{FFFD}\u{FFFD}")]),
                "age": .integer(3), "ok": .string("tab\tlf\ncr\r\u{FFFD}\u{FFFD}")]),
    ])

    func testBinaryPlistWithControlCharactersIsCleanedOnSave() throws {
        let binary = try PropertyListSerialization.data(
            fromPropertyList: dirty.records.map { PropertyValue.dictionary($0.values).foundationValue },
            format: .binary, options: 0)
        try binary.write(to: store.url(for: "Dirty"))
        let loaded = try store.load("Dirty").get()
        XCTAssertEqual(loaded, dirty, "loading keeps the characters as they are")
        XCTAssertEqual(loaded.forbiddenCharacterCount, 6)
        XCTAssertEqual(try store.save(loaded, as: "Dirty"), 6)
        XCTAssertEqual(try store.load("Dirty").get(), cleaned)
        XCTAssertEqual(cleaned.forbiddenCharacterCount, 0)

        let json = try TestSupport.python(PlistlibScripts.readAsTaggedJSON, [store.url(for: "Dirty").path])
        XCTAssertEqual(try PlistlibScripts.decodeTagged(json), .array(cleaned.records.map { .dictionary($0.values) }))
    }

    func testRawControlCharactersInXMLFromOlderWritersAreReadAndCleaned() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><array><dict>"
            + "<key>firstName</key><string>A\u{1}B</string></dict></array></plist>"
        try Data(xml.utf8).write(to: store.url(for: "Raw"))
        let loaded = try store.load("Raw").get()
        XCTAssertEqual(loaded.records, [Record(["firstName": .string("A\u{1}B")])])
        XCTAssertEqual(try store.save(loaded, as: "Raw"), 1)
        let json = try TestSupport.python(PlistlibScripts.readAsTaggedJSON, [store.url(for: "Raw").path])
        XCTAssertEqual(try PlistlibScripts.decodeTagged(json), .array([.dictionary(["firstName": .string("A\u{FFFD}B")])]))
    }

    func testCarriageReturnsAreWrittenAsReferences() throws {
        let document = SurveyDocument(records: [Record(["address": .string("a\rb\r\nc"), "k\re": .string("")])])
        let text = String(decoding: try document.propertyListData(), as: UTF8.self)
        XCTAssertFalse(text.contains("\r"))
        XCTAssertTrue(text.contains("<string>a&#13;b&#13;\nc</string>"), text)
        XCTAssertEqual(try SurveyDocument(propertyListData: Data(text.utf8)), document)
    }

    func testInMemoryReplacementMatchesWhatSaveWrites() throws {
        var document = dirty
        document.replaceForbiddenCharacters()
        XCTAssertEqual(document, cleaned)
        XCTAssertEqual(document.forbiddenCharacterCount, 0)
        XCTAssertEqual(try SurveyDocument(propertyListData: dirty.propertyListData()), document)
    }

    func testCleanDocumentReportsNothing() throws {
        XCTAssertEqual(try store.save(SurveyDocument(records: [Record.sample()]), as: "Clean"), 0)
    }
}
