import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues

/// A value during evaluation, with XPath 1.0's conversions: an empty answer is the empty
/// string, which is false and not a number (so `${age} > 18` is false while age is empty).
/// Answers are kept as text, so a date (`2026-12-01`, or a date and time) is a number of
/// days as ODK makes of its typed date answers: `. <= today()` compares days and
/// `today() - ${born}` counts them.
public enum FormValue: Equatable, Sendable {
    case number(Double)
    case string(String)
    case boolean(Bool)

    public var number: Double {
        switch self {
        case .number(let n): return n
        case .boolean(let b): return b ? 1 : 0
        case .string(let s):
            // Most answers are stored numbers, digits only: read at once (the scan below, a
            // trim and a set of scalars per character, was a tenth of judging a survey).
            if !s.isEmpty, s.utf8.allSatisfy(Self.isNumberByte), let n = Double(s) { return n }
            let t = s.trimmingWhitespaceAndNewlines()
            if t.isEmpty { return .nan }
            // XPath 1.0's Number, between blanks: an optional "-", then digits with an optional
            // ".". Not "1.1e6", "+5", "Infinity", "0x10" or "4,6" (JavaRosa reads a comma as
            // the point; XPath and Enketo do not). `Double` refuses the rest ("1-2", "1.2.3").
            // A stored real never has an exponent: it reaches a rule as `string` prints it.
            if t.utf8.allSatisfy(Self.isNumberByte), let n = Double(t) { return n }
            return LocalDay.days(t) ?? .nan
        }
    }

    /// `0123456789.-`, the characters XPath reads a number from.
    private static func isNumberByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x2D
    }

    public var string: String {
        switch self {
        case .string(let s): return s
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return Self.text(of: n)
        }
    }

    /// XPath 1.0's number-to-string (section 4.2): "NaN", "Infinity", "-Infinity", a whole
    /// number without a point (`-0` is "0"), anything else with digits on both sides of it,
    /// and never an exponent: 1e21 is "1000000000000000000000", 1e-7 "0.0000001". The digits
    /// are the fewest that read back as the same number (Swift's shortest description).
    /// JavaRosa writes Java's text past its int range or below 0.001 ("1.23E21", "1.0E-4");
    /// a calculation here stores what XPath writes, which any reader takes as a number.
    static func text(of n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n > 0 ? "Infinity" : "-Infinity" }
        if n == 0 { return "0" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        // "1.2345e+21", "1e-07", "0.001", "123.5": the shortest digits and where the point goes.
        let shortest = "\(abs(n))"
        let parts = shortest.split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var digits = Array(mantissa[0].utf8) + (mantissa.count > 1 ? Array(mantissa[1].utf8) : [])
        var point = mantissa[0].utf8.count + exponent
        while digits.count > 1, digits.first == UInt8(ascii: "0") {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        let zero = UInt8(ascii: "0")
        var text: [UInt8] = n < 0 ? [UInt8(ascii: "-")] : []
        if point <= 0 {
            text += [zero, UInt8(ascii: ".")] + Array(repeating: zero, count: -point) + digits
        } else if point >= digits.count {
            text += digits + Array(repeating: zero, count: point - digits.count)
        } else {
            text += digits[..<point] + [UInt8(ascii: ".")] + digits[point...]
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var boolean: Bool {
        switch self {
        case .boolean(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .string(let s): return !s.isEmpty
        }
    }
}

extension FormExpression {
    public func evaluate(in context: FormContext) -> FormValue {
        switch self {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .current: return context.current
        case .parent: return .string("")
        case .field(let name):
            if let saved = Self.lastSavedName(name) { return context.lastSaved(saved) }
            return context.answers(name)
        case .choiceColumn(let column): return .string(context.choiceColumns[column] ?? "")
        case .negate(let e): return .number(-e.evaluate(in: context).number)
        case .binary(let op, let a, let b): return Self.apply(op, a, b, in: context)
        case .call(let name, let args): return FormFunction.call(name, args, in: context)
        }
    }

    /// pyxform's `${last-saved#name}` is read as the reference `last-saved#name` (it names no
    /// question, so the form's dependency graph gives it no edge: the last saved survey does
    /// not change while this one is keyed); `name` when `reference` is one.
    public static func lastSavedName(_ reference: String) -> String? {
        reference.hasPrefix("last-saved#") ? String(reference.dropFirst("last-saved#".count)) : nil
    }

    /// `2026-11-30`, `2026-11-30T10:00:00Z`, `09:30`: text that compares in time order.
    static func isISODateOrTime(_ text: String) -> Bool {
        text.contains(try! Regex(#"^(\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?|\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$"#)
                        .matchingSemantics(.unicodeScalar))
    }

    /// Numbers are equal, for `=` and `!=`, within 1e-12 of each other, as JavaRosa has them
    /// (so `6.1 - 7.8 = -1.7` holds in Collect and here; XPath 1.0 compares exactly, and
    /// binary arithmetic makes the left side -1.6999999999999993). Infinity equals itself.
    static func equalNumbers(_ a: Double, _ b: Double) -> Bool {
        a == b || Swift.abs(a - b) < 1e-12
    }

    private static func apply(_ op: Operator, _ a: FormExpression, _ b: FormExpression, in context: FormContext) -> FormValue {
        switch op {
        case .or: return .boolean(a.evaluate(in: context).boolean || b.evaluate(in: context).boolean)
        case .and: return .boolean(a.evaluate(in: context).boolean && b.evaluate(in: context).boolean)
        default: break
        }
        let x = a.evaluate(in: context), y = b.evaluate(in: context)
        switch op {
        case .equal, .notEqual:
            let same: Bool
            switch (x, y) {
            case (.boolean, _), (_, .boolean): same = x.boolean == y.boolean
            case (.number, _), (_, .number): same = Self.equalNumbers(x.number, y.number)
            default: same = x.string == y.string
            }
            return .boolean(op == .equal ? same : !same)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            // Dates and times (`. <= today()`) are text in ISO 8601, which sorts as it reads;
            // anything else compares as numbers, as XPath does.
            let order: ComparisonResult
            if x.number.isNaN, y.number.isNaN, Self.isISODateOrTime(x.string), Self.isISODateOrTime(y.string) {
                order = x.string < y.string ? .orderedAscending : x.string == y.string ? .orderedSame : .orderedDescending
            } else {
                let (a, b) = (x.number, y.number)
                guard !a.isNaN, !b.isNaN else { return .boolean(false) }
                order = a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
            }
            switch op {
            case .less: return .boolean(order == .orderedAscending)
            case .lessOrEqual: return .boolean(order != .orderedDescending)
            case .greater: return .boolean(order == .orderedDescending)
            default: return .boolean(order != .orderedAscending)
            }
        case .plus: return .number(x.number + y.number)
        case .minus: return .number(x.number - y.number)
        case .times: return .number(x.number * y.number)
        case .divide: return .number(x.number / y.number)
        case .modulo: return .number(x.number.truncatingRemainder(dividingBy: y.number))
        case .or, .and: return .boolean(false)   // handled above
        }
    }
}

/// Dates as ODK stores them: `YYYY-MM-DD`, and ISO 8601 date-times with the offset.
enum LocalDay {
    static func text(_ date: Date, in zone: TimeZoneRule) -> String {
        CivilTime(date, in: zone).dayText
    }

    /// Days since 1970-01-01 for `YYYY-MM-DD` (a whole number), or for a date and time
    /// (`YYYY-MM-DDTHH:MM[:SS…]`, with the fraction of its day as written there); nil when
    /// the text is neither or names no real day.
    static func days(_ text: String) -> Double? {
        let b = Array(text.utf8.prefix(19))
        func digits(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= b.count, b[r].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return b[r].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard b.count >= 10, FieldSpec.isDate(String(decoding: b[0..<10], as: UTF8.self)),
              var y = digits(0..<4), let m = digits(5..<7), let d = digits(8..<10) else { return nil }
        var fraction = 0.0
        if text.utf8.count > 10 {
            guard FieldSpec.isDateTime(text), let h = digits(11..<13), let mi = digits(14..<16), let sec = digits(17..<19) else { return nil }
            fraction = Double(h * 3600 + mi * 60 + sec) / 86400
        }
        // Days from the civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
        if m <= 2 { y -= 1 }
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Double(era * 146097 + dayOfEra - 719468) + fraction
    }

    static func dateTimeText(_ date: Date, in zone: TimeZoneRule) -> String {
        CivilTime.iso8601(date, in: zone)
    }
}

extension FormExpression {
    /// Each name the expression reads (`fieldReferences`), and whether it may read it in any
    /// instance of its repeat: the question and repeats of `indexed-repeat`, which pyxform
    /// writes as absolute paths. Any other `${name}` is contextual, read in the instance the
    /// rule is evaluated in and those around it, or as the node-set of every instance when
    /// the rule is outside its repeat.
    var referencesByReach: [(name: String, anyInstance: Bool)] {
        var indexed: Set<String> = []
        func walk(_ e: FormExpression) {
            switch e {
            case .negate(let inner): walk(inner)
            case .binary(_, let a, let b): walk(a); walk(b)
            case .call(let name, let args):
                if name == "indexed-repeat" {
                    for (i, arg) in args.enumerated() where i == 0 || i % 2 == 1 { indexed.formUnion(arg.fieldReferences) }
                }
                args.forEach(walk)
            default: break
            }
        }
        walk(self)
        var seen: Set<String> = []
        return fieldReferences.compactMap { seen.insert($0).inserted ? ($0, indexed.contains($0)) : nil }
    }
}
