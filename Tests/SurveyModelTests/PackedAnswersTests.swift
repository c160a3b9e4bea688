import Foundation
import XCTest
@testable import SurveyModel

/// Surveys of text and whole numbers are held as packed bytes (`PackedAnswers`), the rest as
/// dictionaries. Whichever way a survey is held, it must read, change, compare, hash into
/// its derived id and save exactly as the dictionary it stands for.
final class PackedAnswersTests: XCTestCase {
    private let plain: [String: PropertyValue] = [
        "firstName": .string("Zoë"), "lastName": .string("O'Brien & <Sons>"), "address": .string(""),
        "phone": .string("555\r\n0100\t\u{1}\u{FFFE}"), "age": .integer(-42), "big": .integer(Int.max),
        "small": .integer(Int.min), "zero": .integer(0), "": .string("empty key"), "東京": .string("non-ASCII key"),
        "notes": .string(String(repeating: "long ", count: 100)), Record.instanceIDKey: .string("uuid:1"),
    ]

    private func isPacked(_ record: Record) -> Bool {
        if case .packed = record.storage { return true }
        return false
    }

    func testTextAndWholeNumbersArePackedAndReadBackExactly() {
        let record = Record(plain)
        XCTAssertTrue(isPacked(record))
        XCTAssertEqual(record.values, plain)
        for (key, value) in plain { XCTAssertEqual(record[key], value, key) }
        XCTAssertNil(record["missing"])
        XCTAssertNil(record["firstNam"], "a prefix of a known key is another key")
        XCTAssertEqual(Record(["\u{E9}": .integer(1)])["e\u{301}"], .integer(1), "keys compare as dictionary keys do")
        XCTAssertEqual(Record(["K": .integer(2)])["\u{212A}"], .integer(2), "the Kelvin sign is canonically K")
        XCTAssertEqual(Set(record.keys), Set(plain.keys))
        var seen: [String: PropertyValue] = [:]
        record.forEachValue { seen[$0] = $1 }
        XCTAssertEqual(seen, plain)
        XCTAssertEqual(record.instanceID, "uuid:1")
        XCTAssertEqual(MemoryLayout<Record>.size, 8, "a survey in a list is one reference")
    }

    func testOtherTypesKeepTheSurveyAsADictionary() {
        var values = plain
        values["ratio"] = .real(2.5)
        let record = Record(values)
        XCTAssertFalse(isPacked(record))
        XCTAssertEqual(record.values, values)

        var changed = Record(plain)
        changed["when"] = .date(Date(timeIntervalSince1970: 0))
        XCTAssertFalse(isPacked(changed), "a date cannot be packed")
        XCTAssertEqual(changed["when"], .date(Date(timeIntervalSince1970: 0)))
        changed["when"] = nil
        XCTAssertTrue(isPacked(changed), "packed again once it holds only text and numbers")
        XCTAssertEqual(changed.values, plain)
    }

    func testChangingOneValueKeepsEveryOtherAndTheKeysSorted() {
        var record = Record(plain)
        record["age"] = .integer(7)
        record["lastName"] = nil
        record["middle"] = .string("Q")
        record["aardvark"] = .integer(1)
        record["zz"] = .string("")
        var expected = plain
        expected["age"] = .integer(7)
        expected["lastName"] = nil
        expected["middle"] = .string("Q")
        expected["aardvark"] = .integer(1)
        expected["zz"] = .string("")
        XCTAssertEqual(record.values, expected)
        XCTAssertEqual(record.removeValue(forKey: "middle"), .string("Q"))
        XCTAssertNil(record.removeValue(forKey: "middle"))
        expected["middle"] = nil
        XCTAssertEqual(record.values, expected)
        XCTAssertEqual(record, Record(expected))
        guard case .packed(let changed) = record.storage, case .packed(let fresh) = Record(expected).storage else {
            return XCTFail("both packed")
        }
        XCTAssertEqual(changed, fresh, "changes keep the keys in the order a fresh pack has")
    }

    func testSurveysCompareByAnswersWhateverTheirBytes() throws {
        // Keys in another order than sorted, as another tool may write them.
        let data = plist("<dict><key>phone</key><string>1</string><key>age</key><integer>3</integer></dict>")
        let scanned = try XCTUnwrap(PropertyListScanner.records(in: data))
        XCTAssertTrue(isPacked(scanned[0]))
        XCTAssertEqual(scanned[0], Record(["age": .integer(3), "phone": .string("1")]))
        XCTAssertNotEqual(scanned[0], Record(["age": .integer(3), "phone": .string("2")]))
        XCTAssertEqual(Record(["a": .string("\u{E9}")]), Record(["a": .string("e\u{301}")]),
                       "canonically equal text is equal, as it was in dictionaries")
        XCTAssertNotEqual(Record(["a": .integer(1)]), Record(["a": .string("1")]))
    }

    func testTheScannerPacksPlainSurveysAndLeavesTheRestAsDictionaries() throws {
        let data = plist("""
            <dict><key>firstName</key><string>Ana &amp; Zoë</string><key>age</key><integer>-5</integer><key>x</key><string/></dict>
            <dict><key>ratio</key><real>2.5</real></dict>
            <dict><key>é</key><string>a non-ASCII key</string></dict>
            <dict/>
            """)
        let records = try XCTUnwrap(PropertyListScanner.records(in: data))
        XCTAssertEqual(records.map(isPacked), [true, false, true, true], "a non-ASCII key is read as a dictionary, then packed")
        let foundation = try SurveyDocument(foundationPropertyListData: data).records
        XCTAssertEqual(Array(records), Array(foundation))
        XCTAssertEqual(records[0].values, ["firstName": .string("Ana & Zoë"), "age": .integer(-5), "x": .string("")])
        XCTAssertNil(PropertyListScanner.records(in: plist("<dict><key>age</key><string>1</string><key>age</key><string>2</string></dict>")),
                     "two equal keys go to Foundation")
    }

    /// Saving a packed survey writes from its bytes; it must give what writing its dictionary
    /// gives, escapes, forbidden characters and key order included.
    func testSavingFromPackedBytesWritesWhatTheDictionaryWrites() throws {
        let unsorted = try XCTUnwrap(PropertyListScanner.records(in: plist(
            "<dict><key>phone</key><string>1 &lt; 2</string><key>age</key><integer>3</integer></dict>")))[0]
        let records = [Record(plain), unsorted, Record(["firstName": .string("\u{1}\u{FFFF}x\r")]), Record(),
                       Record(["a&b": .string("key to escape"), "a\u{1}": .string("key to clean")])]
        for record in records {
            var streamed = Data()
            try PropertyListWriter.write(RecordList([record])) { streamed.append(contentsOf: $0) }
            XCTAssertEqual(streamed, PropertyListWriter.data(for: .array([.dictionary(record.values)])), "\(record.values)")
            XCTAssertEqual(record.forbiddenCharacterCount, PropertyValue.dictionary(record.values).forbiddenCharacterCount)
        }
        XCTAssertEqual(Record(plain).forbiddenCharacterCount, 2)
    }

    func testDerivedIDsDoNotDependOnHowTheSurveyIsHeld() throws {
        let answers: [String: PropertyValue] = ["lastName": .string("Lima"), "firstName": .string("Ana"), "age": .integer(30)]
        let packed = Record(answers)
        XCTAssertTrue(isPacked(packed))
        var loose = Record(["ratio": .real(1)])
        loose.values = answers
        loose.storage = .dictionary(Record.Loose(answers))
        XCTAssertEqual(Record.derivedInstanceID(position: 3, of: packed), Record.derivedInstanceID(position: 3, of: loose))
    }

    private func plist(_ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <array>
            \(body)
            </array>
            </plist>

            """.utf8)
    }
}
