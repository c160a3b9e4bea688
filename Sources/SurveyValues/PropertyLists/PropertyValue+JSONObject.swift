import FoundationEssentials

/// A survey's answers as one JSON object and back, for stores that keep them as JSON
/// (PostgreSQL's JSONB in SurveyDatabase), so that every property-list type comes back as
/// itself on every laptop (issue 28). Strings, integers, finite reals, booleans, arrays and
/// dictionaries are plain JSON, as `jsonText` writes them; the values JSON has no type for
/// are one-member objects whose key starts with `$`, which no form's field name can:
///
///     {"$date": "2024-05-01T09:30:00Z"}   a date (the property list's `<date>` text, UTC)
///     {"$data": "SGVsbG8="}               data (base64, as a property list's `<data>`)
///     {"$real": "NaN"}                    NaN, "Infinity", "-Infinity", and "-0.0"
///                                         (PostgreSQL's numbers have no negative zero)
///     {"$dict": {…}}                      a dictionary that is itself one member whose key
///                                         starts with `$`, so it is never read as one of the above
///
/// A roster's member or a group is a dictionary keyed by field names, so it is never one of
/// these; a data manager reads a date in psql as `answers->'visit'->>'$date'`. The answers
/// object itself is always the answers, whatever its keys. Reading, a `$date`, `$data` or
/// `$real` whose text is not one is refused with what it holds (the pull sets the survey
/// aside and names it); another `$` key alone is read as the dictionary it is.
///
/// One allowance for a database's number type: PostgreSQL keeps a JSON number as `numeric`,
/// which writes a real such as `1e+20` back as `100000000000000000000`, with no point. A whole
/// number too large for 64 bits can only have been a real (a survey's integers are 64-bit),
/// so it comes back as one rather than refused.
extension PropertyValue {
    /// The keys that mark a value JSON cannot hold (see above).
    enum StoredTag {
        static let date = "$date", data = "$data", real = "$real", dictionary = "$dict"
    }

    /// `{"age":35,"name":"Ana",…}`, keys sorted, compact, nested answers and unknown keys whole.
    public static func jsonObjectText(_ answers: [String: PropertyValue]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64 * answers.count + 2)
        appendStoredMembers(answers, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The answers in a JSON object's UTF-8 text; throws when it is not an object, holds a
    /// `null` (which no property list can keep), or a tagged value that is not what its tag says.
    public static func answers(jsonObject bytes: some Collection<UInt8>) throws -> [String: PropertyValue] {
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes)
        } catch let failure as JSONReader.Failure {
            throw DocumentError("the answers are not JSON: \(failure.description)")
        }
        guard case .object(let members) = value else { throw DocumentError("the answers are not a JSON object") }
        return try storedMembers(members)
    }

    /// Whether `answers`, as `jsonObjectText` writes them, nest deeper than `limit` levels,
    /// the answers object counted as 1: what the server's check on nesting sees (`SetAsideRow`).
    /// A tagged value is a level of its own, a tagged dictionary two.
    public static func storedNesting(of answers: [String: PropertyValue], exceeds limit: Int) -> Bool {
        // Iterative: the depth is being checked, so it is not trusted yet.
        var stack: [(PropertyValue, Int)] = answers.values.map { ($0, 2) }
        while let (value, depth) = stack.popLast() {
            switch value {
            case .array(let items):
                if depth > limit { return true }
                stack.append(contentsOf: items.map { ($0, depth + 1) })
            case .dictionary(let members):
                // A dictionary read as a tag is written inside `{"$dict": …}`: one level more.
                let inner = needsDictionaryTag(members) ? depth + 1 : depth
                if inner > limit { return true }
                stack.append(contentsOf: members.values.map { ($0, inner + 1) })
            case .date, .data:
                if depth > limit { return true }
            case .real(let number) where needsRealTag(number):
                if depth > limit { return true }
            default:
                break
            }
        }
        return false
    }

    // MARK: Writing

    private static func appendStoredMembers(_ members: [String: PropertyValue], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (i, key) in members.keys.sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendJSONString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            members[key]?.appendStored(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private func appendStored(to out: inout [UInt8]) {
        switch self {
        case .string(let text): Self.appendJSONString(text, to: &out)
        case .integer(let number): out.append(contentsOf: String(number).utf8)
        case .real(let number) where Self.needsRealTag(number):
            Self.appendTagged(Self.StoredTag.real, to: &out) { Self.appendJSONString(Self.realTagText(number), to: &$0) }
        case .real(let number): out.append(contentsOf: "\(number)".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .date(let date):
            Self.appendTagged(Self.StoredTag.date, to: &out) { Self.appendJSONString(PropertyListDate.text(date), to: &$0) }
        case .data(let data):
            Self.appendTagged(Self.StoredTag.data, to: &out) { Self.appendJSONString(data.base64EncodedString(), to: &$0) }
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.appendStored(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let members) where Self.needsDictionaryTag(members):
            Self.appendTagged(Self.StoredTag.dictionary, to: &out) { Self.appendStoredMembers(members, to: &$0) }
        case .dictionary(let members):
            Self.appendStoredMembers(members, to: &out)
        }
    }

    private static func appendTagged(_ tag: String, to out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "{"))
        appendJSONString(tag, to: &out)
        out.append(UInt8(ascii: ":"))
        body(&out)
        out.append(UInt8(ascii: "}"))
    }

    /// A real JSON (or PostgreSQL's `numeric`) cannot give back as itself.
    static func needsRealTag(_ number: Double) -> Bool {
        !number.isFinite || (number == 0 && number.sign == .minus)
    }

    private static func realTagText(_ number: Double) -> String {
        number.isNaN ? "NaN" : number.isInfinite ? (number < 0 ? "-Infinity" : "Infinity") : "-0.0"
    }

    /// A dictionary of one member whose key starts with `$` would read as a tag.
    static func needsDictionaryTag(_ members: [String: PropertyValue]) -> Bool {
        members.count == 1 && members.keys.first?.hasPrefix("$") == true
    }

    // MARK: Reading

    private static func storedMembers(_ object: [String: JSONValue]) throws -> [String: PropertyValue] {
        var entries: [String: PropertyValue] = [:]
        entries.reserveCapacity(object.count)
        for (key, item) in object {
            entries[key] = try stored(item, in: key)
        }
        return entries
    }

    /// A JSON value as the property-list value `appendStored` wrote it as; `key` names the
    /// answer holding it in a message.
    private static func stored(_ value: JSONValue, in key: String) throws -> PropertyValue {
        switch value {
        case .null:
            throw DocumentError("null cannot be kept in a survey file (inside “\(key)”)")
        case .string(let text):
            return .string(text)
        case .bool(let flag):
            return .bool(flag)
        case .number(let text, let isInteger):
            return try jsonNumber(text, isInteger: isInteger && Int(text) != nil)
        case .array(let items):
            return .array(try items.map { try stored($0, in: key) })
        case .object(let members):
            guard members.count == 1, let (tag, body) = members.first, tag.hasPrefix("$") else {
                return .dictionary(try storedMembers(members))
            }
            return try tagged(tag, body, in: key) ?? .dictionary(try storedMembers(members))
        }
    }

    /// The value `{"$tag": body}` stands for; nil for a `$` key that is no tag.
    private static func tagged(_ tag: String, _ body: JSONValue, in key: String) throws -> PropertyValue? {
        func refused(_ what: String) -> DocumentError {
            DocumentError("“\(key)” holds a \(tag) that is not \(what)")
        }
        switch tag {
        case StoredTag.date:
            guard case .string(let text) = body, let date = try? PropertyListDate.date(text) else {
                throw refused("a date written YYYY-MM-DDTHH:MM:SSZ")
            }
            return .date(date)
        case StoredTag.data:
            guard case .string(let text) = body, let data = Data(base64Encoded: text) else { throw refused("base64 text") }
            return .data(data)
        case StoredTag.real:
            switch body {
            case .string("NaN"): return .real(.nan)
            case .string("Infinity"): return .real(.infinity)
            case .string("-Infinity"): return .real(-.infinity)
            case .string("-0.0"): return .real(-0.0)
            default: throw refused("\"NaN\", \"Infinity\", \"-Infinity\" or \"-0.0\"")
            }
        case StoredTag.dictionary:
            guard case .object(let members) = body else { throw refused("an object") }
            return .dictionary(try storedMembers(members))
        default:
            return nil
        }
    }
}
