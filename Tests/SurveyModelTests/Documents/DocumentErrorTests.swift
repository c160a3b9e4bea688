import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Files that are not survey documents fail to load with a clear reason and are never
/// touched, so the UI cannot overwrite someone else's file.
final class DocumentErrorTests: TemporaryFolderTestCase {
    private func plist(_ root: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">\(root)</plist>
            """.utf8)
    }

    private func assertLoadFails(_ bytes: Data, message expected: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let url = store.url(for: "Foreign")
        try bytes.write(to: url)
        guard case .failure(let error) = store.load("Foreign") else {
            return XCTFail("load should fail", file: file, line: line)
        }
        XCTAssertEqual(error.message, expected, file: file, line: line)
        XCTAssertFalse(error.message.contains("\n"), file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: url), bytes, "file untouched", file: file, line: line)
        XCTAssertEqual(try folderContents(), ["Foreign.plist"], file: file, line: line)
    }

    func testDictionaryRoot() throws {
        try assertLoadFails(plist("<dict><key>a</key><string>b</string></dict>"),
                            message: "Foreign.plist: not a survey document: the top level is a dictionary, expected an array of records")
    }

    func testStringRoot() throws {
        try assertLoadFails(plist("<string>hello</string>"),
                            message: "Foreign.plist: not a survey document: the top level is a string, expected an array of records")
    }

    func testNonDictionaryElement() throws {
        try assertLoadFails(plist("<array><dict/><dict/><string>x</string></array>"),
                            message: "Foreign.plist: record 3 is not a dictionary (it is a string)")
    }

    func testGarbageBytes() throws {
        let url = store.url(for: "Foreign")
        for bytes in [Data([0xFF, 0xFE, 0x00, 0x01, 0x80]), Data("garbage".utf8), Data("<plist><array>".utf8),
                      Data("bplist00 broken".utf8), Data("{ a = b; }".utf8)] {
            try bytes.write(to: url)
            guard case .failure(let error) = store.load("Foreign") else {
                XCTFail("should fail: \(Array(bytes))")
                continue
            }
            XCTAssertTrue(error.message.hasPrefix("Foreign.plist: not a property list: "), error.message)
            XCTAssertFalse(error.message.contains("\n"), error.message)
            XCTAssertEqual(try Data(contentsOf: url), bytes)
        }
    }

    func testHugeUnsignedIntegerIsRefusedNotTruncated() throws {
        try assertLoadFails(plist("<array><dict><key>n</key><integer>18446744073709551615</integer></dict></array>"),
                            message: "Foreign.plist: not a survey document: it holds a value this app cannot represent")
    }

    func testMissingFile() {
        XCTAssertEqual(store.load("Nope"), .failure(DocumentError("Nope.plist does not exist")))
    }

    func testUnreadableFile() throws {
        try FileManager.default.createDirectory(at: store.url(for: "Folder"), withIntermediateDirectories: false)
        guard case .failure(let error) = store.load("Folder") else { return XCTFail("should fail") }
        XCTAssertTrue(error.message.hasPrefix("Folder.plist could not be read: "), error.message)
    }

    func testUnusableNamesAreRefused() {
        XCTAssertEqual(store.load("../escape"), .failure(DocumentError("\"../escape\" is not a usable document name")))
        XCTAssertThrowsError(try store.save(SurveyDocument(), as: "../escape"))
        XCTAssertThrowsError(try store.save(SurveyDocument(), as: ".hidden"))
        XCTAssertThrowsError(try store.save(SurveyDocument(), as: ""))
    }

    func testErrorDescriptions() {
        XCTAssertEqual(DocumentError("x").description, "x")
        XCTAssertEqual(FieldError("y").description, "y")
    }
}
