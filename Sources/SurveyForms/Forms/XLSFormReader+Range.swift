import FoundationEssentials
import SurveyValues

/// A `range` question's parameters as pyxform 4.5 judges them
/// (`validators/pyxform/question_types/range.py`), with its decimal arithmetic: `0.3` is a
/// multiple of a step of `0.1` (in binary floating point it is not).
extension XLSFormReader {
    /// A range's start, end and step: ODK's defaults 1, 10 and 1.
    static func rangeParameters(_ q: XLSForm.Question) -> (start: Double?, end: Double?, step: Double?) {
        func number(_ name: String, _ fallback: Double) -> Double? {
            q.parameters[name].map { RangeNumber($0).map(\.double) } ?? fallback
        }
        return (number("start", 1), number("end", 10), number("step", 1))
    }

    /// pyxform's checks in its order; a problem ends the row's checks, as in pyxform, but for
    /// the parameters that are not numbers, which are listed together.
    mutating func checkRange(_ q: XLSForm.Question, parameters: [String: String], choices: [String: [XLSForm.Choice]]) {
        func refuse(_ message: String) {
            errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "parameters", message: message))
        }
        let ticks = ["tick_interval", "placeholder", "tick_labelset"]
        if let appearance = q.appearance, !appearance.contains("vertical"), !appearance.contains("no-ticks"),
           ticks.contains(where: { parameters[$0] != nil }) {
            return refuse("for the 'range' question type, the parameters 'tick_interval', 'placeholder', and 'tick_labelset' are only "
                + "supported for the appearances 'vertical', 'no-ticks', 'vertical no-ticks', and the default (empty) horizontal")
        }
        let defaults = ["start": "1", "end": "10", "step": "1"]
        var numbers: [String: RangeNumber] = [:]
        var failed = false
        for name in ["start", "end", "step", "tick_interval", "placeholder"] {
            guard let text = parameters[name] ?? defaults[name] else { continue }
            if let number = RangeNumber(text) { numbers[name] = number; continue }
            failed = true
            refuse("the range’s \(name) must be a number, not “\(text)”")
        }
        if let step = numbers["step"], step.isZero { return refuse("the range’s step cannot be 0") }
        guard !failed, let start = numbers["start"], let end = numbers["end"], let step = numbers["step"] else { return }
        // A comparison or a sum too large to tell exactly here (nil) refuses nothing: the
        // form is let through rather than refused for what pyxform might accept.
        let width = (end - start)?.magnitude
        if let width, step.compared(to: width) == .greater {
            return refuse("for the 'range' question type, the parameter 'step' must not be larger than the range (the difference between 'start' and 'end')")
        }
        /// Outside both ends (Python's `v < min(start, end) or v > max(start, end)`).
        func outside(_ v: RangeNumber) -> Bool {
            guard let a = v.compared(to: start), let b = v.compared(to: end) else { return false }
            return a == b && a != .equal
        }
        if let tick = numbers["tick_interval"] {
            if tick.isZero { return refuse("for the 'range' question type, the parameter 'tick_interval' must not be '0' (zero)") }
            if let width, tick.compared(to: width) == .greater {
                return refuse("for the 'range' question type, the parameter 'tick_interval' must not be larger than the range (the difference between 'start' and 'end')")
            }
            if tick.isMultiple(of: step) == false { return refuse("for the 'range' question type, the parameter 'tick_interval' must be a multiple of 'step'") }
        }
        if let placeholder = numbers["placeholder"] {
            if (placeholder - start)?.isMultiple(of: step) == false {
                return refuse("for the 'range' question type, the parameter 'placeholder' must be a multiple of 'step'")
            }
            if outside(placeholder) {
                return refuse("for the 'range' question type, the parameter 'placeholder' must be between the 'start' and 'end' values, inclusive")
            }
        }
        guard let labelset = parameters["tick_labelset"] else { return }
        guard let list = choices[labelset] else {
            return refuse("for the 'range' question type, the parameter 'tick_labelset' must be a choice list name from the 'list_name' "
                + "column on the choices sheet: there is no list “\(labelset)”")
        }
        let noTicks = q.appearance?.contains("no-ticks") == true
        var labels: [RangeNumber] = []
        for choice in list {
            guard let value = RangeNumber(choice.name) else {
                return refuse("for the 'range' question type, the parameter 'tick_labelset' choice values must all be numbers: “\(choice.name)” is not")
            }
            if outside(value) {
                return refuse("for the 'range' question type, the parameter 'tick_labelset' choices must be between the 'start' and 'end' values, inclusive")
            }
            let offset = value - start
            if let tick = numbers["tick_interval"] {
                if offset?.isMultiple(of: tick) == false {
                    return refuse("for the 'range' question type, the parameter 'tick_labelset' choices' values must be equal to the start of the range plus a multiple of 'tick_interval'")
                }
            } else if offset?.isMultiple(of: step) == false {
                return refuse("for the 'range' question type, the parameter 'tick_labelset' choices' values must be equal to the start of the range plus a multiple of 'step'")
            }
            if noTicks, !labels.contains(value) { labels.append(value) }
        }
        // Numbers of more digits than are kept here may be equal or not: nothing refused.
        guard noTicks, labels.allSatisfy(\.isExact), start.isExact, end.isExact else { return }
        if labels.count > 2 {
            return refuse("for the 'range' question type, the parameter 'tick_labelset' choice list must have only 2 items when the 'appearance' is 'no-ticks'")
        }
        if Set(labels) != Set([start, end]) {
            return refuse("for the 'range' question type, the parameter 'tick_labelset' choice list values may only match the range 'start' and 'end' values when the 'appearance' is 'no-ticks'")
        }
    }
}

/// A decimal number as Python's `Decimal` reads one (`-1.25`, `2e3`, `1_000`, digits of any
/// script), kept as a whole mantissa of at most 18 digits and a power of ten. Exact for the
/// few digits a range's parameters have; a number of more significant digits keeps its first
/// 18 and is marked inexact, and whatever depends on its last digits is left undecided (nil)
/// rather than guessed. Every sum and scaling reports overflow, so no text crashes it.
struct RangeNumber: Hashable {
    /// Normalized: no trailing zero in the mantissa (so equal values are equal structs);
    /// never `Int.min`, so its magnitude always exists.
    private(set) var mantissa: Int
    private(set) var exponent: Int
    /// False when digits past the mantissa's were dropped.
    private(set) var isExact: Bool

    /// nil when the mantissa is `Int.min` (its magnitude would not fit).
    init?(mantissa: Int, exponent: Int, exact: Bool = true) {
        guard mantissa != .min else { return nil }
        var m = mantissa, e = exponent
        while m != 0, m % 10 == 0, e < Int.max { m /= 10; e += 1 }
        if m == 0 { e = 0 }
        self.mantissa = m
        self.exponent = e
        isExact = exact
    }

    /// Python's grammar, after it drops surrounding white space and every underscore and reads
    /// each decimal digit (Unicode Nd) as its ASCII one. Infinity and NaN, which pyxform refuses
    /// (or fails on), are no number here; nor is an exponent past what Python's Decimal takes
    /// (an adjusted exponent above 999,999,999,999,999,999, or one below -1,999,999,999,999,999,997).
    init?(_ text: String) {
        var ascii: [UInt8] = []
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        for scalar in scalars where scalar != "_" {
            if scalar.isASCII {
                ascii.append(UInt8(scalar.value))
            } else if scalar.properties.numericType == .decimal, let v = scalar.properties.numericValue, v >= 0, v <= 9 {
                ascii.append(UInt8(ascii: "0") + UInt8(v))
            } else {
                return nil
            }
        }
        var i = ascii.startIndex
        func isDigit(_ k: Int) -> Bool { k < ascii.endIndex && ascii[k] >= UInt8(ascii: "0") && ascii[k] <= UInt8(ascii: "9") }
        var negative = false
        if i < ascii.endIndex, ascii[i] == UInt8(ascii: "+") || ascii[i] == UInt8(ascii: "-") { negative = ascii[i] == UInt8(ascii: "-"); i += 1 }
        // The significant digits (leading zeros skipped), at most 18 kept.
        var mantissa = 0, kept = 0, dropped = 0, fractionDigits = 0, anyDigit = false, inexact = false
        func digit(_ d: Int, fraction: Bool) {
            anyDigit = true
            if fraction { fractionDigits += 1 }
            if kept == 0, d == 0 { return }
            if kept < 18 { mantissa = mantissa * 10 + d; kept += 1 } else { dropped += 1; if d != 0 { inexact = true } }
        }
        while isDigit(i) { digit(Int(ascii[i] - UInt8(ascii: "0")), fraction: false); i += 1 }
        if i < ascii.endIndex, ascii[i] == UInt8(ascii: ".") {
            i += 1
            while isDigit(i) { digit(Int(ascii[i] - UInt8(ascii: "0")), fraction: true); i += 1 }
        }
        guard anyDigit else { return nil }
        // The written exponent, saturated past what Python's range allows.
        var power = 0
        if i < ascii.endIndex, ascii[i] == UInt8(ascii: "e") || ascii[i] == UInt8(ascii: "E") {
            i += 1
            var minus = false
            if i < ascii.endIndex, ascii[i] == UInt8(ascii: "+") || ascii[i] == UInt8(ascii: "-") { minus = ascii[i] == UInt8(ascii: "-"); i += 1 }
            guard isDigit(i) else { return nil }
            while isDigit(i) {
                // Saturated at 4e18, past both of Python's limits; never near overflow.
                power = Swift.min(power, 400_000_000_000_000_000) * 10 + Int(ascii[i] - UInt8(ascii: "0"))
                i += 1
            }
            if minus { power = -power }
        }
        guard i == ascii.endIndex else { return nil }
        // The exponent of the last digit written, then of the last digit kept.
        let written = power - fractionDigits
        let exponent = written + dropped
        let adjusted = written + max(kept + dropped, 1) - 1
        guard adjusted <= 999_999_999_999_999_999, written >= -1_999_999_999_999_999_997 else { return nil }
        self.init(mantissa: negative ? -mantissa : mantissa, exponent: exponent, exact: !inexact)
    }

    var isZero: Bool { mantissa == 0 }
    /// The nearest Double (±infinity or 0 past Double's range).
    var double: Double {
        let e = Swift.min(Swift.max(exponent, -400), 400)
        return Double("\(mantissa)e\(e)") ?? .nan
    }
    /// Never nil: the mantissa is never `Int.min`.
    var magnitude: RangeNumber { RangeNumber(mantissa: Swift.abs(mantissa), exponent: exponent, exact: isExact)! }

    /// The number of digits of the mantissa (1 for zero).
    private var digitCount: Int {
        var n = 1, m = mantissa.magnitude
        while m >= 10 { m /= 10; n += 1 }
        return n
    }

    /// Both mantissas at the smaller exponent; nil when that overflows. Zero takes the
    /// other's exponent, so `1e30 - 0` needs no scaling.
    private static func aligned(_ a: RangeNumber, _ b: RangeNumber) -> (Int, Int, Int)? {
        let e = a.isZero ? b.exponent : b.isZero ? a.exponent : Swift.min(a.exponent, b.exponent)
        func scaled(_ x: RangeNumber) -> Int? {
            if x.isZero { return 0 }
            let (shift, overflow) = x.exponent.subtractingReportingOverflow(e)
            guard !overflow, shift < 19 else { return nil }
            var m = x.mantissa
            for _ in 0..<shift {
                let (r, overflow) = m.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                m = r
            }
            return m
        }
        guard let x = scaled(a), let y = scaled(b) else { return nil }
        return (x, y, e)
    }

    /// The exact difference; nil when either is inexact or it does not fit.
    static func - (a: RangeNumber, b: RangeNumber) -> RangeNumber? {
        guard a.isExact, b.isExact, let (x, y, e) = aligned(a, b) else { return nil }
        let (d, overflow) = x.subtractingReportingOverflow(y)
        return overflow ? nil : RangeNumber(mantissa: d, exponent: e)
    }

    enum Order { case less, equal, greater }

    /// Exact for exact numbers, whatever their exponents; nil when an inexact one's dropped
    /// digits could decide.
    func compared(to other: RangeNumber) -> Order? {
        func order<T: Comparable>(_ x: T, _ y: T) -> Order { x < y ? .less : x > y ? .greater : .equal }
        let s = mantissa.signum(), t = other.mantissa.signum()
        if s != t { return order(s, t) }
        if s == 0 { return .equal }
        // Same sign: the larger adjusted exponent is the larger magnitude.
        let p = exponent.addingReportingOverflow(digitCount).partialValue, q = other.exponent.addingReportingOverflow(other.digitCount).partialValue
        if p != q { return s > 0 ? order(p, q) : order(q, p) }
        // Of one size, the digits decide: an inexact one's dropped digits could.
        guard isExact, other.isExact, let (x, y, _) = Self.aligned(self, other) else { return nil }
        return order(x, y)
    }

    /// Whether `self` is a whole number of `step`s (Python's `self % step == 0`); nil when
    /// that cannot be told here.
    func isMultiple(of step: RangeNumber) -> Bool? {
        guard !step.isZero else { return false }
        guard isExact, step.isExact, let (x, y, _) = Self.aligned(self, step) else { return nil }
        let (r, overflow) = x.remainderReportingOverflow(dividingBy: y)
        return overflow ? true : r == 0
    }
}
