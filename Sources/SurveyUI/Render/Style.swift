/// What a cell looks like, in terms of meaning rather than terminal codes: the terminal
/// module maps roles to colour pairs, so the UI core never knows whether colours exist.
public struct Style: Hashable, Sendable {
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1 << 0)
        public static let reverse = Attributes(rawValue: 1 << 1)
        public static let underline = Attributes(rawValue: 1 << 2)
        public static let dim = Attributes(rawValue: 1 << 3)
    }

    public enum Role: UInt8, Hashable, Sendable, CaseIterable {
        case normal, accent, error, muted, chrome
    }

    public var attributes: Attributes
    public var role: Role

    public init(_ attributes: Attributes = [], role: Role = .normal) {
        self.attributes = attributes
        self.role = role
    }

    public static let plain = Style()
    public static let bold = Style(.bold)
    public static let error = Style(.bold, role: .error)
    public static let muted = Style(.dim, role: .muted)
    public static let chrome = Style(.reverse, role: .chrome)
    public static let accent = Style(.bold, role: .accent)

    public func adding(_ extra: Attributes) -> Style {
        Style(attributes.union(extra), role: role)
    }
}
