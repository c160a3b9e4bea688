import FoundationEssentials
import SurveyValues

/// Which surveys to verify, as CSPro's verification `frequency` and `start` say it (every Nth
/// case from the Kth), or at random: a percentage, the same surveys for the same seed.
///
/// Random choice is decided per survey from the seed and its `instanceID` alone (a SplitMix64
/// of the two), not by drawing along the list: the same seed chooses the same surveys
/// whatever order they are in and however many were added since, so a supervisor can say
/// "seed 7" and anyone gets the same sample.
public enum VerificationChoice: Equatable, Sendable {
    /// Every `every`th survey from the `start`th (counted from 1, in entry order).
    case every(Int, start: Int)
    /// About `percent` of the surveys (0–100), chosen by `seed`.
    case random(percent: Double, seed: UInt64)

    /// The ids of `surveys` (in entry order) this choice picks, in entry order.
    public func choose(_ surveys: [String]) -> [String] {
        switch self {
        case .every(let n, let start):
            guard n >= 1, start >= 1 else { return [] }
            return surveys.enumerated().compactMap { i, id in i + 1 >= start && (i + 1 - start) % n == 0 ? id : nil }
        case .random(let percent, let seed):
            let threshold = max(0, min(100, percent)) / 100
            return surveys.filter { Self.draw(seed: seed, id: $0) < threshold }
        }
    }

    /// A number in [0, 1) from the seed and the id: FNV-1a of the id's bytes, mixed with the
    /// seed by SplitMix64's finalizer.
    static func draw(seed: UInt64, id: String) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        var z = hash &+ seed &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        z ^= z >> 31
        return Double(z >> 11) / Double(UInt64(1) << 53)
    }
}
