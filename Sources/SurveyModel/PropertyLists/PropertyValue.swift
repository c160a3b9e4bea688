import FoundationEssentials

/// A property-list value of any type, so that keys this app does not know about (or knows
/// but finds holding an unexpected type) survive a load/save cycle exactly as other tools
/// wrote them. Codable decoding would silently drop them.
public enum PropertyValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyValue])
    case dictionary([String: PropertyValue])

    /// The plist type's name in words, for error messages ("a dictionary").
    public var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .real: return "a real number"
        case .bool: return "a boolean"
        case .date: return "a date"
        case .data: return "data"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        }
    }
}

extension PropertyValue {
    /// A list or a dictionary (a roster, a member): a value no typed text stands for.
    public var isContainer: Bool {
        switch self {
        case .array, .dictionary: true
        default: false
        }
    }
}
