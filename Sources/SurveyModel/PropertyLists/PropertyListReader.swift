import FoundationEssentials

/// Any property list (XML or binary) as a `PropertyValue`: XML in `PropertyListScanner`'s
/// subset (what survey, Apple's tools and plistlib write) read by the scanner, anything else
/// through FoundationEssentials' `PropertyListDecoder`, which is also the reader behind the
/// scanner for every document layout it does not take. `PropertyListSerialization` did this
/// before; it is full Foundation (CoreFoundation, ICU's 34 MB of data: DECISIONS.md).
/// A plain `Decodable` type would drop unknown keys, so `AnyPropertyValue` asks the decoder
/// for each value's own type in turn. It cannot tell `<real>3</real>` from `<integer>3`, so
/// numbers reach it as marked text read here, and binary files go to our own reader.
public enum PropertyListReader {
    /// Nesting beyond this is refused, as `PropertyListSerialization` refused it (deeper
    /// recursion could overflow the stack).
    static let maximumDepth = 512

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The value and whether the data was XML or binary (OpenStep text, which reads almost
    /// any text as a string, is reported as not a property list by the caller).
    static func read(_ data: Data) throws -> (value: PropertyValue, isXMLOrBinary: Bool) {
        if BinaryPropertyListReader.isBinary(data) { return (try BinaryPropertyListReader.read(data), true) }
        if let value = PropertyListScanner.value(in: data) { return (value, true) }
        return try decoded(data)
    }

    /// `read` through Foundation's decoder alone: what the scanner's subset is tested against.
    static func decoded(_ data: Data) throws -> (value: PropertyValue, isXMLOrBinary: Bool) {
        var format = PropertyListDecoder.PropertyListFormat.xml
        // Numbers go to the decoder as marked strings, so their text is read here, exactly
        // (the decoder would answer `Int` for `<real>3</real>` and refuse no unsigned value).
        // Not when the marker or CDATA (which could hold the tags as text) is in the file.
        let text = String(decoding: data, as: UTF8.self)
        if !text.contains(numberMarker), !text.contains("<![CDATA["), text.utf8.elementsEqual(data) {
            let marked = text.replacingEvery("<integer>", with: "<string>\(numberMarker)i")
                .replacingEvery("</integer>", with: "</string>")
                .replacingEvery("<real>", with: "<string>\(numberMarker)r")
                .replacingEvery("</real>", with: "</string>")
            let decoded = try PropertyListDecoder().decode(AnyPropertyValue.self, from: Data(marked.utf8), format: &format)
            return (try numbersRead(decoded.value), format == .xml || format == .binary)
        }
        let decoded = try PropertyListDecoder().decode(AnyPropertyValue.self, from: data, format: &format)
        return (decoded.value, format == .xml || format == .binary)
    }

    /// A private-use scalar no property list survey reads is expected to hold.
    private static let numberMarker = "\u{F8FF}\u{F8FE}"

    private static func numbersRead(_ value: PropertyValue) throws -> PropertyValue {
        switch value {
        case .string(let text) where text.hasPrefix(numberMarker):
            let kind = text.dropFirst(numberMarker.count).first
            let number = String(text.dropFirst(numberMarker.count + 1)).trimmingWhitespaceAndNewlines()
            if kind == "i" {
                if let n = Int(number) { return .integer(n) }
                if number.lowercased().hasPrefix("0x"), let n = Int(number.dropFirst(2), radix: 16) { return .integer(n) }
                if UInt64(number) != nil { throw Unrepresentable() }
                throw Failure(description: "an integer that is not a number (\(number))")
            }
            let spelled = ["nan": Double.nan, "+inf": .infinity, "inf": .infinity, "-inf": -.infinity][number.lowercased()]
            guard let real = spelled ?? Double(number) else { throw Failure(description: "a real that is not a number (\(number))") }
            return .real(real)
        case .array(let items): return .array(try items.map(numbersRead))
        case .dictionary(let entries): return .dictionary(try entries.mapValues(numbersRead))
        default: return value
        }
    }

    /// A value no `PropertyValue` holds exactly (an unsigned integer above `Int.max`).
    struct Unrepresentable: Error {}

    /// The decoder's reason in its own words ("Close tag on line 1 does not match open tag
    /// string"), as `NSError`'s debug description gave it before.
    public static func reason(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError as? CocoaError,
               let detail = underlying.userInfo["NSDebugDescription"] as? String { return detail }
            return context.debugDescription
        }
        if let cocoa = error as? CocoaError, let detail = cocoa.userInfo["NSDebugDescription"] as? String { return detail }
        return String(describing: error)
    }
}

private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct AnyPropertyValue: Decodable {
    let value: PropertyValue

    init(from decoder: Decoder) throws {
        guard decoder.codingPath.count <= PropertyListReader.maximumDepth else {
            throw PropertyListReader.Failure(description: "nesting deeper than \(PropertyListReader.maximumDepth) levels")
        }
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var entries: [String: PropertyValue] = [:]
            for key in keyed.allKeys { entries[key.stringValue] = try keyed.decode(AnyPropertyValue.self, forKey: key).value }
            value = .dictionary(entries)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [PropertyValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(AnyPropertyValue.self).value) }
            value = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if let flag = try? single.decode(Bool.self) {
                value = .bool(flag)
            } else if let number = try? single.decode(Int.self) {
                value = .integer(number)
            } else if let number = try? single.decode(Double.self) {
                value = .real(number)
            } else if let date = try? single.decode(Date.self) {
                value = .date(date)
            } else if let data = try? single.decode(Data.self) {
                value = .data(data)
            } else {
                value = .string(try single.decode(String.self))
            }
        }
    }
}
