import FoundationEssentials

/// A survey's answers as one JSON object and back, for stores that keep them as JSON
/// (PostgreSQL's JSONB in SurveyDatabase). The same mapping as `jsonText` and
/// `init(json:)` (PropertyValue+JSON.swift), with one allowance for a database's number type:
/// PostgreSQL keeps a JSON number as `numeric`, which writes a real such as `1e+20` back as
/// `100000000000000000000`, with no point. A whole number too large for 64 bits can only have
/// been a real (a survey's integers are 64-bit), so it comes back as one rather than refused.
extension PropertyValue {
    /// `{"age": 35, "name": "Ana", …}`, keys sorted, nested answers and unknown keys whole.
    public static func jsonObjectText(_ answers: [String: PropertyValue]) -> String {
        PropertyValue.dictionary(answers).jsonText()
    }

    /// The answers in a JSON object's UTF-8 text; throws when it is not an object, or holds
    /// a `null` (which no property list can keep).
    public static func answers(jsonObject bytes: some Collection<UInt8>) throws -> [String: PropertyValue] {
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes)
        } catch let failure as JSONReader.Failure {
            throw DocumentError("the answers are not JSON: \(failure.description)")
        }
        guard case .object = value else { throw DocumentError("the answers are not a JSON object") }
        guard case .dictionary(let answers)? = try PropertyValue(json: widened(value)) else {
            throw DocumentError("the answers are not a JSON object")
        }
        return answers
    }

    /// `value` with every whole number beyond 64 bits marked as a real.
    private static func widened(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let text, true) where Int(text) == nil: return .number(text, isInteger: false)
        case .array(let items): return .array(items.map(widened))
        case .object(let members): return .object(members.mapValues(widened))
        default: return value
        }
    }
}
