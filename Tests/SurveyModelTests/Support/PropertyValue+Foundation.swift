import Foundation
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

// What `PropertyListSerialization` gives and takes, as a `PropertyValue`: the tests compare
// survey's own readers and writers with Foundation's. The shipped model no longer names
// NSNumber (FoundationEssentials only: DECISIONS.md), so these live with the tests.
extension PropertyValue {
    /// Converts `PropertyListSerialization` output. Returns nil for anything a property list
    /// cannot hold, or an unsigned integer above `Int.max`.
    ///
    /// Swift's `is Bool` also matches `NSNumber` integers 0 and 1 and the real 1.0, so a
    /// boolean is recognised only by its exact type; otherwise an age of 0 would turn into
    /// `false`.
    init?(foundation value: Any) {
        if type(of: value) == Bool.self, let flag = value as? Bool {
            self = .bool(flag)
        } else if let text = value as? String {
            self = .string(text)
        } else if let number = value as? NSNumber {
            guard let converted = PropertyValue(number: number) else { return nil }
            self = converted
        } else if let date = value as? Date {
            self = .date(date)
        } else if let data = value as? Data {
            self = .data(data)
        } else if let array = value as? [Any] {
            var items: [PropertyValue] = []
            items.reserveCapacity(array.count)
            for element in array {
                guard let item = PropertyValue(foundation: element) else { return nil }
                items.append(item)
            }
            self = .array(items)
        } else if let dictionary = PropertyValue.stringKeyed(value) {
            var entries: [String: PropertyValue] = [:]
            for (key, element) in dictionary {
                guard let item = PropertyValue(foundation: element) else { return nil }
                entries[key] = item
            }
            self = .dictionary(entries)
        } else {
            return nil
        }
    }

    /// The Foundation object `PropertyListSerialization` writes as this same plist type.
    var foundationValue: Any {
        switch self {
        case .string(let text): return text
        case .integer(let number): return number
        case .real(let number): return number
        case .bool(let flag): return flag
        case .date(let date): return date
        case .data(let data): return data
        case .array(let items): return items.map(\.foundationValue)
        case .dictionary(let entries): return entries.mapValues(\.foundationValue)
        }
    }

    /// On Linux the only reliable integer/real distinction is the Objective-C type code.
    private init?(number: NSNumber) {
        let code = String(cString: number.objCType)
        switch code {
        case "d", "f":
            self = .real(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            let unsigned = number.uint64Value
            guard unsigned <= UInt64(Int.max) else { return nil }
            self = .integer(Int(unsigned))
        default:
            self = .integer(number.intValue)
        }
    }

    /// Top-level dictionaries arrive as `[AnyHashable: Any]` on Linux; nested ones may be
    /// either form. Non-string keys cannot occur in a property list, so they reject it.
    private static func stringKeyed(_ value: Any) -> [String: Any]? {
        if let dictionary = value as? [String: Any] { return dictionary }
        guard let loose = value as? [AnyHashable: Any] else { return nil }
        var result: [String: Any] = [:]
        for (key, element) in loose {
            guard let name = key.base as? String else { return nil }
            result[name] = element
        }
        return result
    }
}
