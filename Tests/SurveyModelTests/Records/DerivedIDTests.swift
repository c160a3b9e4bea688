import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The id a survey found without one is given must be the same in every version of survey:
/// two copies of the app, `survey add` and `survey export` agree on which survey is which
/// only while they derive the same id from the same place and answers.
final class DerivedIDTests: XCTestCase {
    func testDerivedIdsAreThoseEarlierVersionsGave() {
        let plain = Record(["firstName": .string("Ana"), "lastName": .string("Lima"), "age": .integer(42)])
        let varied = Record(["lastName": .string("山田 Zoë"), "phone": .string(""), "score": .real(2.5),
                             "ok": .bool(true), "when": .date(Date(timeIntervalSinceReferenceDate: 1_000)),
                             "blob": .data(Data([0, 1, 2])), "list": .array([.integer(1), .string("x")]),
                             "nested": .dictionary(["b": .integer(2), "a": .string("A")])])
        XCTAssertEqual(Record.derivedInstanceID(position: 0, of: plain), "uuid:abc72299-6a71-85f5-bceb-1a51866ff11e")
        XCTAssertEqual(Record.derivedInstanceID(position: 99_999, of: plain), "uuid:97e06f03-e21a-8069-a2f1-5f37bc8ede8e")
        XCTAssertEqual(Record.derivedInstanceID(position: 7, of: varied), "uuid:526fc395-f0f5-8045-8cf0-8e2e5b339a3c")
        var withID = plain
        withID.values[Record.instanceIDKey] = .string("uuid:kept")
        XCTAssertEqual(Record.derivedInstanceID(position: 0, of: withID), "uuid:abc72299-6a71-85f5-bceb-1a51866ff11e", "the id itself is not hashed")
    }
}
