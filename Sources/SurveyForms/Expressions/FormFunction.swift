import FoundationEssentials
import SurveyValues

/// One of ODK's XPath functions, declared once: its name (and the other spellings forms use),
/// how many arguments it takes, how it evaluates, and what can be checked of its constant
/// arguments when the form is read. The parser, `form check` (which reports what the parser
/// throws, with sheet, row and column) and the evaluator all read this one declaration, so
/// they cannot disagree about a function.
///
/// The declarations live by topic in `FormFunction+Strings.swift`, `+Numbers`, `+Logic`,
/// `+Dates`, `+Selections`, `+NodeSets`, `+Geography` and `+Encoding`; `library` gathers
/// them. The list follows ODK's XForms spec (getodk.github.io/xforms-spec, "XPath
/// Functions") and JavaRosa where the spec is silent.
struct FormFunction: Sendable {
    let name: String
    /// Other names the same function is called by (`is-selected`, `enclosed-area`).
    var aliases: [String] = []
    let arity: ClosedRange<Int>
    /// A rule on the count beyond the range, in the words of the arity error
    /// (`weighted-checklist` takes pairs).
    var countRule: (@Sendable (Int) -> Bool, String)? = nil
    /// Argument positions whose quoted text names a question (`jr:choice-name(${c}, '${c}')`):
    /// listed among the expression's references, so an unknown name is an error at load.
    var quotedQuestions: [Int] = []
    /// A load-time check of the arguments as written (an invalid constant regex, a date
    /// format with an unknown `%` letter); throws `FormExpressionError` saying what is wrong.
    var check: (@Sendable ([FormExpression]) throws -> Void)? = nil
    let evaluate: @Sendable (FormCall) -> FormValue

    static let unbounded = Int.max

    /// Every function, by each of its names.
    static let library: [String: FormFunction] = {
        var table: [String: FormFunction] = [:]
        for function in strings + numbers + logic + dates + selections + nodeSets + geography + encoding + instances {
            for name in [function.name] + function.aliases {
                precondition(table[name] == nil, "\(name)() is declared twice")
                table[name] = function
            }
        }
        return table
    }()

    /// The parser's check of a call: a known name, an argument count it takes, and its
    /// constant arguments.
    static func check(_ name: String, _ arguments: [FormExpression]) throws {
        guard let function = library[name] else { throw FormExpressionError("unknown function \(name)()") }
        let count = arguments.count
        let range = function.arity
        if !range.contains(count) {
            let wanted: String
            if range.upperBound == unbounded { wanted = "at least \(range.lowerBound)" }
            else if range.lowerBound == range.upperBound { wanted = "\(range.lowerBound)" }
            else if range.count == 2 { wanted = "\(range.lowerBound) or \(range.upperBound)" }
            else { wanted = "\(range.lowerBound) to \(range.upperBound)" }
            let plural = range.lowerBound == 1 && (range.upperBound == 1 || range.upperBound == unbounded) ? "" : "s"
            throw FormExpressionError("\(name)() takes \(wanted) argument\(plural), not \(count)")
        }
        if let (rule, words) = function.countRule, !rule(count) {
            throw FormExpressionError("\(name)() takes \(words), not \(count)")
        }
        for i in function.quotedQuestions where i < count {
            if case .string(let text) = arguments[i], FormCall.questionName(in: text) == nil {
                throw FormExpressionError("\(name)(): “\(text)” does not name a question (write '${name}')")
            }
        }
        do { try function.check?(arguments) } catch let error as FormExpressionError {
            throw FormExpressionError("\(name)(): \(error.message)", malformed: error.malformed)
        }
    }

    /// Evaluates a call the parser accepted; a name it could not have accepted is empty.
    static func call(_ name: String, _ arguments: [FormExpression], in context: FormContext) -> FormValue {
        guard let function = library[name] else { return .string("") }
        return function.evaluate(FormCall(arguments: arguments, context: context))
    }
}

/// A call being evaluated: its arguments as written (node-set and repeat functions read
/// `${name}` itself, not its value) and the context, with XPath's conversions at hand.
struct FormCall {
    let arguments: [FormExpression]
    package let context: FormContext

    var count: Int { arguments.count }
    package func value(_ i: Int) -> FormValue { arguments[i].evaluate(in: context) }
    func string(_ i: Int) -> String { value(i).string }
    func number(_ i: Int) -> Double { value(i).number }
    func boolean(_ i: Int) -> Bool { value(i).boolean }

    /// Argument `i` as a node-set: every value of `${name}` (one per repeat instance), or
    /// the one value of any other expression.
    func nodes(_ i: Int) -> [FormValue] {
        if case .field(let name) = arguments[i] { return context.nodeSet(name) }
        return [value(i)]
    }

    /// The arguments from `start` on, each a node-set, flattened in order.
    func allNodes(from start: Int = 0) -> [FormValue] {
        guard start < count else { return [] }
        return (start..<count).flatMap(nodes)
    }

    /// The question a quoted reference names: `${name}`, or an XPath such as `/data/name`
    /// (the last step), or a bare name.
    static func questionName(in text: String) -> String? {
        var t = text.trimmingWhitespace()
        if t.hasPrefix("${"), t.hasSuffix("}") { t = String(t.dropFirst(2).dropLast()).trimmingWhitespace() }
        else if t.contains("/") { t = String(t.split(separator: "/").last ?? "") }
        guard let first = t.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
              t.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) })
        else { return nil }
        return t
    }
}

extension FormFunction {
    /// A check that argument `i`, when written as a constant string, passes `test`.
    static func constant(_ i: Int, _ test: @escaping @Sendable (String) throws -> Void) -> @Sendable ([FormExpression]) throws -> Void {
        { arguments in
            guard i < arguments.count, case .string(let text) = arguments[i] else { return }
            try test(text)
        }
    }

    /// A check that the arguments at `positions` are `${name}` references (node-sets), as
    /// JavaRosa requires of `count()` and `indexed-repeat()`.
    static func references(at positions: [Int]) -> @Sendable ([FormExpression]) throws -> Void {
        { arguments in
            for i in positions where i < arguments.count {
                guard case .field = arguments[i] else {
                    throw FormExpressionError("argument \(i + 1) must be a question, written ${name}")
                }
            }
        }
    }
}
