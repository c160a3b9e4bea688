import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// ODK's node-set, repeat, geographic and encoding functions (xforms-spec, "Node-set",
/// "Repeat" and "Geographic Functions", `digest`, `base64-decode`), over the contract
/// `FormContext` documents for whoever fills in repeats.
final class FormNodeSetAndGeoFunctionTests: XCTestCase {
    private let flat = ["age": "30", "empty": "", "point": "-1.5 36.8 1700 5", "word": "abc"]

    private func eval(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> FormValue {
        FormFunctionTestSupport.eval(text, flat, file: file, line: line)
    }

    /// A household roster: four members, one age unanswered.
    private func roster(_ text: String, positions: [Int] = [], file: StaticString = #filePath, line: UInt = #line) -> FormValue {
        FormFunctionTestSupport.eval(text, flat, configure: { c in
            c.nodeSet = { name in
                switch name {
                case "member_age": return [.string("34"), .string(""), .string("7"), .string("61")]
                case "plot": return [.string("0 0"), .string("0 0.001"), .string("0.001 0.001"), .string("0.001 0"), .string("0 0")]
                default: return [.string("")]
                }
            }
            c.repeatPositions = positions
            c.indexedRepeat = { name, path in
                guard name == "member_age", path.count == 1, path[0].repeat == "member" else { return .string("?") }
                let ages = ["34", "", "7", "61"]
                return .string(ages.indices.contains(path[0].index - 1) ? ages[path[0].index - 1] : "")
            }
        }, file: file, line: line)
    }

    // Spec: count, count-non-empty, sum over node-sets; max/min as XPath 3.0.
    func testNodeSetFunctionsOverARepeat() {
        XCTAssertEqual(roster("count(${member_age})").number, 4)
        XCTAssertEqual(roster("count-non-empty(${member_age})").number, 3)
        XCTAssertEqual(roster("sum(${member_age})").number, 102, "the empty one left out, as JavaRosa sums")
        XCTAssertEqual(roster("max(${member_age})").number, 61)
        XCTAssertEqual(roster("min(${member_age})").number, 7)
        XCTAssertEqual(eval("max(3, ${age}, '12')").number, 30, "a list of values")
        XCTAssertTrue(roster("max(${empty})").number.isNaN, "no number at all: NaN")
    }

    func testAFlatFormIsOneNodePerQuestion() {
        XCTAssertEqual(eval("count(${age})").number, 1)
        XCTAssertEqual(eval("count(${empty})").number, 1, "an empty node is still a node")
        XCTAssertEqual(eval("count-non-empty(${empty})").number, 0)
        XCTAssertEqual(eval("sum(${age})").number, 30)
        XCTAssertEqual(eval("position(..)").number, 1)
        XCTAssertEqual(eval("indexed-repeat(${age}, ${word}, 1)").number, 30)
        XCTAssertEqual(eval("indexed-repeat(${age}, ${word}, 2)").string, "")
    }

    // Spec: position(node) is the position among siblings; indexed-repeat picks an instance.
    func testPositionAndIndexedRepeat() {
        XCTAssertEqual(roster("position(..)", positions: [2, 3]).number, 3, "the innermost repeat's instance")
        XCTAssertEqual(roster("position(../..)", positions: [2, 3]).number, 2)
        XCTAssertEqual(roster("position()", positions: [2]).number, 1, "the question among its siblings")
        XCTAssertEqual(roster("indexed-repeat(${member_age}, ${member}, 3)").number, 7)
        XCTAssertEqual(roster("indexed-repeat(${member_age}, ${member}, 0)").number, 34, "below 1 is 1, as JavaRosa")
        XCTAssertEqual(roster("indexed-repeat(${member_age}, ${member}, 9)").string, "")
    }

    // Spec: area(geoshape | node-set of geopoints) in m², distance(…) in metres.
    func testAreaAndDistanceOfTypedGeopoints() {
        let degree = 6_378_100 * Double.pi / 180
        XCTAssertEqual(eval("distance('0 0; 0 1')").number, degree, accuracy: 0.01)
        XCTAssertEqual(eval("distance('0 0 10 5', '1 0')").number, degree, accuracy: 0.01, "points given one by one; altitude ignored")
        XCTAssertEqual(eval("distance('0 0')").number, 0)
        XCTAssertEqual(eval("area('0 0; 0 0.001; 0.001 0.001; 0.001 0; 0 0')").number, pow(degree / 1000, 2), accuracy: 0.5)
        XCTAssertEqual(roster("area(${plot})").number, pow(degree / 1000, 2), accuracy: 0.5, "a repeat's geopoints")
        XCTAssertEqual(roster("distance(${plot})").number, 4 * degree / 1000, accuracy: 0.01)
        XCTAssertEqual(eval("enclosed-area('0 0; 0 1')").number, 0, "fewer than three points: no area")
        XCTAssertTrue(eval("distance('91 0; 0 0')").number.isNaN, "a latitude out of range is no point")
        XCTAssertTrue(eval("area(${word})").number.isNaN)
        XCTAssertEqual(eval("distance(${empty})").number, 0)
    }

    // Spec: digest(src, algorithm, encoding?) as XForms 1.1; values from Python's hashlib.
    func testDigestMatchesHashlib() {
        XCTAssertEqual(eval("digest('abc', 'MD5', 'hex')").string, "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(eval("digest('abc', 'SHA-1', 'hex')").string, "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(eval("digest('abc', 'SHA-256', 'hex')").string, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(eval("digest('abc', 'SHA-384', 'hex')").string,
                       "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        XCTAssertEqual(eval("digest('abc', 'SHA-512', 'hex')").string,
                       "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        XCTAssertEqual(eval("digest('abc', 'SHA-256')").string, "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=", "base64 by default")
        // 210 bytes of UTF-8: several blocks, and a length past one byte.
        let long = String(repeating: "Ação ", count: 30)
        let expected = ["MD5": "78d419bd3136d46be39202a9d7ed4420", "SHA-1": "427209a9e12d37965bc655d11f8de39988cddaf1",
                        "SHA-256": "84c0f784b4ab7893f85a44b0bf07f1660460112f7f249c9bdecc71f17bbf60e6",
                        "SHA-384": "5eeae2965af4a60495a0dd8412cf58d12bb04bc54c1dd513fde55e374f9bb110f9de5f34c4c404dbb8e37709e9dfef4b",
                        "SHA-512": "a62ef431b10192319aa97dfc90463042438b860da219fed54c9cde7de086485af7818df2e7344484c17be3dc430fa69acdbde1e10f966af47a646fbb7c301021"]
        for (algorithm, hex) in expected {
            XCTAssertEqual(eval("digest('\(long)', '\(algorithm)', 'hex')").string, hex, algorithm)
        }
    }

    func testBase64Decode() {
        XCTAssertEqual(eval("base64-decode('U8OjbyBUb23DqQ==')").string, "São Tomé")
        XCTAssertEqual(eval("base64-decode('not base64!')").string, "")
        XCTAssertEqual(eval("base64-decode(${empty})").string, "")
    }
}
