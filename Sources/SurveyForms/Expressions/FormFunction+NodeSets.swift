import FoundationEssentials
import SurveyValues

/// ODK's node-set and repeat functions (xforms-spec, "Node-set Functions" and "Repeat
/// Functions"): `${name}` as an argument is every value of that question, one per instance
/// of its repeat, from `FormContext.nodeSet`. In a form without repeats each question is one
/// node, so `count(${x})` is 1 and `sum(${x})` is its answer.
extension FormFunction {
    static let nodeSets: [FormFunction] = [
        FormFunction(name: "count", arity: 1...1, check: references(at: [0])) { .number(Double($0.nodes(0).count)) },
        FormFunction(name: "count-non-empty", arity: 1...1, check: references(at: [0])) { call in
            .number(Double(call.nodes(0).filter { !$0.string.isEmpty }.count))
        },
        // Values that are not numbers (an empty answer) are left out, as JavaRosa sums.
        FormFunction(name: "sum", arity: 1...1, check: references(at: [0])) { call in
            .number(call.nodes(0).map(\.number).filter { !$0.isNaN }.reduce(0, +))
        },
        // Over one node-set or a list of values (XPath 3.0); NaN when no value is a number.
        FormFunction(name: "max", arity: 1...unbounded) { call in
            .number(call.allNodes().map(\.number).filter { !$0.isNaN }.max() ?? .nan)
        },
        FormFunction(name: "min", arity: 1...unbounded) { call in
            .number(call.allNodes().map(\.number).filter { !$0.isNaN }.min() ?? .nan)
        },
        // `position(..)`: which instance of its repeat the question is in (1-based);
        // `position(../..)` the enclosing repeat's. Outside a repeat, and without an argument
        // (the question itself among its siblings), 1.
        FormFunction(name: "position", arity: 0...1, check: { arguments in
            guard let argument = arguments.first else { return }
            switch argument {
            case .parent, .current: return
            case .field(let path) where path.hasPrefix("."): return   // `current()/..`, resolved by the reader
            default: throw FormExpressionError("the argument must be a path up to a repeat, such as ..")
            }
        }) { call in
            guard call.count == 1, case .parent(let levels) = call.arguments[0] else { return .number(1) }
            let positions = call.context.repeatPositions
            let i = positions.count - levels
            return .number(Double(positions.indices.contains(i) ? positions[i] : 1))
        },
        // `indexed-repeat(${name}, ${repeat}, i [, ${inner}, j [, ${innermost}, k]])`: the
        // value of a question in a chosen instance, up to three repeats deep. An index below
        // 1 is 1, as JavaRosa makes it.
        FormFunction(name: "indexed-repeat", arity: 3...7,
                     countRule: ({ $0 % 2 == 1 }, "a question then pairs of repeat and index (3, 5 or 7 arguments)"),
                     check: { arguments in try references(at: Array(stride(from: 1, to: arguments.count, by: 2)) + [0])(arguments) }) { call in
            guard case .field(let name) = call.arguments[0] else { return .string("") }
            var path: [(repeat: String, index: Int)] = []
            for i in stride(from: 1, to: call.count - 1, by: 2) {
                guard case .field(let group) = call.arguments[i] else { return .string("") }
                let n = call.number(i + 1)
                path.append((group, n.isNaN || n < 1 ? 1 : Int(min(n, 1e9))))
            }
            return call.context.indexedRepeat(name, path)
        },
    ]
}
