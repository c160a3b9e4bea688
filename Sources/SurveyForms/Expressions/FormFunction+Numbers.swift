import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues

/// ODK's number functions (xforms-spec, "Number Functions"), with XPath 1.0's `floor` and
/// `ceiling` that forms use too. NaN goes through every one of them: an empty answer gives an
/// empty calculation, never 0.
extension FormFunction {
    static let numbers: [FormFunction] = [
        FormFunction(name: "number", arity: 1...1) { .number($0.number(0)) },
        // Drops the fraction (toward zero), as JavaRosa's int().
        FormFunction(name: "int", arity: 1...1) { call in
            let n = call.number(0)
            return .number(n.isNaN || n.isInfinite ? n : n.rounded(.towardZero))
        },
        FormFunction(name: "round", arity: 1...2) { call in
            let digits = call.count > 1 ? call.number(1) : 0
            return .number(javaRosaRound(call.number(0), digits: digits.isNaN ? 0 : Int(max(-100, min(100, digits)).rounded(.towardZero))))
        },
        FormFunction(name: "floor", arity: 1...1) { .number($0.number(0).rounded(.down)) },
        FormFunction(name: "ceiling", arity: 1...1) { .number($0.number(0).rounded(.up)) },
        FormFunction(name: "abs", arity: 1...1) { .number(Swift.abs($0.number(0))) },
        FormFunction(name: "pow", arity: 2...2) { .number(pow($0.number(0), $0.number(1))) },
        FormFunction(name: "log", arity: 1...1) { .number(log($0.number(0))) },
        FormFunction(name: "log10", arity: 1...1) { .number(log10($0.number(0))) },
        FormFunction(name: "exp", arity: 1...1) { .number(exp($0.number(0))) },
        FormFunction(name: "exp10", arity: 1...1) { .number(pow(10, $0.number(0))) },
        FormFunction(name: "sqrt", arity: 1...1) { .number(sqrt($0.number(0))) },
        FormFunction(name: "sin", arity: 1...1) { .number(sin($0.number(0))) },
        FormFunction(name: "cos", arity: 1...1) { .number(cos($0.number(0))) },
        FormFunction(name: "tan", arity: 1...1) { .number(tan($0.number(0))) },
        FormFunction(name: "asin", arity: 1...1) { .number(asin($0.number(0))) },
        FormFunction(name: "acos", arity: 1...1) { .number(acos($0.number(0))) },
        FormFunction(name: "atan", arity: 1...1) { .number(atan($0.number(0))) },
        FormFunction(name: "atan2", arity: 2...2) { .number(atan2($0.number(0), $0.number(1))) },
        FormFunction(name: "pi", arity: 0...0) { _ in .number(Double.pi) },
        // From the context's source, so a test can pin it; `once(random())` keeps the first.
        FormFunction(name: "random", arity: 0...0) { .number($0.context.random()) },
    ]

    /// JavaRosa's `round(x, digits)`: halves go up, toward +infinity (`round(2.5)` is 3,
    /// `round(-2.5)` is -2), and the rounding is done on the number as it prints, so
    /// `round(1.005, 2)` is 1.01 as a designer expects rather than 1.0 as binary arithmetic
    /// has it. More than 30 digits either way is NaN, as there. Negative digits round to tens,
    /// hundreds (`round(1234, -2)` is 1200).
    static func javaRosaRound(_ x: Double, digits: Int) -> Double {
        guard !x.isNaN, !x.isInfinite else { return x }
        guard (-30...30).contains(digits), var value = Decimal(string: "\(x)") else { return .nan }
        let scale = Self.powerOfTen(Swift.abs(digits))
        if digits >= 0 { value *= scale } else { value /= scale }
        let half = value + Decimal(sign: .plus, exponent: -1, significand: 5)
        var floored = Self.floor(half)
        if digits >= 0 { floored /= scale } else { floored *= scale }
        // Through its text: Decimal's own conversion to Double can land one ulp off (3.14 as
        // 3.1399999999999997).
        return Double(floored.description) ?? .nan
    }

    /// 10ⁿ exactly, as a Decimal.
    static func powerOfTen(_ n: Int) -> Decimal {
        var result = Decimal(1)
        for _ in 0..<n { result *= 10 }
        return result
    }

    /// The greatest whole number not above `d`, read off its decimal text (FoundationEssentials
    /// has no `NSDecimalRound`).
    static func floor(_ d: Decimal) -> Decimal {
        let text = d.description
        guard let dot = text.firstIndex(of: ".") else { return d }
        let whole = Decimal(string: String(text[..<dot])) ?? d
        let fraction = text[text.index(after: dot)...].contains { $0 != "0" }
        return d < 0 && fraction ? whole - 1 : whole
    }
}
