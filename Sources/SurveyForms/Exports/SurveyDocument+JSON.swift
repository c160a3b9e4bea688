import FoundationEssentials
import SurveyValues

/// A document as JSON: an array with one object per record, for scripts and other programs.
///
/// Each object has the questionnaire's keys first, in questionnaire order and always present
/// (`null` when the record has no value, e.g. no age), then `instanceID` (always present too,
/// `null` when the record has none yet: a script finds it at one place), with a designer's
/// form `formID` and `formVersion` (the same way; see `Questionnaire.knownRecordKeys`), then
/// the record's other keys sorted,
/// every value mapped as `PropertyValue.jsonText` describes. Values are written as stored, not
/// as displayed: an age is a number, an age stored as text ("thirty") stays that string.
/// Reading takes the same shape back: `null` or a missing key means no value, and keys are
/// matched exactly (JSON is written by programs, which spell keys one way).
extension SurveyDocument {
    public func jsonText(questionnaire: Questionnaire = .standard) -> String {
        let keys = JSONKeys(questionnaire)
        let objects = records.map { Self.jsonObject($0, keys: keys, indent: "  ") }
        return PropertyValue.jsonContainer("[", "]", objects, indent: "") + "\n"
    }

    /// The keys every object has, worked out once per export rather than once per record.
    package struct JSONKeys {
        let ordered: [String]
        let known: Set<String>
        package init(_ questionnaire: Questionnaire) {
            ordered = questionnaire.knownRecordKeys
            known = Set(ordered)
        }
    }

    /// One record's object, its closing brace at `indent` (so it can sit inside another).
    static func jsonObject(_ record: Record, keys: JSONKeys, indent: String) -> String {
        let inner = indent + "  "
        let known = keys.ordered.map { key in
            PropertyValue.jsonString(key) + ": " + (record[key]?.jsonText(indent: inner) ?? "null")
        }
        let others = record.keys.filter { !keys.known.contains($0) }.sorted().map { key in
            PropertyValue.jsonString(key) + ": " + (record[key] ?? .string("")).jsonText(indent: inner)
        }
        return PropertyValue.jsonContainer("{", "}", known + others, indent: indent)
    }

    /// `jsonObject(record, keys: keys, indent: "  ")`, appended to `out` as UTF-8 (what
    /// `survey export` streams): text and whole numbers, nearly every value, are written
    /// straight as bytes; other values through `jsonText`.
    package static func appendJSONObject(_ record: Record, keys: JSONKeys, to out: inout [UInt8]) {
        let others = record.keys.filter { !keys.known.contains($0) }.sorted()
        guard !keys.ordered.isEmpty || !others.isEmpty else {
            out.append(contentsOf: "{}".utf8)
            return
        }
        out.append(UInt8(ascii: "{"))
        var first = true
        func member(_ key: String, _ value: PropertyValue?) {
            out.append(contentsOf: (first ? "\n    " : ",\n    ").utf8)
            first = false
            PropertyValue.appendJSONString(key, to: &out)
            out.append(contentsOf: ": ".utf8)
            switch value {
            case nil: out.append(contentsOf: "null".utf8)
            case .string(let text)?: PropertyValue.appendJSONString(text, to: &out)
            case .integer(let number)?: out.append(contentsOf: String(number).utf8)
            case let other?: out.append(contentsOf: other.jsonText(indent: "    ").utf8)
            }
        }
        for key in keys.ordered { member(key, record[key]) }
        for key in others { member(key, record[key] ?? .string("")) }
        out.append(contentsOf: "\n  }".utf8)
    }

    /// Records from JSON data (an array of objects), still to be judged by
    /// `Questionnaire.checkImport`. Refused as a whole (a `DocumentError`): text that is not
    /// JSON, a top level other than an array, an element other than an object, `null` inside
    /// a list or object value, and integers beyond 64 bits.
    public static func records(json data: Data) throws -> [Record] {
        let root: JSONValue
        do {
            root = try JSONReader.parse(data)
        } catch {
            throw DocumentError("not JSON: \(oneLine(error))")
        }
        guard case .array(let items) = root else {
            throw DocumentError("the JSON must be an array of records (objects), not \(jsonKind(root))")
        }
        return try items.enumerated().map { index, item in
            guard case .object(let object) = item else {
                throw DocumentError("record \(index + 1): a record must be a JSON object, not \(jsonKind(item))")
            }
            do {
                return Record(try PropertyValue.jsonObject(object.filter { $0.value != .null }))
            } catch let error as DocumentError {
                throw DocumentError("record \(index + 1): \(error.message)")
            }
        }
    }

    private static func jsonKind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
