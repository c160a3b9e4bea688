import FoundationEssentials
import SurveyValues

/// A document's verification record read whole: what `survey verify`, the app's verify mode
/// and `survey stats` ask of it. Derived from the lines alone, so a verification stopped
/// anywhere (a quit, a crash between two questions) resumes from what was written.
public struct VerificationLog: Equatable, Sendable {
    public private(set) var entries: [VerificationEntry]

    public init(_ entries: [VerificationEntry] = []) { self.entries = entries }

    public mutating func append(_ more: [VerificationEntry]) { entries += more }

    /// Surveys chosen for verification, in the order they were chosen, each once.
    public var chosen: [String] {
        var seen = Set<String>()
        return entries.compactMap { $0.kind == .chosen && seen.insert($0.survey).inserted ? $0.survey : nil }
    }

    public var finished: Set<String> { Set(entries.filter { $0.kind == .finished }.map(\.survey)) }

    /// The questions of `survey` already verified (any outcome), by path.
    public func settled(_ survey: String) -> Set<String> {
        Set(entries.filter { $0.survey == survey && $0.kind.isOutcome }.map(\.path))
    }

    public enum Progress: String, Equatable, Sendable {
        case waiting, partly = "partly verified", verified
    }

    /// Where a survey's verification is: not started, some questions verified, all of them.
    public func progress(of survey: String) -> Progress {
        if entries.contains(where: { $0.survey == survey && $0.kind == .finished }) { return .verified }
        return entries.contains { $0.survey == survey && $0.kind.isOutcome } ? .partly : .waiting
    }

    /// Every survey's progress, in one pass over the lines (absent: waiting): asked of many
    /// surveys, `progress(of:)` would read every line for each.
    public var progressBySurvey: [String: Progress] {
        var result: [String: Progress] = [:]
        for entry in entries {
            if entry.kind == .finished {
                result[entry.survey] = .verified
            } else if entry.kind.isOutcome, result[entry.survey] == nil {
                result[entry.survey] = .partly
            }
        }
        return result
    }

    /// The questions verified, by survey, in one pass (`settled(_:)` for each).
    public var settledBySurvey: [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for entry in entries where entry.kind.isOutcome { result[entry.survey, default: []].insert(entry.path) }
        return result
    }

    /// Chosen surveys not yet verified, partly verified ones first (they resume), then in the
    /// order chosen.
    public var waiting: [String] {
        let progress = progressBySurvey
        let left = chosen.filter { progress[$0] != .verified }
        return left.filter { progress[$0] == .partly } + left.filter { progress[$0] == nil }
    }
}
