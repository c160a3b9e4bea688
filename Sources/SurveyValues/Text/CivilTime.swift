import FoundationEssentials

/// A wall-clock date and time in the proleptic Gregorian calendar, from seconds since 1970
/// already shifted by a UTC offset (Howard Hinnant's civil-from-days), and the fixed-width
/// texts survey writes dates in. This replaces `Calendar`/`DateFormatter`/`String(format:)`,
/// which without ICU know no local zone (DECISIONS.md). Seconds are truncated toward the past,
/// as Foundation's calendar and ISO 8601 formatter did.
public struct CivilTime: Equatable, Sendable {
    public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    init(_ seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = Int(seconds - days * 86400)
        (year, month, day) = Self.civil(fromDays: days)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }

    /// Nil when no such day or time exists (February 30, 24:00, a 60th second).
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              day >= 1, day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    /// The wall-clock time of `date` in `zone`.
    public init(_ date: Date, in zone: TimeZoneRule) {
        let instant = Self.wholeSeconds(date)
        self.init(instant + Int64(zone.secondsFromGMT(at: instant)))
    }

    /// Days since 1970-01-01 of a civil date.
    package static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// The civil date of a day count since 1970-01-01 (Howard Hinnant's civil-from-days), the
    /// one home of this arithmetic: form expressions' dates use it too (`FormDateTime`).
    package static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }

    static func wholeSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The instant this wall-clock time names in `zone` (the earlier one when a clock change
    /// repeats it, the later offset's when one skips it).
    public func date(in zone: TimeZoneRule) -> Date {
        let local = Self.days(year: year, month: month, day: day) * 86400 + Int64(hour * 3600 + minute * 60 + second)
        // The offsets in force a day either side; an instant fits when its own offset is the one
        // it was computed with. None fits in a skipped hour: the offset before the change then.
        let before = zone.secondsFromGMT(at: local - 86400), after = zone.secondsFromGMT(at: local + 86400)
        let fitting = [before, after].map { local - Int64($0) }.filter { local - Int64(zone.secondsFromGMT(at: $0)) == $0 }
        return Date(timeIntervalSince1970: Double(fitting.min() ?? local - Int64(before)))
    }

    /// 2026-11-18
    public var dayText: String { Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2) }

    /// 11:06
    public var minuteText: String { Self.padded(hour, 2) + ":" + Self.padded(minute, 2) }

    /// 11:06:09
    public var secondText: String { minuteText + ":" + Self.padded(second, 2) }

    /// `%0Nd`: zero-padded to `width` digits, the sign first.
    public static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// ISO 8601 as `ISO8601DateFormatter` wrote it with its default options:
    /// `2026-11-18T10:06:09Z`, or with the zone's offset (`+01:00`) when it is not UTC then.
    public static func iso8601(_ date: Date, in zone: TimeZoneRule = .utc) -> String {
        let instant = wholeSeconds(date)
        let offset = zone.secondsFromGMT(at: instant)
        let t = CivilTime(instant + Int64(offset))
        var text = t.dayText + "T" + t.secondText
        if offset == 0 {
            text += "Z"
        } else {
            text += (offset < 0 ? "-" : "+") + padded(abs(offset) / 3600, 2) + ":" + padded(abs(offset) / 60 % 60, 2)
        }
        return text
    }
}
