import Foundation

/// A value during evaluation, with XPath 1.0's conversions: an empty answer is the empty
/// string, which is false and not a number (so `${age} > 18` is false while age is empty).
public enum FormValue: Equatable, Sendable {
    case number(Double)
    case string(String)
    case boolean(Bool)

    public var number: Double {
        switch self {
        case .number(let n): return n
        case .boolean(let b): return b ? 1 : 0
        case .string(let s):
            let t = s.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { return .nan }
            // A date (`YYYY-MM-DD`) or date-time as ODK stores them counts in days since
            // 1970-01-01, as JavaRosa converts dates to numbers, so `. <= today()` and
            // `today() - ${born}` mean what a designer wrote.
            return Double(t) ?? LocalDay.days(t) ?? .nan
        }
    }

    public var string: String {
        switch self {
        case .string(let s): return s
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n):
            if n.isNaN { return "NaN" }
            if n.isInfinite { return n > 0 ? "Infinity" : "-Infinity" }
            if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
            return String(n)
        }
    }

    public var boolean: Bool {
        switch self {
        case .boolean(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .string(let s): return !s.isEmpty
        }
    }
}

/// What an expression can see: the answer being checked (`.`), the other answers by name
/// (already as text, as they are stored), and the clock for `today()` and `now()`.
public struct FormContext: Sendable {
    public var current: FormValue
    public var answers: @Sendable (String) -> FormValue
    public var now: Date
    public var timeZone: TimeZone
    /// The choice a `choice_filter` is judging: its `name` and its other columns.
    public var choiceColumns: [String: String] = [:]

    public init(current: FormValue = .string(""), now: Date = Date(), timeZone: TimeZone = .current,
                answers: @escaping @Sendable (String) -> FormValue) {
        self.current = current
        self.answers = answers
        self.now = now
        self.timeZone = timeZone
    }
}

extension FormExpression {
    public func evaluate(in context: FormContext) -> FormValue {
        switch self {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .current: return context.current
        case .field(let name): return context.answers(name)
        case .choiceColumn(let column): return .string(context.choiceColumns[column] ?? "")
        case .negate(let e): return .number(-e.evaluate(in: context).number)
        case .binary(let op, let a, let b): return Self.apply(op, a, b, in: context)
        case .call(let name, let args): return FormFunctions.call(name, args, in: context)
        }
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
            case (.number, _), (_, .number): same = x.number == y.number
            default: same = x.string == y.string
            }
            return .boolean(op == .equal ? same : !same)
        case .less: return .boolean(x.number < y.number)
        case .lessOrEqual: return .boolean(x.number <= y.number)
        case .greater: return .boolean(x.number > y.number)
        case .greaterOrEqual: return .boolean(x.number >= y.number)
        case .plus: return .number(x.number + y.number)
        case .minus: return .number(x.number - y.number)
        case .times: return .number(x.number * y.number)
        case .divide: return .number(x.number / y.number)
        case .modulo: return .number(x.number.truncatingRemainder(dividingBy: y.number))
        case .or, .and: return .boolean(false)   // handled above
        }
    }
}

/// The functions ODK forms use, with how many arguments each takes; anything else is an
/// error when the form is read.
enum FormFunctions {
    static let arities: [String: ClosedRange<Int>] = [
        "selected": 2...2, "count-selected": 1...1, "string-length": 1...1, "regex": 2...2,
        "if": 3...3, "coalesce": 2...2, "concat": 0...Int.max, "int": 1...1, "number": 1...1,
        "round": 1...2, "today": 0...0, "now": 0...0, "not": 1...1, "true": 0...0, "false": 0...0,
        "string": 1...1, "pow": 2...2, "sqrt": 1...1, "exp": 1...1, "log": 1...1, "log10": 1...1,
        "sin": 1...1, "cos": 1...1, "tan": 1...1, "asin": 1...1, "acos": 1...1, "atan": 1...1,
        "atan2": 2...2, "pi": 0...0, "abs": 1...1,
    ]

    static func check(_ name: String, arity: Int) throws {
        guard let range = arities[name] else { throw FormExpressionError("unknown function \(name)()") }
        guard range.contains(arity) else {
            let wanted = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) or \(range.upperBound)"
            throw FormExpressionError("\(name)() takes \(wanted) argument\(range.upperBound == 1 ? "" : "s"), not \(arity)")
        }
    }

    static func call(_ name: String, _ args: [FormExpression], in context: FormContext) -> FormValue {
        func value(_ i: Int) -> FormValue { args[i].evaluate(in: context) }
        func math(_ f: (Double) -> Double) -> FormValue { .number(f(value(0).number)) }
        switch name {
        case "selected":
            let wanted = value(1).string.trimmingCharacters(in: .whitespaces)
            return .boolean(value(0).string.split(separator: " ").contains { $0 == wanted })
        case "count-selected": return .number(Double(value(0).string.split(separator: " ").count))
        case "string-length": return .number(Double(value(0).string.count))
        case "regex":
            guard let pattern = try? NSRegularExpression(pattern: value(1).string) else { return .boolean(false) }
            let text = value(0).string
            return .boolean(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil)
        case "if": return value(0).boolean ? value(1) : value(2)
        case "coalesce":
            let first = value(0)
            return first.string.isEmpty ? value(1) : first
        case "concat": return .string(args.indices.map { value($0).string }.joined())
        case "int":
            let n = value(0).number
            return .number(n.isNaN ? .nan : n.rounded(.towardZero))
        case "number": return .number(value(0).number)
        case "string": return .string(value(0).string)
        case "round":
            let digits = args.count > 1 ? value(1).number : 0
            let scale = pow(10, digits.isNaN ? 0 : digits.rounded(.towardZero))
            return .number((value(0).number * scale).rounded(.toNearestOrAwayFromZero) / scale)
        case "today": return .string(LocalDay.text(context.now, in: context.timeZone))
        case "now": return .string(LocalDay.dateTimeText(context.now, in: context.timeZone))
        case "not": return .boolean(!value(0).boolean)
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "pow": return .number(pow(value(0).number, value(1).number))
        case "sqrt": return math(sqrt)
        case "exp": return math(exp)
        case "log": return math(log)
        case "log10": return math(log10)
        case "sin": return math(sin)
        case "cos": return math(cos)
        case "tan": return math(tan)
        case "asin": return math(asin)
        case "acos": return math(acos)
        case "atan": return math(atan)
        case "atan2": return .number(atan2(value(0).number, value(1).number))
        case "pi": return .number(Double.pi)
        case "abs": return math(abs)
        default: return .string("")
        }
    }
}

/// Dates as ODK stores them: `YYYY-MM-DD`, and ISO 8601 date-times with the offset.
enum LocalDay {
    static func text(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// Days since 1970-01-01 of a date (`2024-03-05`: a whole number, whatever the time
    /// zone) or of an ISO 8601 date-time (its instant, with a fraction); nil for other text.
    static func days(_ text: String) -> Double? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
              utf8.prefix(10).enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) })
        else { return nil }
        if utf8.count == 10 {
            guard FieldSpec.isDate(text) else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return nil }
            return (date.timeIntervalSince1970 / 86_400).rounded()
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 / 86_400 }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text).map { $0.timeIntervalSince1970 / 86_400 }
    }

    static func dateTimeText(_ date: Date, in zone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
