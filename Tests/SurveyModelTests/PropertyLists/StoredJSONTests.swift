import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Answers as the team's store keeps them (`PropertyValue.jsonObjectText`, read back by
/// `answers(jsonObject:)`): every property-list type comes back as itself (issue 28: a date
/// came back as a string, data as base64 text, NaN as "NaN"), a dictionary that looks like
/// a tag stays a dictionary, a tag that holds nonsense is refused with what it holds, and the
/// nesting the laptop counts is the nesting the server's check sees.
final class StoredJSONTests: XCTestCase {
    private let visit = Date(timeIntervalSince1970: 1_714_555_800)   // 2024-05-01T09:30:00Z

    private func roundTrip(_ answers: [String: PropertyValue]) throws -> [String: PropertyValue] {
        try PropertyValue.answers(jsonObject: Array(PropertyValue.jsonObjectText(answers).utf8))
    }

    func testEveryTypeComesBackAsItself() throws {
        let answers: [String: PropertyValue] = [
            "visit": .date(visit), "photo": .data(Data([0, 1, 0xFF, 0x7F])), "empty": .data(Data()),
            "ratio": .real(.nan), "top": .real(.infinity), "bottom": .real(-.infinity), "signed": .real(-0.0),
            "weight": .real(61.5), "big": .real(1e300), "age": .integer(35), "name": .string("Ana"), "ok": .bool(true),
            "members": .array([.dictionary(["born": .date(visit), "scan": .data(Data("x".utf8)), "score": .real(.nan)])]),
        ]
        let back = try roundTrip(answers)
        XCTAssertEqual(back.filter { $0.key != "ratio" && $0.key != "members" }, answers.filter { $0.key != "ratio" && $0.key != "members" })
        guard case .real(let ratio)? = back["ratio"], ratio.isNaN else { return XCTFail("NaN came back as \(String(describing: back["ratio"]))") }
        guard case .real(let signed)? = back["signed"], signed.sign == .minus else { return XCTFail("-0.0 lost its sign") }
        guard case .array(let members)? = back["members"], case .dictionary(let member)? = members.first else { return XCTFail() }
        XCTAssertEqual(member["born"], .date(visit))
        XCTAssertEqual(member["scan"], .data(Data("x".utf8)))
        guard case .real(let score)? = member["score"], score.isNaN else { return XCTFail("NaN in a member") }
    }

    /// What a data manager sees in psql: plain JSON for plain answers, a one-key object for the rest.
    func testTheTextIsPlainJSONWithOneKeyObjectsForTheRest() {
        XCTAssertEqual(PropertyValue.jsonObjectText(["age": .integer(35), "name": .string("Ana \"A\""), "w": .real(2.0)]),
                       #"{"age":35,"name":"Ana \"A\"","w":2.0}"#)
        XCTAssertEqual(PropertyValue.jsonObjectText(["visit": .date(visit), "photo": .data(Data("Hi".utf8)),
                                                     "r": .array([.real(.nan), .real(.infinity), .real(-.infinity)])]),
                       #"{"photo":{"$data":"SGk="},"r":[{"$real":"NaN"},{"$real":"Infinity"},{"$real":"-Infinity"}],"visit":{"$date":"2024-05-01T09:30:00Z"}}"#)
    }

    /// Strings that read like the tags' texts stay strings; dictionaries that read like a tag
    /// stay dictionaries, however deep the disguise.
    func testNothingAnswerLikeIsTakenForATag() throws {
        let answers: [String: PropertyValue] = [
            "when": .string("2024-05-01T09:30:00Z"), "b64": .string("SGk="), "nan": .string("NaN"),
            "odd": .dictionary(["$date": .string("2024-05-01T09:30:00Z")]),
            "odder": .dictionary(["$dict": .dictionary(["$date": .date(visit)])]),
            "plain": .dictionary(["$real": .string("NaN"), "other": .integer(1)]),
            "dollar": .dictionary(["$x": .integer(1)]),
        ]
        XCTAssertEqual(try roundTrip(answers), answers)
        // The answers object itself is never a tag, whatever its one key.
        XCTAssertEqual(try roundTrip(["$date": .string("2024-05-01T09:30:00Z")]), ["$date": .string("2024-05-01T09:30:00Z")])
        // A `$` key that is no tag, written by hand, is the dictionary it is.
        XCTAssertEqual(try PropertyValue.answers(jsonObject: Array(#"{"a": {"$note": 1}}"#.utf8)), ["a": .dictionary(["$note": .integer(1)])])
    }

    func testATagHoldingNonsenseIsRefusedWithWhatItHolds() {
        for (text, message) in [
            (#"{"visit": {"$date": "yesterday"}}"#, "“visit” holds a $date that is not a date written YYYY-MM-DDTHH:MM:SSZ"),
            (#"{"visit": {"$date": 5}}"#, "“visit” holds a $date that is not a date written YYYY-MM-DDTHH:MM:SSZ"),
            (#"{"photo": {"$data": "not base64!"}}"#, "“photo” holds a $data that is not base64 text"),
            (#"{"r": [{"$real": "nan"}]}"#, "“r” holds a $real that is not \"NaN\", \"Infinity\", \"-Infinity\" or \"-0.0\""),
            (#"{"d": {"$dict": [1]}}"#, "“d” holds a $dict that is not an object"),
            (#"{"age": null}"#, "null cannot be kept in a survey file (inside “age”)"),
        ] {
            XCTAssertThrowsError(try PropertyValue.answers(jsonObject: Array(text.utf8)), text) { error in
                XCTAssertEqual((error as? DocumentError)?.message, message)
            }
        }
    }

    /// A whole number beyond 64 bits can only have been a real PostgreSQL wrote without its point.
    func testAWideWholeNumberIsAReal() throws {
        XCTAssertEqual(try PropertyValue.answers(jsonObject: Array(#"{"big": 100000000000000000000}"#.utf8)), ["big": .real(1e20)])
        XCTAssertThrowsError(try PropertyValue.answers(jsonObject: Array(#"{"big": 1e400}"#.utf8)))
    }

    /// The server refuses answers nesting deeper than 50 levels as written; a date, data, NaN
    /// or a tagged dictionary is a level of its own there, so the laptop counts it too and never
    /// sends what the schema would refuse (a refused row fails its whole batch).
    func testTaggedValuesCountAsTheLevelsTheyAreWrittenAs() {
        let deepest = SetAsideRow.maximumAnswerDepth
        /// `leaf` inside arrays, so that the arrays and the answers object make `depth` levels.
        func answers(depth: Int, leaf: PropertyValue) -> [String: PropertyValue] {
            var deep = PropertyValue.array([leaf])
            for _ in 0..<(depth - 2) { deep = .array([deep]) }
            return ["deep": deep]
        }
        XCTAssertNil(SetAsideRow.problem(withAnswers: answers(depth: deepest, leaf: .string("leaf"))))
        for leaf: PropertyValue in [.date(visit), .data(Data()), .real(.nan), .real(-0.0), .array([]), .dictionary(["a": .integer(1)])] {
            XCTAssertNil(SetAsideRow.problem(withAnswers: answers(depth: deepest - 1, leaf: leaf)), "\(leaf)")
            XCTAssertEqual(SetAsideRow.problem(withAnswers: answers(depth: deepest, leaf: leaf)), "its answers nest deeper than \(deepest) levels",
                           "\(leaf)")
        }
        // A dictionary written inside `{"$dict": …}` takes two.
        XCTAssertNil(SetAsideRow.problem(withAnswers: answers(depth: deepest - 2, leaf: .dictionary(["$a": .integer(1)]))))
        XCTAssertNotNil(SetAsideRow.problem(withAnswers: answers(depth: deepest - 1, leaf: .dictionary(["$a": .integer(1)]))))
        XCTAssertNil(SetAsideRow.problem(withAnswers: answers(depth: deepest - 1, leaf: .real(2.5))), "a finite real is no level")
    }
}

/// A NaN answer is the same answer as itself: a survey holding one and unchanged is not sent
/// again at every sync, nor merged as a change made on both sides.
final class NaNAnswerTests: XCTestCase {
    func testANaNAnswerEqualsItselfAndAnUnchangedSurveyIsNotSentAgain() {
        XCTAssertEqual(PropertyValue.real(.nan), .real(.nan))
        XCTAssertEqual(PropertyValue.array([.dictionary(["r": .real(.nan)])]), .array([.dictionary(["r": .real(.nan)])]))
        XCTAssertNotEqual(PropertyValue.real(.nan), .real(1))
        XCTAssertNotEqual(PropertyValue.real(.nan), .string("NaN"))
        let survey = Record([Record.instanceIDKey: .string("uuid:n"), "ratio": .real(.nan)])
        var ledger = SyncLedger()
        ledger.bases["uuid:n"] = SyncLedger.Version(answers: survey.answers, revision: SyncRevision(1))
        XCTAssertEqual(SyncPlan.outgoing(from: SyncState(records: [survey], ledger: ledger), device: "A"), [])
    }
}
