import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where survey's times are local: a place's UTC offset at any instant. `.current` reads the
/// zone as the C library does (`$TZ`: a file, a zone name or a POSIX rule; else
/// `/etc/localtime`; UTC when none is found). FoundationEssentials has no named zones
/// (only ICU's `TimeZone` has them), so this replaces `TimeZone` wherever local time is shown,
/// exported or put in a file name. A Foundation `TimeZone` can still be wrapped: fixed offsets
/// work everywhere, and tests (which link ICU) may pass named ones.
public struct TimeZoneRule: Sendable, Equatable {
    private enum Source: Sendable, Equatable {
        case fixed(Int)
        case file(TimeZoneFile)
        case posix(PosixTimeZoneRule)
        case foundation(TimeZone)
    }

    private let source: Source

    public static let utc = TimeZoneRule(secondsFromGMT: 0)

    public init(secondsFromGMT: Int) { source = .fixed(secondsFromGMT) }

    /// A Foundation zone, asked for its offset at each instant.
    public init(_ zone: TimeZone) { source = .foundation(zone) }

    /// A TZif file's contents; nil when it is not one.
    public init?(tzif data: Data) {
        guard let file = TimeZoneFile(data) else { return nil }
        source = .file(file)
    }

    /// A POSIX `TZ` rule ("EST5EDT", "CET-1CEST,M3.5.0,M10.5.0/3"); nil when it is not one.
    public init?(posix text: String) {
        guard let rule = PosixTimeZoneRule(text) else { return nil }
        source = .posix(rule)
    }

    /// Seconds east of UTC at `instant` (seconds since 1970).
    public func secondsFromGMT(at instant: Int64) -> Int {
        switch source {
        case .fixed(let offset): return offset
        case .file(let file): return file.secondsFromGMT(at: instant)
        case .posix(let rule): return rule.secondsFromGMT(at: instant)
        case .foundation(let zone): return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        }
    }

    public func secondsFromGMT(for date: Date) -> Int {
        secondsFromGMT(at: CivilTime.wholeSeconds(date))
    }
}
