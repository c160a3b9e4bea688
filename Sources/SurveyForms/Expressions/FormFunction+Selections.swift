import FoundationEssentials
import SurveyValues

/// ODK's select functions (xforms-spec, "Select Functions"): a select_multiple answer is its
/// choice names separated by spaces.
extension FormFunction {
    static let selections: [FormFunction] = [
        FormFunction(name: "selected", aliases: ["is-selected"], arity: 2...2) { call in
            let wanted = call.string(1).trimmingWhitespace()
            return .boolean(choices(call.string(0)).contains(wanted))
        },
        FormFunction(name: "count-selected", arity: 1...1) { .number(Double(choices($0.string(0)).count)) },
        // The choice at a 0-based index, or empty past either end (JavaRosa).
        FormFunction(name: "selected-at", arity: 2...2) { call in
            let picked = choices(call.string(0))
            let n = call.number(1)
            guard !n.isNaN, n >= 0, n < Double(picked.count) else { return .string("") }
            return .string(picked[Int(n)])
        },
        // The label of a choice, in the language shown: `jr:choice-name(${crop}, '${crop}')`.
        // The second argument is the question's reference as text (pyxform writes it so), so
        // it is checked at load like any `${name}`.
        FormFunction(name: "jr:choice-name", arity: 2...2, quotedQuestions: [1]) { call in
            let choice = call.string(0)
            let question: String?
            if case .field(let name) = call.arguments[1] { question = name }   // written without quotes
            else { question = FormCall.questionName(in: call.string(1)) }
            guard let question, !choice.isEmpty else { return .string("") }
            return .string(call.context.choiceLabel(question, choice) ?? "")
        },
    ]

    static func choices(_ answer: String) -> [String] {
        answer.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }
}
