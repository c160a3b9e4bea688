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
    /// The same stored value: as the types' own `==`, but a NaN answer equals a NaN answer,
    /// so a survey holding one is unchanged when nothing changed it (the sync ledger compares
    /// answers with its base; a NaN unequal to itself was sent again at every sync, and
    /// merged as a change made on both sides).
    public static func == (a: PropertyValue, b: PropertyValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)): return x == y
        default: return false
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
