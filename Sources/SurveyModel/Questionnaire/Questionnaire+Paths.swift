import Foundation

/// The form's rules asked about one scope of a survey: the top level (`steps` empty) or one
/// instance of a repeat (`[member[1]]`, `[plot[0], tree[2]]`). The form screen walks a survey
/// scope by scope, so each question it shows is judged by the questionnaire of its scope,
/// reading its instance's answers first and the survey's after (`Questionnaire.scope`).
extension Questionnaire {
    /// The questionnaire whose `fields` are the rows of that scope: this one at the top
    /// level, the repeat's own questions inside an instance.
    public func scopeQuestionnaire(_ steps: [AnswerPath.Step]) -> Questionnaire {
        var questionnaire = self
        for step in steps {
            guard let node = questionnaire.tree.first(where: { $0.kind == .repeat && $0.name == step.name })
                    ?? questionnaire.tree.flatMap(\.descendants).first(where: { $0.kind == .repeat && $0.name == step.name })
            else { return Questionnaire(fields: []) }
            questionnaire = questionnaire.instanceQuestionnaire(for: node)
        }
        return questionnaire
    }

    /// The answers a scope's rules read: the instance's own, over those around it.
    public static func scoped(_ record: Record, _ steps: [AnswerPath.Step]) -> Record {
        scope(record, steps)
    }

    /// Whether each field of the scope shows: its own `relevant` and its groups', inside an
    /// instance the instance's answers first.
    public func relevance(at steps: [AnswerPath.Step], in record: Record, clock: Clock = Clock()) -> [Bool] {
        scopeQuestionnaire(steps).relevance(in: Self.scope(record, steps), clock: clock)
    }

    /// What is wrong with `value` as the answer of field `fieldIndex` of the scope, or nil.
    public func ruleProblem(_ fieldIndex: Int, at steps: [AnswerPath.Step], value: PropertyValue?, in record: Record,
                            clock: Clock = Clock()) -> String? {
        scopeQuestionnaire(steps).ruleProblem(fieldIndex, value: value, in: Self.scope(record, steps), clock: clock)
    }

    /// The choices offered for field `fieldIndex` of the scope now.
    public func choices(for fieldIndex: Int, at steps: [AnswerPath.Step], in record: Record,
                        clock: Clock = Clock()) -> [XLSForm.Choice] {
        scopeQuestionnaire(steps).choices(for: fieldIndex, in: Self.scope(record, steps), clock: clock)
    }

    /// The default a New form offers for field `fieldIndex` of the scope.
    public func defaultText(_ fieldIndex: Int, at steps: [AnswerPath.Step], in record: Record,
                            clock: Clock = Clock()) -> String? {
        scopeQuestionnaire(steps).defaultText(fieldIndex, in: Self.scope(record, steps), clock: clock)
    }

    /// The survey settled after a change at `path`: the top level's rules as `settled` applies
    /// them, and inside the instance changed, that instance's own calculations and hidden
    /// answers by its questionnaire.
    public func settled(_ record: Record, changedAt path: AnswerPath?, before: Record,
                        hidden: inout [String: PropertyValue], clock: Clock = Clock()) -> Record {
        var result = record
        if let path, !path.steps.isEmpty {
            let inner = scopeQuestionnaire(path.steps)
            let scopeNow = Self.scope(record, path.steps)
            let scopeBefore = Self.scope(before, path.steps)
            var innerHidden: [String: PropertyValue] = [:]
            let settledScope = inner.settled(scopeNow, before: scopeBefore, hidden: &innerHidden, clock: clock)
            for field in inner.fields where !field.key.isEmpty {
                let key = field.key
                guard settledScope[key] != scopeNow[key] else { continue }
                _ = result.setValue(settledScope[key], at: AnswerPath(path.steps, key))
            }
            for (key, value) in innerHidden { hidden[AnswerPath(path.steps, key).description] = value }
        }
        return settled(result, before: before, hidden: &hidden, clock: clock)
    }
}
