/// A set of input modes as one word of bits: which modes a key binding works in. A
/// `Set<InputMode>` did the same, but hashing every mode of every binding to sort the key
/// table out by mode cost the first frame about 0.4 ms (1.3 million instructions), and
/// each key a hash.
public struct InputModes: SetAlgebra, Hashable, Sendable {
    public typealias Element = InputMode
    public typealias ArrayLiteralElement = InputMode

    private var bits: UInt64

    private init(bits: UInt64) { self.bits = bits }
    public init() { bits = 0 }

    public init(arrayLiteral modes: InputMode...) {
        bits = 0
        for mode in modes { bits |= Self.bit(mode) }
    }

    /// Every mode there is.
    public static var all: InputModes { InputModes(InputMode.allCases) }

    private static func bit(_ mode: InputMode) -> UInt64 { 1 << UInt64(mode.rawValue) }

    public func contains(_ mode: InputMode) -> Bool { bits & Self.bit(mode) != 0 }
    public func union(_ other: InputModes) -> InputModes { InputModes(bits: bits | other.bits) }
    public func intersection(_ other: InputModes) -> InputModes { InputModes(bits: bits & other.bits) }
    public func symmetricDifference(_ other: InputModes) -> InputModes { InputModes(bits: bits ^ other.bits) }

    @discardableResult
    public mutating func insert(_ mode: InputMode) -> (inserted: Bool, memberAfterInsert: InputMode) {
        let inserted = !contains(mode)
        bits |= Self.bit(mode)
        return (inserted, mode)
    }

    @discardableResult
    public mutating func remove(_ mode: InputMode) -> InputMode? {
        guard contains(mode) else { return nil }
        bits &= ~Self.bit(mode)
        return mode
    }

    @discardableResult
    public mutating func update(with mode: InputMode) -> InputMode? {
        let had = contains(mode)
        bits |= Self.bit(mode)
        return had ? mode : nil
    }

    public mutating func formUnion(_ other: InputModes) { bits |= other.bits }
    public mutating func formIntersection(_ other: InputModes) { bits &= other.bits }
    public mutating func formSymmetricDifference(_ other: InputModes) { bits ^= other.bits }
}
