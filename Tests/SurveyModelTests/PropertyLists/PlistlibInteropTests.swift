import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Python's plistlib must read every file we write, and we must read what it writes.
final class PlistlibInteropTests: TemporaryFolderTestCase {
    private let pythonWriter = #"""
        import datetime, plistlib, sys
        records = [
            {"firstName": "Zoë", "lastName": "Núñez 山田", "address": "Av. Paulista 1000 🏙️ 𝄞",
             "phone": "", "age": 0, "notes": "kept", "tags": ["pilot", "wave-2"],
             "flag": True, "off": False, "score": 2.5, "whole": 3.0, "one": 1,
             "when": datetime.datetime(2024, 1, 2, 3, 4, 5), "blob": b"\x00\x01\xff",
             "nested": {"deep": [{"x": -7}, []], "empty": {}}},
            {"firstName": "Ana", "age": 150, "crlf": "a\r\nb"},
        ]
        fmt = plistlib.FMT_BINARY if sys.argv[2] == "binary" else plistlib.FMT_XML
        with open(sys.argv[1], "wb") as f:
            plistlib.dump(records, f, fmt=fmt)
        """#

    private var expected: SurveyDocument {
        SurveyDocument(records: [
            Record(["firstName": .string("Zoë"), "lastName": .string("Núñez 山田"),
                    "address": .string("Av. Paulista 1000 🏙️ 𝄞"), "phone": .string(""), "age": .integer(0),
                    "notes": .string("kept"), "tags": .array([.string("pilot"), .string("wave-2")]),
                    "flag": .bool(true), "off": .bool(false), "score": .real(2.5), "whole": .real(3),
                    "one": .integer(1), "when": .date(Date(timeIntervalSince1970: 1_704_164_645)),
                    "blob": .data(Data([0, 1, 255])),
                    "nested": .dictionary(["deep": .array([.dictionary(["x": .integer(-7)]), .array([])]),
                                           "empty": .dictionary([:])])]),
            Record(["firstName": .string("Ana"), "age": .integer(150), "crlf": .string(binaryCRLF)]),
        ])
    }

    /// XML readers turn CR LF into LF, so the XML file holds "a\nb"; binary keeps "a\r\nb".
    private let binaryCRLF = "a\r\nb"

    func testWeReadPlistlibXML() throws {
        let path = store.url(for: "FromPython").path
        _ = try TestSupport.python(pythonWriter, [path, "xml"])
        var wanted = expected
        wanted.records[1].values["crlf"] = .string("a\nb")
        XCTAssertEqual(try store.load("FromPython").get(), wanted)
    }

    func testWeReadPlistlibBinary() throws {
        let path = store.url(for: "FromPython").path
        _ = try TestSupport.python(pythonWriter, [path, "binary"])
        XCTAssertEqual(try store.load("FromPython").get(), expected)
    }

    func testPlistlibReadsWhatWeWriteExactly() throws {
        let document = expected
        try store.save(document, as: "ToPython")
        let json = try TestSupport.python(PlistlibScripts.readAsTaggedJSON, [store.url(for: "ToPython").path])
        XCTAssertEqual(try PlistlibScripts.decodeTagged(json), .array(document.records.map { .dictionary($0.values) }))
    }

    func testPlistlibReadsOurEmptyAndFixtureDocuments() throws {
        try store.save(SurveyDocument(), as: "Empty")
        XCTAssertEqual(try PlistlibScripts.decodeTagged(
            TestSupport.python(PlistlibScripts.readAsTaggedJSON, [store.url(for: "Empty").path])), .array([]))

        let fixture = try SurveyDocument(propertyListData: TestSupport.fixtureData("plistlib-unicode.plist"))
        try store.save(fixture, as: "Fixture")
        XCTAssertEqual(try PlistlibScripts.decodeTagged(
            TestSupport.python(PlistlibScripts.readAsTaggedJSON, [store.url(for: "Fixture").path])),
                       .array(fixture.records.map { .dictionary($0.values) }))
    }
}
