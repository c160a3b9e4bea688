/// A JSON value as `survey import` needs it: numbers keep their text, so a whole number, a
/// real and one too large for 64 bits are told apart exactly (`JSONSerialization` did it with
/// NSNumber type codes; it is full Foundation and links ICU, DECISIONS.md).
package enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// The number as written; `isInteger` when it has no fraction and no exponent.
    case number(String, isInteger: Bool)
    case string(String)
    case array([JSONValue])
    /// Members in file order; a repeated key keeps its last value, as JSONSerialization did.
    case object([String: JSONValue])
}

/// RFC 8259 JSON from UTF-8 bytes (a leading byte-order mark is skipped), strict: no comments,
/// no trailing commas, no raw control characters in strings. Errors name the byte offset.
package struct JSONReader {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    package static func parse(_ data: some Collection<UInt8>) throws -> JSONValue {
        var reader = JSONReader(bytes: Array(data))
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        reader.skipSpace()
        guard reader.i < reader.bytes.count else { throw Failure(description: "the data is empty") }
        let value = try reader.value()
        reader.skipSpace()
        guard reader.i == reader.bytes.count else { throw reader.unexpected("after the value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    private func unexpected(_ place: String) -> Failure {
        guard i < bytes.count else { return Failure(description: "unexpected end of data") }
        let byte = bytes[i]
        let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
        return Failure(description: "unexpected \(shown) \(place) at offset \(i)")
    }

    private mutating func value() throws -> JSONValue {
        guard i < bytes.count else { throw unexpected("") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw unexpected("where a value should start")
        }
    }

    private mutating func word(_ text: String) throws {
        for expected in text.utf8 {
            guard i < bytes.count, bytes[i] == expected else { throw unexpected("in \(text)") }
            i += 1
        }
    }

    private mutating func nested<T>(_ body: (inout JSONReader) throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 512 else { throw Failure(description: "nesting deeper than 512 levels at offset \(i)") }
        return try body(&self)
    }

    private mutating func object() throws -> JSONValue {
        try nested { r in
            r.i += 1
            var members: [String: JSONValue] = [:]
            r.skipSpace()
            if r.i < r.bytes.count, r.bytes[r.i] == UInt8(ascii: "}") { r.i += 1; return .object(members) }
            while true {
                r.skipSpace()
                guard r.i < r.bytes.count, r.bytes[r.i] == UInt8(ascii: "\"") else { throw r.unexpected("where a key should be") }
                let key = try r.string()
                r.skipSpace()
                guard r.i < r.bytes.count, r.bytes[r.i] == UInt8(ascii: ":") else { throw r.unexpected("after a key") }
                r.i += 1
                r.skipSpace()
                members[key] = try r.value()
                r.skipSpace()
                guard r.i < r.bytes.count else { throw r.unexpected("") }
                if r.bytes[r.i] == UInt8(ascii: ",") { r.i += 1; continue }
                guard r.bytes[r.i] == UInt8(ascii: "}") else { throw r.unexpected("in an object") }
                r.i += 1
                return .object(members)
            }
        }
    }

    private mutating func array() throws -> JSONValue {
        try nested { r in
            r.i += 1
            var items: [JSONValue] = []
            r.skipSpace()
            if r.i < r.bytes.count, r.bytes[r.i] == UInt8(ascii: "]") { r.i += 1; return .array(items) }
            while true {
                r.skipSpace()
                items.append(try r.value())
                r.skipSpace()
                guard r.i < r.bytes.count else { throw r.unexpected("") }
                if r.bytes[r.i] == UInt8(ascii: ",") { r.i += 1; continue }
                guard r.bytes[r.i] == UInt8(ascii: "]") else { throw r.unexpected("in an array") }
                r.i += 1
                return .array(items)
            }
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = i
        func digits() -> Int {
            let from = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - from
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let whole = i
        guard digits() > 0 else { throw unexpected("in a number") }
        guard bytes[whole] != UInt8(ascii: "0") || i - whole == 1 else { throw Failure(description: "a number with a leading zero at offset \(whole)") }
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            isInteger = false
            guard digits() > 0 else { throw unexpected("in a number's fraction") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            isInteger = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw unexpected("in a number's exponent") }
        }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self), isInteger: isInteger)
    }

    private mutating func string() throws -> String {
        let open = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw Failure(description: "a string that never ends, from offset \(open)") }
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") { i += 1; break }
            guard byte >= 0x20 else { throw Failure(description: "a control character inside a string at offset \(i)") }
            guard byte == UInt8(ascii: "\\") else { out.append(byte); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw unexpected("") }
            let escape = bytes[i]
            i += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw Failure(description: "an unpaired surrogate \\u escape at offset \(i - 6)")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw Failure(description: "an unpaired surrogate \\u escape at offset \(i - 12)") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw Failure(description: "an unpaired surrogate \\u escape at offset \(i - 6)")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
            default:
                i -= 1
                throw unexpected("after a backslash")
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw Failure(description: "a string that is not valid UTF-8 at offset \(open)")
        }
        return text
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw unexpected("") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[i])).hexDigitValue else { throw unexpected("in a \\u escape") }
            code = code << 4 | UInt32(digit)
            i += 1
        }
        return code
    }
}
