import Foundation

/// A small seeded generator (Vigna's SplitMix64), so a test that draws at random draws the
/// same thing on every run and a failure can be run again: a test says its seed in its
/// failure messages. A `RandomNumberGenerator`, so `Int.random(in:using:)`,
/// `randomElement(using:)` and `shuffled(using:)` take it.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (with the slight bias of a remainder, which no test minds).
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// The seed a test draws from: `SURVEY_TEST_SEED` when set (to run a failure again, or
    /// to try other draws by hand), else the test's own fixed `seed`, so every run of the
    /// suite draws the same.
    public static func testSeed(_ seed: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["SURVEY_TEST_SEED"].flatMap { UInt64($0) } ?? seed
    }
}
