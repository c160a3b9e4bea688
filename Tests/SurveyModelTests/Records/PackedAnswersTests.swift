import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Surveys are held as packed bytes (`PackedAnswers`). A survey must read, change, compare,
/// hash into its derived id and save exactly as the dictionary it stands for, whatever the
/// types it holds and the order its keys came in.
final class PackedAnswersTests: XCTestCase {
    private let plain: [String: PropertyValue] = [
        "firstName": .string("Zoë"), "lastName": .string("O'Brien & <Sons>"), "address": .string(""),
        "phone": .string("555\r\n0100\t\u{1}\u{FFFE}"), "age": .integer(-42), "big": .integer(Int.max),
        "small": .integer(Int.min), "zero": .integer(0), "": .string("empty key"), "東京": .string("non-ASCII key"),
        "notes": .string(String(repeating: "long ", count: 100)), Record.instanceIDKey: .string("uuid:1"),
    ]

    func testTextAndWholeNumbersArePackedAndReadBackExactly() {
        let record = Record(plain)
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

    func testEveryOtherTypeIsPackedAndReadBackExactly() {
        var values = plain
        values["ratio"] = .real(-2.5)
        values["negativeZero"] = .real(-0.0)
        values["when"] = .date(Date(timeIntervalSinceReferenceDate: -1234.5))
        values["yes"] = .bool(true)
        values["no"] = .bool(false)
        values["blob"] = .data(Data([0, 1, 255]))
        values["none"] = .data(Data())
        values["tags"] = .array([.string("a"), .integer(-1), .array([]), .dictionary([:])])
        values["nested"] = .dictionary(["firstName": .string("inner"), "é": .array([.real(1e300), .bool(false)]),
                                        "deeper": .dictionary(["x": .date(Date(timeIntervalSince1970: 0))])])
        let record = Record(values)
        XCTAssertEqual(record.values, values)
        for (key, value) in values { XCTAssertEqual(record[key], value, key) }
        guard case .real(let zero) = record["negativeZero"] else { return XCTFail("not a real") }
        XCTAssertEqual(zero.sign, .minus, "-0.0 keeps its sign")

        var changed = Record(plain)
        changed["when"] = .date(Date(timeIntervalSince1970: 0))
        XCTAssertEqual(changed["when"], .date(Date(timeIntervalSince1970: 0)))
        changed["when"] = nil
        XCTAssertEqual(changed.values, plain)
        XCTAssertEqual(changed.packed, Record(plain).packed)
    }

    /// A roster's keys are made into text once and reused member by member (`SpelledKeys`):
    /// thousands of keys of every length, many sharing a slot of its table, some only in one
    /// member, some longer than it keeps, some not ASCII, each read back under its own name.
    func testKeysRepeatedAcrossMembersReadBackAsSpelled() {
        let names = (0..<1500).map { i -> String in
            switch i % 5 {
            case 0: return "q\(i)"
            case 1: return String(repeating: "k", count: i % 15 + 1) + "\(i)"
            case 2: return "plot\(i)_irrigated_water_source"
            case 3: return "é\(i)"
            default: return "x\(i % 97)_\(i)"
            }
        }
        let members: [PropertyValue] = (0..<6).map { m in
            .dictionary(Dictionary(uniqueKeysWithValues: names.enumerated().filter { ($0.offset + m) % 4 != 0 }
                .map { ($0.element, PropertyValue.integer($0.offset * 10 + m)) }))
        }
        let answers: [String: PropertyValue] = ["roster": .array(members), "nested": .array([.dictionary(["inner": .array(members)])])]
        XCTAssertEqual(Record(answers).values, answers)
        XCTAssertEqual(Record(answers).value(at: AnswerPath([AnswerPath.Step(name: "roster", index: 3)], names[7])), .integer(73))
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
        XCTAssertEqual(record.packed, Record(expected).packed, "changes keep the keys in the order a fresh pack has")
    }

    /// Keys set one at a time, in any order, ASCII or not, known to the packer or not, land
    /// where a fresh pack puts them (the place of a new key is found comparing bytes when both
    /// keys are ASCII, as `String`s otherwise).
    func testKeysSetInAnyOrderLandWhereAFreshPackPutsThem() {
        var random = SplitMix(seed: 11)
        let keys = ["age", "address", "instanceID", "a", "Z", "zz", "é", "e\u{301}x", "山", "_x", "a b", "phone", "m_name", "AGE", "~"]
        for round in 0..<300 {
            var record = Record([:])
            var expected: [String: PropertyValue] = [:]
            for _ in 0..<random.next(below: 10) {
                let key = keys[random.next(below: keys.count)]
                let value: PropertyValue? = random.next(below: 5) == 0 ? nil : .integer(random.next(below: 100))
                record[key] = value
                expected[key] = value
            }
            XCTAssertEqual(record.packed, Record(expected).packed, "round \(round)")
            XCTAssertEqual(record.values, expected, "round \(round)")
        }
    }

    /// A value set through a canonically equal spelling of a key (as a dictionary finds it)
    /// keeps the key's own spelling, so saving writes the key as it was found.
    func testAKeyKeepsItsSpellingWhenItsValueChanges() {
        var record = Record(["e\u{301}": .string("old"), "age": .integer(1)])
        record["\u{E9}"] = .string("new")
        XCTAssertEqual(record.keys.sorted().map { Array($0.utf8) }, [Array("age".utf8), Array("e\u{301}".utf8)])
        XCTAssertEqual(record["e\u{301}"], .string("new"))
        record["\u{E9}"] = nil
        XCTAssertEqual(record.keys, ["age"])
    }

    func testSurveysCompareByAnswersWhateverTheirBytes() throws {
        // Keys in another order than sorted, as another tool may write them.
        let data = plist("<dict><key>phone</key><string>1</string><key>age</key><integer>3</integer></dict>")
        let scanned = try XCTUnwrap(PropertyListScanner.records(in: data))
        XCTAssertNotEqual(scanned[0].packed, Record(["age": .integer(3), "phone": .string("1")]).packed)
        XCTAssertEqual(scanned[0], Record(["age": .integer(3), "phone": .string("1")]))
        XCTAssertNotEqual(scanned[0], Record(["age": .integer(3), "phone": .string("2")]))
        XCTAssertEqual(Record(["a": .string("\u{E9}")]), Record(["a": .string("e\u{301}")]),
                       "canonically equal text is equal, as it was in dictionaries")
        XCTAssertNotEqual(Record(["a": .integer(1)]), Record(["a": .string("1")]))
    }

    func testTheScannerReadsEveryTypeIntoPackedSurveysAsFoundationReadsThem() throws {
        let data = plist("""
            <dict><key>firstName</key><string>Ana &amp; Zoë</string><key>age</key><integer>-5</integer><key>x</key><string/></dict>
            <dict><key>ratio</key><real>2.5</real></dict>
            <dict><key>é</key><string>a non-ASCII key</string></dict>
            <dict/>
            """)
        let records = try XCTUnwrap(PropertyListScanner.records(in: data))
        XCTAssertEqual(records.count, 4)
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
                       Record(["tags": .array([.string("\u{1}"), .real(0.5)]), "age": .integer(1), "yes": .bool(true)]),
                       Record(["a&b": .string("key to escape"), "a\u{1}": .string("key to clean")])]
        for record in records {
            var streamed = Data()
            try PropertyListWriter.write(RecordList([record])) { streamed.append(contentsOf: $0) }
            XCTAssertEqual(streamed, PropertyListWriter.data(for: .array([.dictionary(record.values)])), "\(record.values)")
            XCTAssertEqual(record.forbiddenCharacterCount, PropertyValue.dictionary(record.values).forbiddenCharacterCount)
        }
        XCTAssertEqual(Record(plain).forbiddenCharacterCount, 2)
    }

    func testDerivedIDsDoNotDependOnTheOrderOfTheKeys() throws {
        let answers: [String: PropertyValue] = ["lastName": .string("Lima"), "firstName": .string("Ana"), "age": .integer(30)]
        let sorted = Record(answers)
        let unsorted = try XCTUnwrap(PropertyListScanner.records(in: plist(
            "<dict><key>lastName</key><string>Lima</string><key>firstName</key><string>Ana</string><key>age</key><integer>30</integer></dict>")))[0]
        XCTAssertNotEqual(sorted.packed, unsorted.packed)
        XCTAssertEqual(Record.derivedInstanceID(position: 3, of: sorted), Record.derivedInstanceID(position: 3, of: unsorted))
    }

    /// An id in survey's own form is held as 16 bytes; any other text, however close, as
    /// text; both read back and save byte for byte.
    func testIDsAreHeldCompactlyAndReadBackExactly() throws {
        let id = "uuid:0b6ba9bd-fd64-892c-8aee-40bf927ec6bf"
        XCTAssertEqual(Record([Record.instanceIDKey: .string(id)]).packed.count, 18, "key, tag, 16 bytes")
        let nearMisses = ["uuid:0B6BA9BD-FD64-892C-8AEE-40BF927EC6BF", "UUID:0b6ba9bd-fd64-892c-8aee-40bf927ec6bf",
                          "uuid:0b6ba9bdfd64-892c-8aee-40bf927ec6bf-", "uuid:0b6ba9bd-fd64-892c-8aee-40bf927ec6bg",
                          "uuid:0b6ba9bd-fd64-892c-8aee-40bf927ec6b", "uuid:0b6ba9bd-fd64-892c-8aee-40bf927ec6bf0",
                          "uuid:00000000-0000-0000-0000-000000000000", "uuid:ffffffff-ffff-ffff-ffff-ffffffffffff"]
        for text in [id] + nearMisses {
            let record = Record([Record.instanceIDKey: .string(text), "notes": .string(text)])
            XCTAssertEqual(record.instanceID, text)
            XCTAssertEqual(record["notes"], .string(text))
            XCTAssertEqual(record.values, [Record.instanceIDKey: .string(text), "notes": .string(text)])
            var streamed = Data()
            try PropertyListWriter.write(RecordList([record])) { streamed.append(contentsOf: $0) }
            XCTAssertEqual(streamed, PropertyListWriter.data(for: .array([.dictionary(record.values)])), text)
            let scanned = try XCTUnwrap(PropertyListScanner.records(in: streamed))
            XCTAssertEqual(scanned[0].packed, record.packed, "the scanner packs \(text) as Record does")
        }
        XCTAssertEqual(Record([Record.instanceIDKey: .string(nearMisses[0])]).packed.count, 44, "upper case stays text")
        XCTAssertEqual(Record([Record.instanceIDKey: .string(nearMisses[6])]).packed.count, 18, "every digit a zero is an id too")
    }

    func testHasInstanceIDAgreesWithInstanceID() {
        let records = [Record(), Record([Record.instanceIDKey: .string("")]), Record([Record.instanceIDKey: .integer(4)]),
                       Record([Record.instanceIDKey: .string("uuid:0b6ba9bd-fd64-892c-8aee-40bf927ec6bf")]),
                       Record([Record.instanceIDKey: .string("own-7"), "age": .integer(3)]), Record(["id": .string("x")])]
        XCTAssertEqual(records.map(\.hasInstanceID), records.map { $0.instanceID != nil })
        XCTAssertEqual(records.map(\.hasInstanceID), [false, false, false, true, true, false])
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

extension PackedAnswersTests {
    /// Surveys held in the one way their answers can be compare by bytes alone; any other
    /// pair still compares by answers.
    func testDifferentBytesAreDifferentAnswersOnlyWhereThereIsOneWayToHoldThem() throws {
        let a = Record(["firstName": .string("Ana"), "age": .integer(3), Record.instanceIDKey: .string("uuid:0b6ba9bd-fd64-892c-8aee-40bf927ec6bf")])
        XCTAssertTrue(PackedAnswers.isCanonical(a.packed))
        XCTAssertNotEqual(a, Record(["firstName": .string("Ana"), "age": .integer(4)]))
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["a": .real(0)]).packed))
        XCTAssertEqual(Record(["a": .real(0)]), Record(["a": .real(-0.0)]), "-0.0 equals 0.0, as in a dictionary")
        XCTAssertFalse(PackedAnswers.isCanonical(Record(["a": .string("\u{E9}")]).packed))
        XCTAssertEqual(Record(["a": .string("\u{E9}")]), Record(["a": .string("e\u{301}")]))
        let unsorted = try XCTUnwrap(PropertyListScanner.records(in: Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <array>
            <dict><key>phone</key><string>1</string><key>age</key><integer>3</integer></dict>
            </array>
            </plist>
            """.utf8)))[0]
        XCTAssertFalse(PackedAnswers.isCanonical(unsorted.packed), "keys out of order")
        XCTAssertEqual(unsorted, Record(["age": .integer(3), "phone": .string("1")]))
    }
}
