import FoundationEssentials

/// How property-list values cross into JSON and back. Written by hand rather than with
/// `JSONSerialization`, so that the text is the same on every platform (key order, number
/// forms, escapes) and a real number keeps its decimal point.
///
/// Out: string → string; integer → number without a point (`35`); real → number with a point
/// or exponent (`2.5`, `3.0`, `1e-05`), except NaN and ±infinity, which JSON cannot hold,
/// → the strings "NaN", "Infinity", "-Infinity"; boolean → true/false; date → ISO 8601 string
/// in UTC (`2023-11-14T22:13:20Z`); data → base64 string; array → array; dictionary → object
/// with keys sorted. Strings escape `"`, `\`, C0 and C1 controls, DEL, U+2028 and U+2029, so
/// the text is safe to print and to paste into JavaScript; everything else is raw UTF-8.
///
/// In: string, integer, real, boolean, array and object map back to their own types, so
/// every value but dates and data (which come back as the strings they were written as,
/// since nothing marks them) survives a round trip. `null` has no property-list form.
extension PropertyValue {
    package func jsonText(indent: String = "") -> String {
        switch self {
        case .string(let text): return Self.jsonString(text)
        case .integer(let number): return String(number)
        case .real(let number):
            if number.isNaN { return "\"NaN\"" }
            if number.isInfinite { return number < 0 ? "\"-Infinity\"" : "\"Infinity\"" }
            return "\(number)"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return Self.jsonString(CivilTime.iso8601(date))
        case .data(let data): return Self.jsonString(data.base64EncodedString())
        case .array(let items):
            return Self.jsonContainer("[", "]", items.map { $0.jsonText(indent: indent + "  ") }, indent: indent)
        case .dictionary(let entries):
            let members = entries.keys.sorted().map { key in
                Self.jsonString(key) + ": " + (entries[key] ?? .string("")).jsonText(indent: indent + "  ")
            }
            return Self.jsonContainer("{", "}", members, indent: indent)
        }
    }

    /// `[]` or `{}` when empty; otherwise one member per line, two spaces deeper.
    package static func jsonContainer(_ open: String, _ close: String, _ members: [String], indent: String) -> String {
        guard !members.isEmpty else { return open + close }
        let inner = indent + "  "
        return open + "\n" + members.map { inner + $0 }.joined(separator: ",\n") + "\n" + indent + close
    }

    /// `jsonString(text)` appended to `out` as UTF-8, read off the text's bytes.
    package static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0..<0x20, 0x7F: appendEscape(UInt32(byte), to: &out)
                case 0xC2 where i + 1 < bytes.count && (0x80...0x9F).contains(bytes[i + 1]):
                    appendEscape(UInt32(bytes[i + 1]), to: &out)   // C1 controls, U+0080…U+009F
                    i += 1
                case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    appendEscape(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029, to: &out)
                    i += 2
                default: out.append(byte)
                }
                i += 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `\u` and four lowercase hex digits.
    private static func appendEscape(_ value: UInt32, to out: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((value >> UInt32(shift)) & 0xF)]) }
    }

    package static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.isControlCharacter
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON value as a property-list value; nil for `null` (which callers treat as
    /// "no value" or refuse) and for numbers no property list can hold exactly.
    init?(json value: JSONValue) throws {
        switch value {
        case .null:
            return nil
        case .string(let text):
            self = .string(text)
        case .bool(let flag):
            self = .bool(flag)
        case .number(let text, let isInteger):
            self = try Self.jsonNumber(text, isInteger: isInteger)
        case .array(let items):
            self = .array(try items.map { item in
                guard let converted = try PropertyValue(json: item) else {
                    throw DocumentError("null cannot be kept in a survey file (inside a list)")
                }
                return converted
            })
        case .object(let object):
            self = .dictionary(try Self.jsonObject(object))
        }
    }

    package static func jsonObject(_ object: [String: JSONValue]) throws -> [String: PropertyValue] {
        var entries: [String: PropertyValue] = [:]
        for (key, item) in object {
            guard let converted = try PropertyValue(json: item) else {
                throw DocumentError("null cannot be kept in a survey file (inside “\(key)”)")
            }
            entries[key] = converted
        }
        return entries
    }

    /// Whole numbers (no point, no exponent) are integers, the rest reals, as
    /// `JSONSerialization` read them; a whole number beyond 64 bits is refused rather than
    /// silently rounded.
    static func jsonNumber(_ text: String, isInteger: Bool) throws -> PropertyValue {
        if isInteger {
            guard let number = Int(text) else { throw DocumentError("the number \(text) is too large to keep exactly") }
            return .integer(number)
        }
        guard let number = Double(text), number.isFinite else {
            throw DocumentError("the number \(text) is too large to keep exactly")
        }
        return .real(number)
    }
}
