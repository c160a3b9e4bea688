import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Nothing from a file reaches a recursive parser without a bound on its depth. Foundation's
/// XML property-list scanner recurses once per `<array>` with no bound of its own: a file
/// nested 10,000 deep crashed (SIGSEGV) every command that read it, and the app. It is now
/// refused by `XMLPropertyListPrepass` before Foundation sees it; JSON by survey's own reader.
final class DeepNestingTests: XCTestCase {
    private func deep(_ open: String, _ close: String, _ count: Int, inside body: String = "") -> String {
        String(repeating: open, count: count) + body + String(repeating: close, count: count)
    }

    private func plist(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
    }

    func testTenThousandLevelsAreRefusedWithAReason() {
        let bodies = [
            deep("<array>", "</array>", 10_000),
            "<array><dict><key>x</key>" + deep("<array>", "</array>", 10_000) + "</dict></array>",
            deep("<dict><key>k</key>", "</dict>", 10_000, inside: "<string>x</string>"),
            // Text that looks like end tags inside comments, CDATA and instructions is not counted.
            deep("<array><!-- </array></array> -->", "</array>", 10_000),
            deep("<array><?pi </array></array>?>", "</array>", 10_000),
            deep("<array ><string><![CDATA[</array></array>]]></string>", "</array>", 10_000),
            // Foundation's reader takes attributes and blanks in a tag.
            deep("<array id=\"1\">", "</array >", 10_000),
        ]
        for body in bodies {
            let data = plist(body)
            XCTAssertThrowsError(try PropertyListReader.read(data), String(body.prefix(60))) { error in
                XCTAssertEqual("\(error)", "nesting deeper than 512 levels")
            }
            XCTAssertThrowsError(try SurveyDocument(propertyListData: data)) { error in
                XCTAssertEqual("\(error)", "not a property list: nesting deeper than 512 levels")
            }
        }
    }

    /// A UTF-16 file is read as Foundation reads it, after converting it: counted the same.
    func testUTF16FilesAreCountedAsTheTextTheyHold() throws {
        for bigEndian in [true, false] {
            func utf16(_ text: String) -> Data {
                let bom: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
                return Data(bom + text.utf16.flatMap { unit in
                    bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                })
            }
            let deepFile = utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist version=\"1.0\">"
                + deep("<array>", "</array>", 10_000) + "</plist>")
            XCTAssertThrowsError(try SurveyDocument(propertyListData: deepFile)) { error in
                XCTAssertEqual("\(error)", "not a property list: nesting deeper than 512 levels")
            }
            let fine = utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist version=\"1.0\"><array><dict>"
                + "<key>firstName</key><string>Zoë</string><key>age</key><real>3</real>"
                + "<key>d</key><date>1000-06-15T00:00:00Z</date></dict></array></plist>")
            let records = try SurveyDocument(propertyListData: fine).records
            XCTAssertEqual(records.count, 1)
            XCTAssertEqual(records.first?["firstName"], .string("Zoë"))
            guard case .real(3)? = records.first?["age"] else { return XCTFail("a real stays a real: \(String(describing: records.first))") }
            XCTAssertEqual(records.first?["d"], .date(Date(timeIntervalSince1970: -30_595_968_000)))
        }
    }

    /// Up to the bound a document is read, on a thread of the app's own (the loader's) as on
    /// the main one.
    func testNestingUpToTheBoundIsReadOnAnyThread() throws {
        let body = "<array><dict><key>x</key>" + deep("<array>", "</array>", 500, inside: "<integer>7</integer>") + "</dict></array>"
        let data = plist(body)
        XCTAssertEqual(try SurveyDocument(propertyListData: data).records.count, 1)
        final class Outcome: @unchecked Sendable {
            let lock = Lock()
            var count: Result<Int, Error>?
        }
        let done = expectation(description: "read on a thread")
        let outcome = Outcome()
        startThread {
            let read = Result { try SurveyDocument(propertyListData: data).records.count }
            outcome.lock.withLock { outcome.count = read }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        XCTAssertEqual(try outcome.lock.withLock { outcome.count }?.get(), 1)
    }

    /// JSON (`survey import`) is read by survey's own reader, bounded the same way.
    func testDeepJSONIsRefusedWithAReason() {
        XCTAssertThrowsError(try JSONReader.parse(Array(deep("[", "]", 10_000).utf8))) { error in
            XCTAssertEqual("\(error)", "nesting deeper than 512 levels at offset 512")
        }
        XCTAssertThrowsError(try JSONReader.parse(Array(deep("{\"a\":", "}", 10_000, inside: "1").utf8)))
        XCTAssertNoThrow(try JSONReader.parse(Array(deep("[", "]", 500).utf8)))
    }
}
