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
        let width = (end - start).magnitude
        if step > width {
            return refuse("for the 'range' question type, the parameter 'step' must not be larger than the range (the difference between 'start' and 'end')")
        }
        if let tick = numbers["tick_interval"] {
            if tick.isZero { return refuse("for the 'range' question type, the parameter 'tick_interval' must not be '0' (zero)") }
            if tick > width {
                return refuse("for the 'range' question type, the parameter 'tick_interval' must not be larger than the range (the difference between 'start' and 'end')")
            }
            if !tick.isMultiple(of: step) { return refuse("for the 'range' question type, the parameter 'tick_interval' must be a multiple of 'step'") }
        }
        let low = min(start, end), high = max(start, end)
        if let placeholder = numbers["placeholder"] {
            if !(placeholder - start).isMultiple(of: step) {
                return refuse("for the 'range' question type, the parameter 'placeholder' must be a multiple of 'step'")
            }
            if placeholder < low || placeholder > high {
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
            if value < low || value > high {
                return refuse("for the 'range' question type, the parameter 'tick_labelset' choices must be between the 'start' and 'end' values, inclusive")
            }
            if let tick = numbers["tick_interval"], !(value - start).isMultiple(of: tick) {
                return refuse("for the 'range' question type, the parameter 'tick_labelset' choices' values must be equal to the start of the range plus a multiple of 'tick_interval'")
            } else if !(value - start).isMultiple(of: step) {
                return refuse("for the 'range' question type, the parameter 'tick_labelset' choices' values must be equal to the start of the range plus a multiple of 'step'")
            }
            if noTicks, !labels.contains(value) { labels.append(value) }
        }
        guard noTicks else { return }
        if labels.count > 2 {
            return refuse("for the 'range' question type, the parameter 'tick_labelset' choice list must have only 2 items when the 'appearance' is 'no-ticks'")
        }
        if Set(labels) != Set([start, end]) {
            return refuse("for the 'range' question type, the parameter 'tick_labelset' choice list values may only match the range 'start' and 'end' values when the 'appearance' is 'no-ticks'")
        }
    }
}

/// A decimal number as Python's `Decimal` reads one (`-1.25`, `2e3`), exactly: a whole
/// mantissa and a power of ten. Kept small: a range's parameters have a few digits; one
/// too long for 64 bits (or infinite, or NaN) is no number here, as pyxform refuses those.
struct RangeNumber: Hashable, Comparable {
    /// Normalized: no trailing zero in the mantissa (so equal values are equal structs).
    private(set) var mantissa: Int
    private(set) var exponent: Int

    init(mantissa: Int, exponent: Int) {
        var m = mantissa, e = exponent
        while m != 0, m % 10 == 0 { m /= 10; e += 1 }
        if m == 0 { e = 0 }
        self.mantissa = m
        self.exponent = e
    }

    init?(_ text: String) {
        var t = Substring(text.trimmingWhitespace())
        var negative = false
        if let sign = t.first, sign == "+" || sign == "-" { negative = sign == "-"; t = t.dropFirst() }
        var exponent = 0
        if let e = t.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let power = Int(t[t.index(after: e)...]), abs(power) < 100 else { return nil }
            exponent = power
            t = t[..<e]
        }
        let parts = t.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !(parts.allSatisfy(\.isEmpty)) else { return nil }
        let digits = parts.joined()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 18 else { return nil }
        exponent -= parts.count == 2 ? parts[1].count : 0
        guard let m = Int(digits) else { return nil }
        self.init(mantissa: negative ? -m : m, exponent: exponent)
    }

    var isZero: Bool { mantissa == 0 }
    var double: Double { Double(mantissa) * pow10(exponent) }
    var magnitude: RangeNumber { RangeNumber(mantissa: abs(mantissa), exponent: exponent) }

    private func pow10(_ e: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(e) { result *= 10 }
        return e < 0 ? 1 / result : result
    }

    /// Both mantissas at the smaller exponent; nil when that overflows.
    private static func aligned(_ a: RangeNumber, _ b: RangeNumber) -> (Int, Int, Int)? {
        let e = min(a.exponent, b.exponent)
        func scaled(_ x: RangeNumber) -> Int? {
            var m = x.mantissa
            for _ in 0..<(x.exponent - e) {
                let (r, overflow) = m.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                m = r
            }
            return m
        }
        guard let x = scaled(a), let y = scaled(b) else { return nil }
        return (x, y, e)
    }

    static func - (a: RangeNumber, b: RangeNumber) -> RangeNumber {
        guard let (x, y, e) = aligned(a, b) else { return RangeNumber(mantissa: 0, exponent: 0) }
        return RangeNumber(mantissa: x - y, exponent: e)
    }

    static func < (a: RangeNumber, b: RangeNumber) -> Bool {
        guard let (x, y, _) = aligned(a, b) else { return a.double < b.double }
        return x < y
    }

    /// Whether `self` is a whole number of `step`s (Python's `self % step == 0`).
    func isMultiple(of step: RangeNumber) -> Bool {
        guard !step.isZero else { return false }
        guard let (x, y, _) = Self.aligned(self, step) else { return false }
        return x % y == 0
    }
}
