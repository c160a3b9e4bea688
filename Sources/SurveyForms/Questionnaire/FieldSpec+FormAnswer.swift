import FoundationEssentials
import SurveyValues

/// The rules of an XLSForm question's own type, as ODK stores answers: integer as integer,
/// decimal as real, dates and times as ISO 8601 text, choices by name. One place, so the
/// form, `survey add` and imports refuse exactly the same answers with the same words.
extension FieldSpec {
    func parseFormAnswer(_ text: String) -> Result<PropertyValue?, FieldError> {
        if text.unicodeScalars.contains(where: Self.isRefusedWhenTyped) {
            return .failure(FieldError("\(label) cannot hold control characters"))
        }
        let t = text.trimmingWhitespaceAndNewlines()
        if t.isEmpty { return .success(nil) }
        switch kind {
        case .decimal:
            guard t.unicodeScalars.allSatisfy({ "0123456789.-+eE".unicodeScalars.contains($0) }),
                  let d = Double(t), d.isFinite else {
                return .failure(FieldError("\(label) must be a number"))
            }
            return .success(.real(d))
        case .date:
            guard Self.isDate(t) else { return .failure(FieldError("\(label) must be a date, YYYY-MM-DD")) }
            return .success(.string(t))
        case .time:
            guard Self.isTime(t) else {
                return .failure(FieldError("\(label) must be a time, HH:MM"))
            }
            return .success(.string(t))
        case .dateTime:
            guard Self.isDateTime(t) else {
                return .failure(FieldError("\(label) must be a date and time, YYYY-MM-DDTHH:MM:SS±HH:MM"))
            }
            return .success(.string(t))
        case .choice(_, let names, let multiple):
            let picked = multiple ? t.split(separator: " ").map(String.init) : [t]
            if let stray = picked.first(where: { !names.contains($0) }) {
                return .failure(FieldError("“\(stray)” is not one of the choices of \(label)"))
            }
            var unique: [String] = []
            for p in picked where !unique.contains(p) { unique.append(p) }
            return .success(.string(unique.joined(separator: " ")))
        case .acknowledge:
            guard t == "OK" || t.lowercased() == "ok" else { return .failure(FieldError("\(label) is answered OK, or left empty")) }
            return .success(.string("OK"))
        case .geo(let geometry): return parseGeo(t, geometry)
        case .range(let start, let end, let step): return parseRange(t, start: start, end: end, step: step)
        case .rank(_, let names): return parseRank(t, names: names)
        case .attachment: return parseAttachment(t)
        case .note, .calculated, .groupStart, .groupEnd, .metadata, .notCollected, .text, .wholeNumber:
            return .success(.string(t))
        }
    }

    /// `YYYY-MM-DD` in ASCII digits, a day that exists in the proleptic Gregorian calendar
    /// (xsd:date's): February 29 only in leap years, no year 0000.
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = asciiNumber(bytes[0..<4]), let month = asciiNumber(bytes[5..<7]),
              let day = asciiNumber(bytes[8..<10]), year >= 1, (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.s…]` and a zone (`Z` or `±HH:MM`), as xsd:dateTime and ODK
    /// write it; the day must exist and the time be a real one (no 24:00, no 60th second).
    static func isDateTime(_ text: String) -> Bool {
        let pattern = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9]|[+-]14:00)$"#
        guard text.contains(try! Regex(pattern).matchingSemantics(.unicodeScalar)) else { return false }
        return isDate(String(text.prefix(10)))
    }

    /// `HH:MM` or `HH:MM:SS`, 00:00 to 23:59:59, in ASCII digits: what
    /// `^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$` matches, checked byte by byte. The
    /// regex was compiled at each call: judging a stored survey's 20 times was a quarter of
    /// → to it on the designer's 500-question form.
    static func isTime(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 5 || b.count == 8 else { return false }
        func digit(_ i: Int, upTo last: UInt8) -> Bool { b[i] >= UInt8(ascii: "0") && b[i] <= last }
        let hourOK = (b[0] == UInt8(ascii: "0") || b[0] == UInt8(ascii: "1")) && digit(1, upTo: UInt8(ascii: "9"))
            || b[0] == UInt8(ascii: "2") && digit(1, upTo: UInt8(ascii: "3"))
        guard hourOK, b[2] == UInt8(ascii: ":"), digit(3, upTo: UInt8(ascii: "5")), digit(4, upTo: UInt8(ascii: "9")) else { return false }
        return b.count == 5 || b[5] == UInt8(ascii: ":") && digit(6, upTo: UInt8(ascii: "5")) && digit(7, upTo: UInt8(ascii: "9"))
    }

    private static func asciiNumber(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
