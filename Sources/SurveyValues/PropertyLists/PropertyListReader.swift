import FoundationEssentials

/// Any property list (XML or binary) as a `PropertyValue`: XML in `PropertyListScanner`'s
/// subset (what survey, Apple's tools and plistlib write) read by the scanner, anything else
/// through FoundationEssentials' `PropertyListDecoder`, which is also the reader behind the
/// scanner for every document layout it does not take. `PropertyListSerialization` did this
/// before; it is full Foundation (CoreFoundation, ICU's 34 MB of data: DECISIONS.md).
/// A plain `Decodable` type would drop unknown keys, so `AnyPropertyValue` asks the decoder
/// for each value's own type in turn. It cannot tell `<real>3</real>` from `<integer>3`, and
/// its dates are Julian before 1582, so numbers and dates reach it as marked text read here
/// (`XMLPropertyListPrepass`, which also bounds the nesting first), and binary files go to
/// our own reader.
public enum PropertyListReader {
    /// Nesting beyond this is refused, as `PropertyListSerialization` refused it (deeper
    /// recursion could overflow the stack).
    static let maximumDepth = 512

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The value and whether the data was XML or binary (OpenStep text, which reads almost
    /// any text as a string, is reported as not a property list by the caller).
    package static func read(_ data: Data) throws -> (value: PropertyValue, isXMLOrBinary: Bool) {
        if BinaryPropertyListReader.isBinary(data) { return (try BinaryPropertyListReader.read(data), true) }
        if let value = PropertyListScanner.value(in: data) { return (value, true) }
        return try decoded(data)
    }

    /// `read` through Foundation's decoder alone: what the scanner's subset is tested against.
    /// The only call into Foundation's reader, and always behind `XMLPropertyListPrepass`,
    /// which refuses nesting Foundation's recursive scanner could not survive and hands it
    /// numbers and dates as marked strings, read here exactly (the decoder would answer `Int`
    /// for `<real>3</real>`, refuse no unsigned value, and count days before 1582 in the Julian
    /// calendar).
    static func decoded(_ data: Data) throws -> (value: PropertyValue, isXMLOrBinary: Bool) {
        var format = PropertyListDecoder.PropertyListFormat.xml
        let prepared = try XMLPropertyListPrepass.prepared(data, maximumDepth: maximumDepth)
        let decoded = try PropertyListDecoder().decode(AnyPropertyValue.self, from: prepared.data, format: &format)
        let value = try prepared.marker.map { try markedRead(decoded.value, marker: $0) } ?? decoded.value
        return (value, format == .xml || format == .binary)
    }

    /// The values of the marked strings `XMLPropertyListPrepass` made.
    private static func markedRead(_ value: PropertyValue, marker: String) throws -> PropertyValue {
        switch value {
        case .string(let text) where text.hasPrefix(marker):
            let kind = text.dropFirst(marker.count).first
            let body = String(text.dropFirst(marker.count + 1))
            if kind == "d" { return .date(try PropertyListDate.date(body)) }
            let number = body.trimmingWhitespaceAndNewlines()
            if kind == "i" {
                if let n = Int(number) { return .integer(n) }
                if number.lowercased().hasPrefix("0x"), let n = Int(number.dropFirst(2), radix: 16) { return .integer(n) }
                if UInt64(number) != nil { throw Unrepresentable() }
                throw Failure(description: "an integer that is not a number (\(number))")
            }
            let spelled = ["nan": Double.nan, "+inf": .infinity, "inf": .infinity, "-inf": -.infinity][number.lowercased()]
            guard let real = spelled ?? Double(number) else { throw Failure(description: "a real that is not a number (\(number))") }
            return .real(real)
        case .array(let items): return .array(try items.map { try markedRead($0, marker: marker) })
        case .dictionary(let entries): return .dictionary(try entries.mapValues { try markedRead($0, marker: marker) })
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
    package let value: PropertyValue

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
                // Not reached for XML (every `<date>` is marked) nor binary (read by survey).
                guard PropertyListDate.isRepresentable(date) else { throw PropertyListDate.outOfRange("\(date)") }
                value = .date(date)
            } else if let data = try? single.decode(Data.self) {
                value = .data(data)
            } else {
                value = .string(try single.decode(String.self))
            }
        }
    }
}
