import XCTest
import SurveyTestSupport
@testable import SurveyValues

/// A pull reads each survey's answers straight from the server's JSON into packed bytes
/// (`PropertyValue.storedAnswers(jsonObject:)`); the old path went through `JSONValue`, a
/// dictionary, `SetAsideRow.problem(withAnswers:)` and `Record(_:)`. On every input, random
/// and chosen, the two must give the same bytes or the same refusal with the same words, and
/// the usual answers must take the direct path (else it saves nothing).
final class StoredJSONPackerTests: XCTestCase {
    /// One reader for every input of a test, as a pull keeps one for its batch: what one
    /// survey left in its buffers (a refusal half-way included) never reaches the next.
    private var reader = StoredAnswersReader()

    /// The direct path and the old one on `text`: equal records, or equal refusals.
    private func assertSameOutcome(_ text: [UInt8], _ note: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
        let shown = String(decoding: text.prefix(300), as: UTF8.self) + (note().isEmpty ? "" : " (\(note()))")
        let direct = text.withUnsafeBufferPointer { buffer in Result { try PropertyValue.storedAnswers(jsonObject: buffer) } }
        let reused = text.withUnsafeBufferPointer { buffer in Result { try reader.answers(jsonObject: buffer) } }
        switch (direct, reused) {
        case (.success(let a), .success(let b)): XCTAssertTrue(a.hasIdenticalBytes(b), "the reused reader differs: \(shown)", file: file, line: line)
        case (.failure, .failure): break
        default: XCTFail("the reused reader differs: \(shown)", file: file, line: line)
        }
        let old = text.withUnsafeBufferPointer { buffer in Result { try PropertyValue.storedAnswersThroughDictionary(jsonObject: buffer) } }
        switch (direct, old) {
        case (.success(let a), .success(let b)):
            XCTAssertTrue(a.hasIdenticalBytes(b), "different records for \(shown)", file: file, line: line)
        case (.failure(let a), .failure(let b)):
            // Answers with two faults in their values are refused for whichever the old path
            // meets first, in its dictionary's order, which changes from one dictionary to the
            // next (Swift seeds each by its address): there either such reason will do. Any
            // other refusal (not JSON, not an object, too deep) has one reason only.
            let reason = (a as? DocumentError)?.message
            let oldReason = (b as? DocumentError)?.message
            func isAboutAValue(_ message: String?) -> Bool {
                guard let message else { return false }
                return message.hasPrefix("“") || message.hasPrefix("null cannot be kept") || message.hasPrefix("the number ")
            }
            if reason != oldReason {
                XCTAssertTrue(isAboutAValue(reason) && isAboutAValue(oldReason),
                              "different refusals for \(shown): \(String(describing: reason)), not \(String(describing: oldReason))",
                              file: file, line: line)
            }
            XCTAssertNotNil(reason, file: file, line: line)
        case (.success, .failure(let b)):
            XCTFail("taken directly, refused the old way (\(b)): \(shown)", file: file, line: line)
        case (.failure(let a), .success):
            XCTFail("refused directly (\(a)), taken the old way: \(shown)", file: file, line: line)
        }
    }

    /// Whether the direct reader answered by itself (no fallback).
    private func isDirect(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { var packer = StoredJSONPacker(); return packer.answers($0) != nil }
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testUsualAnswersTakeTheDirectPathAndEqualTheOld() throws {
        // As PostgreSQL's jsonb gives them back: keys by length, then bytes, with spaces.
        let usual = #"{"age": 35, "phone": "555-0100", "address": "12 Rue \"Haute\"\nBâtiment B", "lastName": "Ndiaye", "firstName": "Aïssatou", "visit": {"$date": "2024-05-01T09:30:00Z"}, "photo": {"$data": "SGVsbG8="}, "ratio": {"$real": "NaN"}, "w": 61.5, "big": 100000000000000000000, "ok": true, "no": false, "members": [{"name": "Bo", "age": 4}, {"name": "Al", "age": 2}], "odd": {"$dict": {"$note": "x"}}, "id": "uuid:0e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "zero": -0.0}"#
        XCTAssertTrue(isDirect(usual))
        assertSameOutcome(bytes(usual))
        let record = try bytes(usual).withUnsafeBufferPointer { try PropertyValue.storedAnswers(jsonObject: $0) }
        XCTAssertEqual(record["visit"], .date(Date(timeIntervalSince1970: 1_714_555_800)))
        XCTAssertEqual(record["photo"], .data(Data("Hello".utf8)))
        XCTAssertEqual(record["big"], .real(1e20))
        XCTAssertEqual(record["odd"], .dictionary(["$note": .string("x")]))
        guard case .real(let ratio)? = record["ratio"], ratio.isNaN else { return XCTFail("NaN") }
        guard case .real(let zero)? = record["zero"], zero == 0, zero.sign == .minus else { return XCTFail("-0.0") }
        // What the laptop sends comes back the direct way.
        let sent: [String: PropertyValue] = ["firstName": .string("Ana"), "age": .integer(35), "notes": .string("a \"b\"\t\u{7}"),
                                             "when": .date(Date(timeIntervalSince1970: 1e9)), "r": .array([.real(.infinity), .real(-.infinity)])]
        XCTAssertTrue(isDirect(PropertyValue.jsonObjectText(sent)))
        let back = try bytes(PropertyValue.jsonObjectText(sent)).withUnsafeBufferPointer { try PropertyValue.storedAnswers(jsonObject: $0) }
        XCTAssertTrue(back.hasIdenticalBytes(Record(sent)))
    }

    func testChosenEdgesGiveTheSameOutcome() {
        var cases: [String] = [
            "", " ", "{}", " {} ", "{", "}", "[]", "[1]", "1", "\"a\"", "null", "true", "{}x", "{} {}", "\u{FEFF}{}",
            #"{"a":null}"#, #"{"a":[1,null]}"#, #"{"a":{"b":null}}"#, #"{"a":1,"a":2}"#, #"{"b":1,"a":2,"b":3}"#,
            #"{"a":1e400}"#, #"{"a":-1e400}"#, #"{"a":1e-400}"#, #"{"a":100000000000000000000}"#, #"{"a":9223372036854775807}"#,
            #"{"a":-9223372036854775808}"#, #"{"a":9223372036854775808}"#, #"{"a":-9223372036854775809}"#, #"{"a":999999999999999999}"#,
            #"{"a":-0}"#, #"{"a":-0.0}"#, #"{"a":0e5}"#, #"{"a":-0e5}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":1e}"#, #"{"a":+1}"#,
            #"{"a":-}"#, #"{"a":1E+2}"#, #"{"a":2.5e-3}"#, #"{"a":tru}"#, #"{"a":truex}"#, #"{"a" 1}"#, #"{"a":1,}"#, #"{,}"#, #"{"a":[1,]}"#,
            #"{"a":"\u00e9\/\b\f\n\r\t\\\""}"#, #"{"a":"\ud83d\ude00"}"#, #"{"a":"\ud83d"}"#, #"{"a":"\ude00"}"#, #"{"a":"\u12"}"#,
            #"{"a":"\x"}"#, #"{"a":"\u0000"}"#, #"{"\u0041":1}"#, #"{"é":1}"#, #"{"e\u0301":1,"\u00e9":2}"#, #"{"b":{"é":1}}"#,
            #"{"instanceID":"uuid:x","a":1}"#, #"{"":1}"#, #"{"":1,"a":{"":2}}"#, #"{"a":{"":2}}"#,
            #"{"$date":"2024-05-01T09:30:00Z"}"#, #"{"a":{"$date":"2024-05-01T09:30:00Z"}}"#, #"{"a":{"$date":"yesterday"}}"#,
            #"{"a":{"$date":5}}"#, #"{"a":{"$date":"2024-05-01T09:30:00Z","$date":"2024-05-02T09:30:00Z"}}"#,
            #"{"a":{"$date":"2024-05-01T09:30:00Z","b":1}}"#, #"{"a":{"$data":"SGk="}}"#, #"{"a":{"$data":"SGk"}}"#, #"{"a":{"$data":""}}"#,
            #"{"a":{"$data":"not base64!"}}"#, #"{"a":{"$real":"NaN"}}"#, #"{"a":{"$real":"Infinity"}}"#, #"{"a":{"$real":"-Infinity"}}"#,
            #"{"a":{"$real":"-0.0"}}"#, #"{"a":{"$real":"nan"}}"#, #"{"a":{"$real":1}}"#, #"{"a":{"$dict":{"b":1}}}"#,
            #"{"a":{"$dict":{"$b":1}}}"#, #"{"a":{"$dict":{"$date":"2024-05-01T09:30:00Z"}}}"#, #"{"a":{"$dict":{"$dict":{"b":1}}}}"#,
            #"{"a":{"$dict":[1]}}"#, #"{"a":{"$dict":{}}}"#, #"{"a":{"$x":1}}"#, #"{"a":{"$":1}}"#, #"{"a":[{"$real":"NaN"},{"$x":{}}]}"#,
            #"{"a":{"$date":"2024-05-01T09:30:00Z"},"b":null}"#, #"{"a":"uuid:0e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}"#,
            #"{"a":"uuid:0E1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"}"#, "{\"a\":\"\u{1}\"}", "{\"a\":\"x\ty\"}", "{\"a\":\"\u{7F}\"}",
            " \t\r\n{ \t\r\n\"a\" \t\r\n: \t\r\n[ 1 , 2 ] \t\r\n} \t\r\n",
        ]
        // Nesting around the limits: the old reader's 512, the stored 50, the direct reader's 64.
        for depth in [48, 49, 50, 51, 52, 62, 63, 64, 65, 66, 511, 512, 513, 600] {
            cases.append("{\"a\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}")
            cases.append("{\"a\":" + String(repeating: "{\"b\":", count: depth - 1) + "1" + String(repeating: "}", count: depth - 1) + "}")
            cases.append("{\"a\":" + String(repeating: "[", count: depth - 2) + "{\"$date\":\"2024-05-01T09:30:00Z\"}"
                + String(repeating: "]", count: depth - 2) + "}")
            cases.append("{\"a\":" + String(repeating: "[", count: depth - 2) + "{\"$x\":1}" + String(repeating: "]", count: depth - 2) + "}")
            cases.append("{\"a\":" + String(repeating: "[", count: depth - 2) + "-0.0" + String(repeating: "]", count: depth - 2) + "}")
            cases.append("{\"a\":" + String(repeating: "{\"$dict\":{\"b\":", count: depth / 2) + "[]" + String(repeating: "}}", count: depth / 2) + "}")
        }
        for text in cases { assertSameOutcome(bytes(text)) }
        // Bytes that are not UTF-8, raw in a string and in a key.
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xC3, 0xA9]] {
            assertSameOutcome(bytes(#"{"a":""#) + bad + bytes(#""}"#), "\(bad)")
            assertSameOutcome(bytes(#"{""#) + bad + bytes(#"":1}"#), "\(bad)")
        }
    }

    // MARK: Random answers

    private static let keyPool = ["address", "age", "firstName", "instanceID", "lastName", "phone", "notes", "formID", "formVersion",
                                  "a", "b", "B", "a_b", "$date", "$data", "$real", "$dict", "$x", "", "z9", "émile", "with space", "ctl\u{1}"]

    private func randomValue(_ rng: inout SplitMix, depth: Int) -> PropertyValue {
        switch rng.next(below: depth > 4 ? 8 : 10) {
        case 0: return .string(["", "Ana", "a \"q\" \\ /", "Bâtiment", "line\nnext\u{7}", "😀", "uuid:0e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                                "2024-05-01T09:30:00Z", "NaN", "\u{2028}", "e\u{301}"].randomElement(using: &rng)!)
        case 1: return .integer([0, 1, -1, 35, Int.max, Int.min, 1_000_000_000_000_000_000, -999].randomElement(using: &rng)!)
        case 2: return .real([0.5, -0.0, 0.0, 1e300, -2.5e-7, .nan, .infinity, -.infinity, 3.0, 1e20, 123456.789].randomElement(using: &rng)!)
        case 3: return .bool(rng.next(below: 2) == 0)
        case 4: return .date(Date(timeIntervalSince1970: Double(rng.next(below: 2_000_000_000)) - 500_000_000))
        case 5: return .data(Data((0..<rng.next(below: 12)).map { _ in UInt8(rng.next(below: 256)) }))
        case 6: return .string(String(rng.next(below: 100_000)))
        case 7: return .integer(rng.next(below: 1000) - 500)
        case 8: return .array((0..<rng.next(below: 4)).map { _ in randomValue(&rng, depth: depth + 1) })
        default: return .dictionary(randomMembers(&rng, depth: depth + 1))
        }
    }

    private func randomMembers(_ rng: inout SplitMix, depth: Int) -> [String: PropertyValue] {
        var members: [String: PropertyValue] = [:]
        for _ in 0..<rng.next(below: depth == 0 ? 9 : 4) {
            members[Self.keyPool.randomElement(using: &rng)!] = randomValue(&rng, depth: depth)
        }
        return members
    }

    /// Answers as the laptop writes them, then as the server may give them back (keys
    /// reordered, spaces), then mangled: each the same outcome both ways.
    func testRandomAnswersGiveTheSameOutcome() {
        let seed = SplitMix.testSeed(0x5EED_28)
        var rng = SplitMix(seed: seed)
        var direct = 0
        for round in 0..<3_000 {
            let answers = randomMembers(&rng, depth: 0)
            let text = PropertyValue.jsonObjectText(answers)
            assertSameOutcome(bytes(text), "seed \(seed), round \(round)")
            if isDirect(text) { direct += 1 }
            // Spaced out and with members reversed, as another writer might.
            let spaced = text.replacingOccurrences(of: ",\"", with: " ,\n \"").replacingOccurrences(of: "\":", with: "\" : ")
            assertSameOutcome(bytes(spaced), "seed \(seed), round \(round), spaced")
            // Mangled: a byte changed, dropped or repeated, or the text cut short.
            var mangled = bytes(text)
            for _ in 0..<(1 + rng.next(below: 3)) where !mangled.isEmpty {
                let at = rng.next(below: mangled.count)
                switch rng.next(below: 4) {
                case 0: mangled[at] = Array("{}[],:\"\\0-e.nul tfE+".utf8).randomElement(using: &rng)!
                case 1: mangled.remove(at: at)
                case 2: mangled.insert(mangled[at], at: at)
                default: mangled.removeSubrange(at...)
                }
            }
            assertSameOutcome(mangled, "seed \(seed), round \(round), mangled")
        }
        // Most random answers are plain enough for the direct reader; a fallback for all would
        // pass the comparison and save nothing.
        XCTAssertGreaterThan(direct, 1_000, "seed \(seed)")
    }
}

/// The id check every pulled row passes (`SetAsideRow.problem(withID:)`): printable ASCII is
/// taken at once, and everything else is counted as before, in code points.
final class SetAsideIDTests: XCTestCase {
    func testAnIDIsRefusedForTheSameReasonsWhateverItsLetters() {
        let most = SetAsideRow.maximumIDLength
        XCTAssertEqual(SetAsideRow.problem(withID: ""), "its instance id is empty")
        XCTAssertNil(SetAsideRow.problem(withID: "uuid:0e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"))
        XCTAssertNil(SetAsideRow.problem(withID: " ~"))
        for control in ["a\u{7}", "\u{0}", "a\u{1F}b", "a\u{7F}", "a\u{85}", "\u{9F}"] {
            XCTAssertEqual(SetAsideRow.problem(withID: control), "its instance id holds a control character", control.debugDescription)
        }
        XCTAssertNil(SetAsideRow.problem(withID: String(repeating: "x", count: most)))
        XCTAssertEqual(SetAsideRow.problem(withID: String(repeating: "x", count: most + 1)), "its instance id is longer than \(most) characters")
        XCTAssertNil(SetAsideRow.problem(withID: String(repeating: "é", count: most)), "code points, not bytes")
        XCTAssertNotNil(SetAsideRow.problem(withID: String(repeating: "é", count: most + 1)))
        XCTAssertNil(SetAsideRow.problem(withID: "uuid:é"))
    }
}
