import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class DocumentRoundTripTests: TemporaryFolderTestCase {
    func testSaveThenLoadIsEqual() throws {
        let document = SurveyDocument(records: [
            Record.sample(), Record.sample(first: "Zoë", last: "O'Brien <&> \"q\"", age: nil),
            Record(), Record.sample(address: "  spaced\tand\nlines\r\nand cr\r ", age: 0),
        ])
        try store.save(document, as: "Round")
        XCTAssertEqual(try store.load("Round").get(), document)
    }

    func testUnknownKeysOfEveryTypeRoundTrip() throws {
        var values = everyTypeValues
        values["firstName"] = .string("Ana")
        let document = SurveyDocument(records: [Record(values), Record(["only": .dictionary(everyTypeValues)])])
        try store.save(document, as: "Unknown")
        XCTAssertEqual(try store.load("Unknown").get(), document)
    }

    func testWrongTypedAgeKeptUnlessEdited() throws {
        let xml = plist("<dict><key>age</key><string>thirty</string><key>firstName</key><string>A</string></dict>")
        try xml.write(to: store.url(for: "Typed"))
        var document = try store.load("Typed").get()
        XCTAssertEqual(document.records[0].values["age"], .string("thirty"))
        let first = Questionnaire.standard.field(forKey: "firstName")!
        XCTAssertNil(document.records[0].setText("B", for: first))
        try store.save(document, as: "Typed")
        document = try store.load("Typed").get()
        XCTAssertEqual(document.records[0].values, ["age": .string("thirty"), "firstName": .string("B")])

        let age = Questionnaire.standard.field(forKey: "age")!
        XCTAssertNil(document.records[0].setText("30", for: age))
        try store.save(document, as: "Typed")
        XCTAssertEqual(try store.load("Typed").get().records[0].values["age"], .integer(30))
    }

    func testRecordsMissingKeysStayMissing() throws {
        let document = SurveyDocument(records: [Record(["firstName": .string("Only")]), Record()])
        try store.save(document, as: "Sparse")
        let text = try String(contentsOf: store.url(for: "Sparse"), encoding: .utf8)
        XCTAssertFalse(text.contains("<key>age</key>"))
        XCTAssertTrue(text.contains("<dict/>"))
        XCTAssertEqual(try store.load("Sparse").get(), document)
    }

    func testEmptyAndWhitespaceDataAreEmptyDocuments() throws {
        XCTAssertEqual(try SurveyDocument(propertyListData: Data()), SurveyDocument())
        XCTAssertEqual(try SurveyDocument(propertyListData: Data(" \n\t\r\n".utf8)), SurveyDocument())
        FileManager.default.createFile(atPath: store.url(for: "Zero").path, contents: Data())
        XCTAssertEqual(try store.load("Zero").get(), SurveyDocument())
    }

    func testEmptyDocumentIsWrittenAsAnEmptyArray() throws {
        let text = String(decoding: try SurveyDocument().propertyListData(), as: UTF8.self)
        XCTAssertTrue(text.contains("<array/>"), text)
    }

    func testBinaryPlistLoadsAndIsSavedAsXML() throws {
        let original = SurveyDocument(records: [Record.sample(), Record(everyTypeValues)])
        let binary = try PropertyListSerialization.data(
            fromPropertyList: original.records.map { PropertyValue.dictionary($0.values).foundationValue },
            format: .binary, options: 0)
        XCTAssertTrue(binary.starts(with: Data("bplist00".utf8)))
        try binary.write(to: store.url(for: "Binary"))
        let loaded = try store.load("Binary").get()
        XCTAssertEqual(loaded, original)
        try store.save(loaded, as: "Binary")
        let saved = try Data(contentsOf: store.url(for: "Binary"))
        XCTAssertTrue(saved.starts(with: Data("<?xml".utf8)))
        XCTAssertEqual(try store.load("Binary").get(), original)
    }

    private func plist(_ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><array>\(body)</array></plist>
            """.utf8)
    }
}
