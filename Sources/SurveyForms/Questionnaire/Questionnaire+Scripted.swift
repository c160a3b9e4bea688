import SurveyValues
/// A survey given on the command line (`survey add --set NAME=VALUE`): which names may be
/// answered, and the answers the New form would hold before anyone typed.
extension Questionnaire {
    /// The fields a person answers, in form order: what `--set NAME=VALUE` may name.
    public var answerableFields: [FieldSpec] {
        var seen: Set<String> = []
        return fields.filter { $0.kind.isAnswered && !$0.key.isEmpty && seen.insert($0.key).inserted }
    }

    /// Why `key` cannot be answered from the command line, or nil when it can: a question the
    /// form computes, fills in or only shows says what it is (`adults is a calculate row`).
    public func unanswerableReason(_ key: String) -> String? {
        guard let index = fields.firstIndex(where: { $0.key == key }) else {
            return "there is no question named “\(key)”"
        }
        if fields[index].kind.isAnswered { return nil }
        let kind = question(index).map { "\($0.kind)" } ?? "field"
        return "“\(key)” is a \(kind) row, not a question a person answers"
    }

    /// `record` (answers as typed text) with each question that has no answer, is relevant
    /// and has a `default` given that default's text, as the New form starts it; so a
    /// default counts for `required` exactly as it does on the form. The original five have
    /// no defaults.
    public func withDefaultTexts(_ record: Record, clock: Clock) -> Record {
        guard form != nil else { return record }
        var result = record
        let shown = relevance(in: record, clock: clock)
        for (i, field) in fields.enumerated() where field.kind.isAnswered && shown[i] && result[field.key] == nil {
            if let text = defaultText(i, clock: clock), !text.isEmpty { result[field.key] = .string(text) }
        }
        return result
    }
}
