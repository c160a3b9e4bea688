import FoundationEssentials
import SurveyValues

/// ODK's boolean functions (xforms-spec, "Boolean Functions"): choices between values,
/// truth, and the tests a constraint makes (`regex`, `checklist`).
extension FormFunction {
    static let logic: [FormFunction] = [
        // Only the branch taken is evaluated.
        FormFunction(name: "if", arity: 3...3) { call in call.boolean(0) ? call.value(1) : call.value(2) },
        // The first that is not empty (nor NaN, which JavaRosa counts as empty).
        FormFunction(name: "coalesce", arity: 2...2) { call in
            let first = call.value(0)
            return isEmpty(first) ? call.value(1) : first
        },
        // The question's own value when it has one, else the argument: `once(random())` and
        // `once(uuid())` are drawn once and kept through every later change.
        FormFunction(name: "once", arity: 1...1) { call in
            isEmpty(call.context.current) ? call.value(0) : call.context.current
        },
        FormFunction(name: "true", arity: 0...0) { _ in .boolean(true) },
        FormFunction(name: "false", arity: 0...0) { _ in .boolean(false) },
        FormFunction(name: "boolean", arity: 1...1) { .boolean($0.boolean(0)) },
        FormFunction(name: "not", arity: 1...1) { .boolean(!$0.boolean(0)) },
        // "true" (any case) or "1"; anything else is false (spec: unlike XForms 1.0, which errs).
        FormFunction(name: "boolean-from-string", arity: 1...1) { call in
            let text = call.string(0)
            return .boolean(text.lowercased() == "true" || text == "1")
        },
        // Whether the text matches the pattern anywhere in it (anchor with ^ and $ for the
        // whole answer), in time bounded by the two lengths (`FormRegex`). A constant pattern
        // is checked when the form is read: one that is no regular expression is an error;
        // one survey does not run (a backreference, a count over 1,000) leaves the rule
        // unread, with a warning, like text that is not XPath. A pattern computed from the
        // answers that cannot be run matches, so the constraint it is in takes the answer,
        // as a constraint that cannot be read does (DECISIONS.md).
        FormFunction(name: "regex", arity: 2...2, check: constant(1, { pattern in
            guard case .failure(let error) = FormRegex.cached(pattern) else { return }
            switch error.kind {
            case .invalid:
                throw FormExpressionError("“\(pattern)” is not a valid regular expression: \(error.message)")
            case .unsupported:
                throw FormExpressionError.malformed("“\(pattern)” is a regular expression survey does not run: \(error.message)")
            }
        })) { call in
            switch FormRegex.cached(call.string(1)) {
            case .success(let pattern): return .boolean(pattern.matches(in: call.string(0)))
            case .failure: return .boolean(true)
            }
        },
        // How many of the answers are true, between min and max inclusive; -1 leaves a bound
        // open. Truth as JavaRosa's boolean(): any non-empty text counts.
        FormFunction(name: "checklist", arity: 2...unbounded) { call in
            let low = call.number(0), high = call.number(1)
            let count = Double(call.allNodes(from: 2).filter(\.boolean).count)
            return .boolean((low < 0 || count >= low) && (high < 0 || count <= high))
        },
        // Like checklist, each answer paired with its weight; the weights of the true ones are
        // summed and must lie between min and max (here -1 is a bound like any other).
        FormFunction(name: "weighted-checklist", arity: 2...unbounded,
                     countRule: ({ $0 % 2 == 0 }, "an even number of arguments (min, max, then answer and weight pairs)")) { call in
            let low = call.number(0), high = call.number(1)
            var flags: [FormValue] = [], weights: [FormValue] = []
            if call.count == 4 {
                flags = call.nodes(2)
                weights = call.nodes(3)
            } else {
                for i in stride(from: 2, to: call.count, by: 2) {
                    flags.append(call.value(i))
                    weights.append(call.value(i + 1))
                }
            }
            var sum = 0.0
            for (flag, weight) in zip(flags, weights) where flag.boolean { sum += weight.number }
            return .boolean(sum >= low && sum <= high)
        },
    ]

    /// Empty as JavaRosa's `isNull`: the empty string, or not a number.
    static func isEmpty(_ value: FormValue) -> Bool {
        switch value {
        case .string(let s): return s.isEmpty
        case .number(let n): return n.isNaN
        case .boolean: return false
        }
    }
}
