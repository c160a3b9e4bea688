import SurveyValues
/// Whether a survey, or one member of a roster, holds anything a keyer answered. One rule for
/// every place that asks (issue 27): the New form is worth a draft, [ Add ] has something to
/// add, and a member added by hand is worth storing exactly when some question holds an
/// answer, roster members' included at any depth. Calculations, metadata and notes do not
/// count: the form fills them in by itself.
extension Questionnaire {
    /// True when a question of this scope (a survey's top level, or one instance when this
    /// is `scopeQuestionnaire(steps)`) shows something other than blanks, or any member of one
    /// of its repeats does. Blanks count as nothing, as `FieldSpec.parse` trims them.
    public func holdsAnswers(_ values: [String: PropertyValue]) -> Bool {
        holdsAnswers { values[$0] }
    }

    /// `holdsAnswers` of a whole survey, reading only the answers it asks about.
    public func holdsAnswers(_ record: Record) -> Bool {
        holdsAnswers { record[$0] }
    }

    private func holdsAnswers(_ answer: (String) -> PropertyValue?) -> Bool {
        for field in fields where field.holdsAnswer(answer(field.key)) { return true }
        guard form != nil || outline != nil else { return false }
        for (i, field) in fields.enumerated() {
            guard let node = repeatAtRow(FieldIndex(i)), case .array(let items)? = answer(field.key) else { continue }
            let inner = instanceQuestionnaire(for: node)
            for case .dictionary(let member) in items where inner.holdsAnswers(member) { return true }
        }
        return false
    }

    /// True when the instance `steps` lead to exists and holds an answer (`holdsAnswers`).
    public func memberHoldsAnswers(_ record: Record, at steps: [AnswerPath.Step]) -> Bool {
        guard let last = steps.last else { return holdsAnswers(record.values) }
        let members = record.instances(of: last.name, in: Array(steps.dropLast()))
        guard members.indices.contains(last.index) else { return false }
        return scopeQuestionnaire(steps).holdsAnswers(members[last.index])
    }
}

extension FieldSpec {
    /// Whether `value` is an answer a person gave to this question: the question is one the
    /// keyer answers, and the value shows more than blanks (as `parse` trims them). The one
    /// rule behind "holds an answer", "nothing a person gave is lost" and `Record.isBlank`.
    public func holdsAnswer(_ value: PropertyValue?) -> Bool {
        kind.isAnswered && !displayText(value).trimmingWhitespaceAndNewlines().isEmpty
    }
}
