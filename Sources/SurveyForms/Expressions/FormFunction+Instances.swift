import FoundationEssentials
import SurveyValues

/// Reading a secondary instance: a choice list of the form, or a list file beside it
/// (`FormMedia`). `pulldata('fruits', 'price', 'name', ${fruit})` is ODK's shorthand for
/// `instance('fruits')/root/item[name = ${fruit}]/price`; both give the first matching item's
/// column, or the empty string when no item matches (as JavaRosa does).
extension FormFunction {
    static let instances: [FormFunction] = [
        // The parser makes this call from a path (`FormExpressionParser.parseInstancePath`):
        // the list, the column, then each predicate.
        FormFunction(name: "instance", arity: 2...unbounded) { call in
            guard case .string(let list) = call.arguments[0], case .string(let column) = call.arguments[1],
                  let rows = call.context.instance(list) else { return .string("") }
            var matches = Array(rows.indices)
            for predicate in call.arguments.dropFirst(2) {
                var kept: [Int] = []
                for (place, i) in matches.enumerated() {
                    var context = call.context
                    var columns = rows[i]
                    columns[FormExpressionParser.positionColumn] = String(place + 1)
                    context.choiceColumns = columns
                    let verdict = predicate.evaluate(in: context)
                    // A number is a position (`[2]`, `[number(${n})]`), anything else a condition.
                    let holds: Bool
                    if case .number(let n) = verdict { holds = n == Double(place + 1) } else { holds = verdict.boolean }
                    if holds { kept.append(i) }
                }
                matches = kept
            }
            guard let first = matches.first, !column.isEmpty else { return .string("") }
            return .string(rows[first][column] ?? "")
        },
        FormFunction(name: "pulldata", arity: 4...4) { call in
            let list = call.string(0).trimmingWhitespace()
            let column = call.string(1), key = call.string(2), wanted = call.string(3)
            guard let rows = call.context.instance(list) else { return .string("") }
            return .string(rows.first { $0[key] == wanted }?[column] ?? "")
        },
    ]
}
