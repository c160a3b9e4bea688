/// A POSIX `TZ` rule ("CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT", "<+0330>-3:30"): the footer of
/// a TZif file, which covers every instant after its last transition, or `$TZ` itself when it
/// names no file. Only the `Mm.w.d`, `Jn` and `n` day forms of POSIX exist, all handled.
struct PosixTimeZoneRule: Sendable, Equatable {
    /// Seconds east of UTC (POSIX writes them west, the sign flipped).
    let standardOffset: Int
    let daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        let offset: Int
        let start: DayRule, startTime: Int
        let end: DayRule, endTime: Int
    }

    enum DayRule: Sendable, Equatable {
        case monthWeekDay(month: Int, week: Int, weekday: Int)
        case julianNoLeap(Int)   // Jn: 1...365, February 29 never counted
        case zeroBased(Int)      // n: 0...365
    }

    init?(_ text: String) {
        var s = Substring(text)
        guard Self.name(&s) != nil, let std = Self.time(&s) else { return nil }
        standardOffset = -std
        if s.isEmpty { daylight = nil; return }
        guard Self.name(&s) != nil else { return nil }
        var dstOffset = -std + 3600
        if let first = s.first, first != "," { guard let t = Self.time(&s) else { return nil }; dstOffset = -t }
        // Without rules, POSIX leaves the dates to the implementation; glibc uses the US rules.
        if s.isEmpty { s = ",M3.2.0,M11.1.0" }
        guard s.first == ",", (s.removeFirst(), true).1, let start = Self.day(&s) else { return nil }
        var startTime = 7200, endTime = 7200
        if s.first == "/" { s.removeFirst(); guard let t = Self.time(&s) else { return nil }; startTime = t }
        guard s.first == ",", (s.removeFirst(), true).1, let end = Self.day(&s) else { return nil }
        if s.first == "/" { s.removeFirst(); guard let t = Self.time(&s) else { return nil }; endTime = t }
        guard s.isEmpty else { return nil }
        daylight = Daylight(offset: dstOffset, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    func secondsFromGMT(at instant: Int64) -> Int {
        guard let d = daylight else { return standardOffset }
        let year = CivilTime(instant + Int64(standardOffset)).year
        // The changes happen at local wall time: the start in standard time, the end in daylight.
        let start = Self.instant(of: d.start, year: year) + Int64(d.startTime - standardOffset)
        let end = Self.instant(of: d.end, year: year) + Int64(d.endTime - d.offset)
        let inDaylight = start < end ? (instant >= start && instant < end) : !(instant >= end && instant < start)
        return inDaylight ? d.offset : standardOffset
    }

    /// Midnight UTC of the rule's day in `year`, as seconds since 1970.
    private static func instant(of rule: DayRule, year: Int) -> Int64 {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let jan1 = CivilTime.days(year: year, month: 1, day: 1)
        switch rule {
        case .julianNoLeap(let n):
            return (jan1 + Int64(n - 1) + (leap && n >= 60 ? 1 : 0)) * 86400
        case .zeroBased(let n):
            return (jan1 + Int64(n)) * 86400
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilTime.days(year: year, month: month, day: 1)
            let firstWeekday = Int((first % 7 + 11) % 7)   // 1970-01-01 was a Thursday (4)
            var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let monthLength = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            while day > monthLength { day -= 7 }
            return (first + Int64(day - 1)) * 86400
        }
    }

    private static func name(_ s: inout Substring) -> Substring? {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return nil }
            let name = s[s.index(after: s.startIndex)..<close]
            s = s[s.index(after: close)...]
            return name
        }
        let name = s.prefix { $0.isLetter }
        guard name.count >= 3 else { return nil }
        s = s.dropFirst(name.count)
        return name
    }

    /// `[+-]hh[:mm[:ss]]` as seconds.
    private static func time(_ s: inout Substring) -> Int? {
        var sign = 1
        if s.first == "+" || s.first == "-" { sign = s.removeFirst() == "-" ? -1 : 1 }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let n = Int(digits) else { return parts.isEmpty ? nil : nil }
            parts.append(n)
            s = s.dropFirst(digits.count)
            guard s.first == ":" else { break }
            s.removeFirst()
        }
        guard !parts.isEmpty else { return nil }
        let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return sign * seconds
    }

    private static func day(_ s: inout Substring) -> DayRule? {
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        if s.first == "M" {
            s.removeFirst()
            guard let m = number(), s.first == ".", (s.removeFirst(), true).1, let w = number(),
                  s.first == ".", (s.removeFirst(), true).1, let d = number(),
                  (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else { return nil }
            return .monthWeekDay(month: m, week: w, weekday: d)
        }
        if s.first == "J" {
            s.removeFirst()
            guard let n = number(), (1...365).contains(n) else { return nil }
            return .julianNoLeap(n)
        }
        guard let n = number(), (0...365).contains(n) else { return nil }
        return .zeroBased(n)
    }
}
