import SurveyModel

/// The questionnaire as rows for the form's layout, for the record on the form: what
/// `relevant` hides drops out, required questions are marked `*`, and a question gets a
/// second line for its hint or for what is wrong with its stored answer.
enum FormRows {
    static func of(_ state: AppState) -> [FormRow] {
        let questionnaire = state.questionnaire
        guard questionnaire.form != nil else {
            return questionnaire.fields.map { .field(label: $0.label, extraLine: false) }
        }
        let relevance = state.formRelevance
        let problems = state.storedAnswerProblems
        return questionnaire.fields.enumerated().map { i, field in
            guard relevance[i] else { return .hidden }
            switch field.kind {
            case .metadata, .groupEnd: return .hidden
            case .groupStart: return .heading(field.label)
            case .note: return .note(field.label)
            default:
                return .field(label: label(of: field), extraLine: !field.hint.isEmpty || problems[i] != nil)
            }
        }
    }

    static func label(of field: FieldSpec) -> String {
        field.isRequired ? field.label + " *" : field.label
    }
}

extension AppState {
    /// What is wrong with each stored answer of the shown record under the current form (a
    /// record keyed with an older version, or edited by another program): shown under the
    /// question, never rewritten until the answer is edited.
    var storedAnswerProblems: [Int: String] {
        guard questionnaire.form != nil, case .record = shown else { return [:] }
        let record = formRecord
        return caches.ruleCache.problems(questionnaire, record, ruleClock) {
            var result: [Int: String] = [:]
            for problem in questionnaire.problems(in: record, clock: ruleClock) {
                // An empty required answer of a stored record is not news on every question.
                if record[questionnaire.fields[problem.index].key] != nil { result[problem.index] = problem.message }
            }
            return result
        }
    }
}
