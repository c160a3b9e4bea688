import FoundationEssentials

/// A property list's `<date>`: `YYYY-MM-DDTHH:MM:SSZ`, UTC, in the proleptic Gregorian
/// calendar, as plistlib (Python's `datetime`) and Apple's tools read and write it. Every date
/// survey reads or writes goes through here. Foundation's reader on Linux turns the text into
/// a date with `Calendar(identifier: .iso8601)`, which counts days in the Julian calendar
/// before 1582-10-15: it read plistlib's 1000-06-15 as the instant plistlib calls 1000-06-21,
/// and 0001-01-01 as 0000-12-30, so every save moved old dates (DECISIONS.md).
///
/// Only years 1 to 9999 are property-list dates: the four digits plistlib reads and Python's
/// `datetime` holds. Another date, from a file another program wrote, is refused when it is
/// read, with its text, rather than written back where plistlib cannot read it.
enum PropertyListDate {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
    static let earliest = CivilTime.days(year: 1, month: 1, day: 1) * 86_400
    static let latest = CivilTime.days(year: 9999, month: 12, day: 31) * 86_400 + 86_399

    enum Reading: Equatable {
        case date(Date)
        /// Not `YYYY-MM-DDTHH:MM:SSZ` with a real day and time.
        case malformed
        /// Well formed, but its year is 0000.
        case outOfRange
    }

    /// Whether `date` can be written as a property-list date and read back as the same date
    /// (whole seconds; a fraction, which only a binary file holds, is dropped as Apple's tools drop it).
    static func isRepresentable(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return false }
        let whole = seconds.rounded(.down)
        return whole >= Double(earliest) && whole <= Double(latest)
    }

    /// The `<date>` text of a representable date.
    static func text(_ date: Date) -> String {
        CivilTime.iso8601(date)
    }

    private static let separators: [(Int, UInt8)] = [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")),
                                                      (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":")), (19, UInt8(ascii: "Z"))]

    /// The date `YYYY-MM-DDTHH:MM:SSZ` names, exactly these 20 bytes.
    package static func reading(_ text: UnsafeBufferPointer<UInt8>) -> Reading {
        guard text.count == 20 else { return .malformed }
        func number(_ offset: Int, _ count: Int) -> Int? {
            var value = 0
            for i in offset..<offset + count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard separators.allSatisfy({ text[$0.0] == $0.1 }),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              let time = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return .malformed }
        guard year >= 1 else { return .outOfRange }
        let days = CivilTime.days(year: time.year, month: time.month, day: time.day)
        let seconds = days * 86_400 + Int64(time.hour * 3_600 + time.minute * 60 + time.second)
        return .date(Date(timeIntervalSince1970: Double(seconds)))
    }

    /// `reading` for text from a file, the reason in words when it is not a date.
    static func date(_ text: String) throws -> Date {
        var text = text
        let result = text.withUTF8 { reading($0) }
        switch result {
        case .date(let date): return date
        case .malformed where hasOtherYear(text): throw outOfRange(text)
        case .malformed: throw PropertyListReader.Failure(description: "a date that is not YYYY-MM-DDTHH:MM:SSZ with a real day and time (\(text))")
        case .outOfRange: throw outOfRange(text)
        }
    }

    /// A date of a year before 1 or after 9999, in the spelling Foundation and Apple's tools
    /// read (`-0044-03-15T12:00:00Z`, `12024-01-01T00:00:00Z`).
    private static func hasOtherYear(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 20 else { return false }
        let year = bytes.dropLast(16).drop { $0 == UInt8(ascii: "-") }
        guard !year.isEmpty, year.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return false }
        let rest = Array(bytes.suffix(16))
        return Array("0000".utf8 + rest).withUnsafeBufferPointer { reading($0) } != .malformed
    }

    /// The refusal of a date outside the years 1 to 9999, `shown` as the file gives it.
    static func outOfRange(_ shown: String) -> PropertyListReader.Failure {
        PropertyListReader.Failure(description: "a date outside the years 1 to 9999 (\(shown)): property lists, "
            + "and plistlib, hold no other; change it in the file to open it here")
    }
}
