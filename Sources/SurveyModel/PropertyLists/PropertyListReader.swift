import FoundationEssentials

/// Any property list (XML or binary) as a `PropertyValue`, through FoundationEssentials'
/// `PropertyListDecoder`: the reader behind `PropertyListScanner` for every layout the
/// scanner does not take, and for the session file. `PropertyListSerialization` did this
/// before; it is full Foundation (CoreFoundation, ICU's 34 MB of data: DECISIONS.md).
/// A plain `Decodable` type would drop unknown keys, so `AnyPropertyValue` asks the decoder
/// for each value's own type in turn. One thing cannot be asked: a `<real>` holding a whole
/// number (`<real>2</real>`) reads as an integer (the decoder answers `Int` for it).
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
        var format = PropertyListDecoder.PropertyListFormat.xml
        let decoded = try PropertyListDecoder().decode(AnyPropertyValue.self, from: data, format: &format)
        return (decoded.value, format == .xml || format == .binary)
    }

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
