import FoundationEssentials

/// A default the question's own type refuses (`abc` for an integer, a choice its list does
/// not have) would be offered on every New form and fail every `add` on a value nobody
/// typed. pyxform and ODK Validate pass it (Collect then shows the question empty); survey
/// refuses it where the designer can fix it, with the words an interviewer would get.
extension XLSFormReader {
    mutating func checkDefaults(_ form: XLSForm) {
        let questionnaire = Questionnaire(form: form)
        for (question, field) in zip(form.questions, questionnaire.fields) where field.kind.isAnswered {
            guard let text = question.defaultValue, question.dynamicDefault == nil else { continue }
            if case .choice(let list, _, _) = field.kind, form.choices[list] == nil { continue }   // already an error
            if case .failure(let error) = field.parse(text) {
                errors.append(XLSFormProblem(sheet: "survey", row: question.row, column: "default",
                                             message: "the default “\(text)” is not an answer this question takes: \(error)"))
            }
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
        guard let text = defaultValue else { return nil }
        let dated = kind == .date || kind == .dateTime
        let arithmetic = ["+", "*", "|", " mod ", " div "] + (dated ? [] : [" - "])
        guard text.contains("(") || text.contains("${") || arithmetic.contains(where: text.contains) else { return nil }
        return try? FormExpression(parsing: text)
    }
}
