import FoundationEssentials
import SurveyValues

/// A date, date-time or time as ODK's date functions read it: calendar fields as written, and
/// the offset when one is written (`Z`, `+03:00`). Without an offset a value is local time in
/// the context's zone, as JavaRosa reads it, and a number is days since 1970 on the local
/// calendar (the convention `FormValue.number` follows, see DECISIONS "Dates in expressions
/// are days").
struct FormDateTime: Equatable {
    var year: Int, month: Int, day: Int
    var hour = 0, minute = 0, second = 0, millisecond = 0
    /// Seconds east of UTC as written; nil when none is.
    var offset: Int? = nil

    static let shortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let shortDays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `YYYY-MM-DD`, optionally `THH:MM[:SS[.fff]]` and an offset; nil for anything else or a
    /// day that does not exist.
    static func parse(_ text: String) -> FormDateTime? {
        let t = text.trimmingWhitespace()
        let b = Array(t.utf8)
        guard b.count >= 10, b[4] == 0x2D, b[7] == 0x2D, let y = digits(b, 0..<4), let m = digits(b, 5..<7),
              let d = digits(b, 8..<10), (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y) else { return nil }
        var value = FormDateTime(year: y, month: m, day: d)
        guard b.count > 10 else { return value }
        guard b[10] == 0x54 || b[10] == 0x20, let time = parseTime(String(decoding: b[11...], as: UTF8.self)) else { return nil }
        value.hour = time.hour; value.minute = time.minute; value.second = time.second
        value.millisecond = time.millisecond; value.offset = time.offset
        return value
    }

    /// `HH:MM[:SS[.fff]]` with an optional offset.
    static func parseTime(_ text: String) -> (hour: Int, minute: Int, second: Int, millisecond: Int, offset: Int?)? {
        let b = Array(text.trimmingWhitespace().utf8)
        guard b.count >= 5, b[2] == 0x3A, let h = digits(b, 0..<2), let mi = digits(b, 3..<5), h < 24, mi < 60 else { return nil }
        var i = 5, s = 0, ms = 0
        if i < b.count, b[i] == 0x3A {
            guard let sec = digits(b, 6..<8), sec < 60 else { return nil }
            s = sec; i = 8
            if i < b.count, b[i] == 0x2E {
                var j = i + 1, fraction = "", count = 0
                while j < b.count, (0x30...0x39).contains(b[j]) { if count < 3 { fraction.append(Character(UnicodeScalar(b[j]))) }; count += 1; j += 1 }
                guard count > 0 else { return nil }
                ms = Int(fraction + String(repeating: "0", count: max(0, 3 - fraction.count))) ?? 0
                i = j
            }
        }
        var offset: Int? = nil
        if i < b.count {
            if b[i] == 0x5A, i + 1 == b.count { offset = 0 }
            else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2B ? 1 : -1
                let rest = Array(b[(i + 1)...]).filter { $0 != 0x3A }
                guard rest.count == 2 || rest.count == 4, let oh = digits(rest, 0..<2) else { return nil }
                let om = rest.count == 4 ? digits(rest, 2..<4) : 0
                guard let om, oh <= 14, om < 60 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            } else { return nil }
        }
        return (h, mi, s, ms, offset)
    }

    /// The local calendar date and time `days` (with its fraction) after 1970-01-01.
    init?(days: Double) {
        guard !days.isNaN, !days.isInfinite, Swift.abs(days) < 3_000_000 else { return nil }
        let whole = Int(days.rounded(.down))
        (year, month, day) = Self.civil(fromDays: whole)
        let ms = Int(((days - Double(whole)) * 86_400_000).rounded())
        hour = ms / 3_600_000; minute = ms / 60_000 % 60; second = ms / 1000 % 60; millisecond = ms % 1000
        if hour == 24 { self = FormDateTime(days: Double(whole + 1))! }
    }

    init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }

    /// The calendar fields in `zone`: the instant converted when an offset is written, the
    /// fields as they are when not.
    func local(in zone: TimeZoneRule) -> FormDateTime {
        guard let offset else { return self }
        let instant = Double(Self.days(year, month, day)) * 86400 + Double(hour * 3600 + minute * 60 + second - offset) + Double(millisecond) / 1000
        let shift = zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
        var local = FormDateTime(days: (instant + Double(shift)) / 86400)!
        local.millisecond = millisecond
        return local
    }

    /// Seconds since 1970 UTC: by the written offset, or the zone's at that local time.
    func instant(in zone: TimeZoneRule) -> Double {
        let wall = Double(Self.days(year, month, day)) * 86400 + Double(hour * 3600 + minute * 60 + second) + Double(millisecond) / 1000
        if let offset { return wall - Double(offset) }
        let guess = wall - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall)))
        return wall - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
    }

    /// Days since 1970 of the local calendar day, with the time as a fraction.
    var localDays: Double {
        Double(Self.days(year, month, day)) + Double(hour * 3600 + minute * 60 + second) / 86400 + Double(millisecond) / 86_400_000
    }

    var dateText: String { String(printf: "%04d-%02d-%02d", year, month, day) }

    /// 0 for Sunday.
    var weekday: Int { ((Self.days(year, month, day) % 7) + 11) % 7 }

    /// ODK's `format-date-time` letters (xforms-spec): `%Y %y %m %n %b %d %e %a` for the date,
    /// `%H %h %M %S %3` for the time, `%%` for a percent sign. Month and day names are
    /// English, as no form locale is known here. An unknown letter is kept as written.
    func formatted(_ format: String) -> String {
        var out = ""
        var escape = false
        for c in format {
            guard escape else { if c == "%" { escape = true } else { out.append(c) }; continue }
            escape = false
            switch c {
            case "Y": out += String(printf: "%04d", year)
            case "y": out += String(String(printf: "%04d", year).suffix(2))
            case "m": out += String(printf: "%02d", month)
            case "n": out += String(month)
            case "b": out += Self.shortMonths[month - 1]
            case "d": out += String(printf: "%02d", day)
            case "e": out += String(day)
            case "a": out += Self.shortDays[weekday]
            case "H": out += String(printf: "%02d", hour)
            case "h": out += String(hour)
            case "M": out += String(printf: "%02d", minute)
            case "S": out += String(printf: "%02d", second)
            case "3": out += String(printf: "%03d", millisecond)
            case "%": out += "%"
            default: out += "%" + String(c)
            }
        }
        if escape { out += "%" }
        return out
    }

    /// The load-time check of a constant format: every `%` is followed by a letter ODK knows.
    static func checkFormat(_ format: String) throws {
        var escape = false
        for c in format {
            guard escape else { escape = c == "%"; continue }
            escape = false
            guard "YymnbdeaHhMS3%".contains(c) else {
                throw FormExpressionError("“%\(c)” is not a date format ODK knows (%Y %y %m %n %b %d %e %a %H %h %M %S %3)")
            }
        }
        if escape { throw FormExpressionError("the date format ends with a lone “%”") }
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's algorithms)

    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        Int(CivilTime.days(year: year, month: month, day: day))
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let date = CivilTime.civil(fromDays: Int64(days))
        return (date.year, date.month, date.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func digits(_ b: [UInt8], _ r: Range<Int>) -> Int? {
        guard r.upperBound <= b.count, b[r].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return b[r].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
