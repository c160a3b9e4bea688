import FoundationEssentials
import SurveyValues

/// A default the question's own type refuses (`abc` for an integer, a choice its list does
/// not have) is dropped: the question starts empty, as ODK Collect shows it, and the designer
/// is warned with the words an interviewer would get. Offered, it would fail every `add` on a
/// value nobody typed; refusing the form would refuse what pyxform and ODK pass.
extension XLSFormReader {
    /// Warns of each literal default its question refuses; returns their rows.
    mutating func checkDefaults(_ form: XLSForm) -> Set<Int> {
        let questionnaire = Questionnaire(form: form)
        var refused: Set<Int> = []
        for (question, field) in zip(form.questions, questionnaire.fields) where field.kind.isAnswered {
            guard let text = question.defaultValue, question.dynamicDefault == nil else { continue }
            if case .choice(let list, _, _) = field.kind, form.choices[list] == nil { continue }   // already an error
            if case .failure(let error) = field.parse(text) {
                warnings.append(XLSFormProblem(sheet: "survey", row: question.row, column: "default",
                                               message: "the default “\(text)” is not an answer this question takes: \(error); the question starts empty"))
                refused.insert(question.row)
            }
        }
        return refused
    }

    /// The rows' questions without their default, in every repeat.
    static func dropDefaults(at rows: Set<Int>, in questions: inout [XLSForm.Question]) {
        for i in questions.indices {
            if rows.contains(questions[i].row), questions[i].dynamicDefault == nil { questions[i].defaultValue = nil }
            dropDefaults(at: rows, in: &questions[i].children)
        }
    }
}

extension XLSForm.Question {
    /// The default as an expression to compute when it calls a function, reads an answer or
    /// does arithmetic (`today()`, `${village}`, `1 + 1`), as pyxform makes those dynamic; nil
    /// for a literal default, which is its text (`2026-01-15` is never subtraction, and for a
    /// date pyxform does not count a `-` as arithmetic at all).
    var dynamicDefault: FormExpression? {
        if let resolvedDefault { return resolvedDefault }
        guard let text = defaultValue, defaultComputes else { return nil }
        return try? FormExpression(parsing: text)
    }

    /// Whether the default is one pyxform makes dynamic (computed), read or not.
    var defaultComputes: Bool {
        guard let text = defaultValue else { return false }
        let dated = kind == .date || kind == .dateTime
        let arithmetic = ["+", "*", "|", " mod ", " div "] + (dated ? [] : [" - "])
        return text.contains("(") || text.contains("${") || arithmetic.contains(where: text.contains)
    }
}
