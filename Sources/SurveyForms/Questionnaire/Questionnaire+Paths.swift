import FoundationEssentials
import SurveyValues

/// The form's rules in one instance of a roster, for the form screen: an instance is named by
/// its steps from the top (`[member 1]`, `[plot 0, tree 2]`; empty: the survey's top level,
/// where each call is the flat one). Rules read the whole survey, from that instance
/// (`Questionnaire+Context`): its own answers, those of the instances around it, and any
/// roster as a node-set.
extension Questionnaire {
    /// The questionnaire whose `fields` are the rows of the instances `steps` lead to (a
    /// repeat's rows, groups as heading rows, a nested repeat as its one row); `self` for the
    /// top level, and an empty one when no repeat of the form is there.
    public func scopeQuestionnaire(_ steps: [AnswerPath.Step]) -> Questionnaire {
        guard !steps.isEmpty else { return self }
        guard let outline = outline?.value, let number = outline.scope(at: steps) else { return Questionnaire(fields: []) }
        return scopeQuestionnaire(number: number)
    }

    /// The questionnaire of the outline's scope `number`, sharing the outline.
    func scopeQuestionnaire(number: Int) -> Questionnaire {
        guard let outline = outline?.value, outline.scopes.indices.contains(number) else { return Questionnaire(fields: []) }
        if number == scopeNumber { return self }
        var q = outline.scopeQuestionnaires.questionnaire(number, language: language) {
            let scope = outline.scopes[number]
            var built = Questionnaire(fields: scope.fields, form: scope.form, language: language, outlined: false)
            built.tree = scope.tree
            return built
        }
        q.outline = self.outline
        q.scopeNumber = number
        q.lastSaved = lastSaved
        return q
    }

    /// Whether each field of the instance `steps` lead to shows: its own `relevant` and its
    /// groups', read in that instance, and none when the repeat's own `relevant` (or its
    /// group's, or an enclosing instance's) hides the instance.
    func relevance(at steps: [AnswerPath.Step], in record: Record, clock: Clock) -> [Bool] {
        relevance(at: steps, values: record.values, clock: clock)
    }

    /// `relevance(at:in:)` of answers already read out of the survey (`record.values`): a
    /// screen asking of several members reads them once (each reading decodes every roster).
    func relevance(at steps: [AnswerPath.Step], values: [String: PropertyValue], clock: Clock) -> [Bool] {
        let q = scopeQuestionnaire(steps)
        guard instanceShows(steps, in: values, clock: clock) else { return Array(repeating: false, count: q.fields.count) }
        return q.relevance(of: values, at: steps, clock: clock)
    }

    /// The designer's rule for an answer about to be stored at field `fieldIndex` of the
    /// instance `steps` lead to: `required` when it is empty, `constraint` (`.` the answer,
    /// `${age}` this instance's) when it is not; nil when it passes.
    func ruleProblem(_ fieldIndex: Int, at steps: [AnswerPath.Step], value: PropertyValue?, in record: Record,
                            clock: Clock) -> String? {
        scopeQuestionnaire(steps).ruleProblem(fieldIndex, at: steps, value: value, values: record.values, clock: clock)
    }

    /// The same with the survey's answers already read (`Record.values`): a key on a survey
    /// with rosters need not read them out of its bytes again.
    func ruleProblem(_ fieldIndex: Int, at steps: [AnswerPath.Step], value: PropertyValue?,
                            answers: [String: PropertyValue], clock: Clock) -> String? {
        scopeQuestionnaire(steps).ruleProblem(fieldIndex, at: steps, value: value, values: answers, clock: clock)
    }

    /// Whether field `fieldIndex` of the instance `steps` lead to must be answered now: its
    /// `required`, read there. `required: yes` reads no answers and is known from the form;
    /// `${health_id} = 'dead'` follows the answers, so the form's `*` does too, as ODK
    /// Collect's does.
    func isRequired(_ fieldIndex: Int, at steps: [AnswerPath.Step], in record: Record, clock: Clock) -> Bool {
        isRequired(fieldIndex, at: steps, values: { record.values }, clock: clock)
    }

    /// `isRequired(_:at:in:)` with the survey's answers read out only when the rule reads
    /// them (a screen passes the ones it read once for the frame).
    func isRequired(_ fieldIndex: Int, at steps: [AnswerPath.Step], values answers: () -> [String: PropertyValue],
                           clock: Clock) -> Bool {
        let scope = scopeQuestionnaire(steps)
        guard let required = scope.question(fieldIndex)?.required else { return false }
        guard !required.fieldReferences.isEmpty || required.readsCurrent else { return required.evaluate(in: scope.context([:], current: "", clock: clock)).boolean }
        let values = answers()
        let current = XLSForm.text(of: AnswerTree.value(values, steps[...], scope.fields[fieldIndex].key))
        return required.evaluate(in: scope.context(values, at: steps, current: current, clock: clock)).boolean
    }

    /// The choices offered now for field `fieldIndex` of the instance `steps` lead to, its
    /// `choice_filter` read there.
    func choices(for fieldIndex: Int, at steps: [AnswerPath.Step], in record: Record, clock: Clock) -> [XLSForm.Choice] {
        scopeQuestionnaire(steps).choices(for: fieldIndex, at: steps, values: record.values, clock: clock)
    }

    /// The text field `fieldIndex` of the instance `steps` lead to offers before anything is
    /// typed: its `default`, computed there when it reads answers.
    func defaultText(_ fieldIndex: Int, at steps: [AnswerPath.Step], in record: Record, clock: Clock) -> String? {
        scopeQuestionnaire(steps).defaultText(fieldIndex, at: steps, values: record.values, clock: clock)
    }

    /// How many instances the repeat must have in the instance `parent` leads to (none:
    /// the top level): its `repeat_count`, a number or an expression of the answers read
    /// there; nil when it has none (instances are added by hand) or the count cannot be
    /// known yet.
    func repeatCount(of node: FormNode, in record: Record, parent: [AnswerPath.Step] = [], clock: Clock) -> Int? {
        guard node.question?.repeatCount != nil else { return nil }
        return repeatCount(of: node, values: record.values, parent: parent, clock: clock)
    }

    /// `repeatCount(of:in:parent:)` of answers already read out of the survey. A count over
    /// `repeatCountLimit` is refused: nil, as if the form gave none (nothing is made for it),
    /// and said as a problem of the survey (`repeatCountProblems`), never silently capped.
    func repeatCount(of node: FormNode, values: [String: PropertyValue], parent: [AnswerPath.Step] = [],
                            clock: Clock) -> Int? {
        guard let asked = repeatCountAsked(of: node, values: values, parent: parent, clock: clock),
              asked <= Double(Self.repeatCountLimit) else { return nil }
        return Int(asked)
    }

    /// The most members survey makes for a `repeat_count`: a count of a billion (a typo, or a
    /// rule feeding on itself) would otherwise fill memory and the file.
    public static let repeatCountLimit = 10_000

    /// What a repeat's `repeat_count` asks for there, as a whole number of at least 0 (not
    /// capped); nil without one or when it cannot be known yet.
    func repeatCountAsked(of node: FormNode, values: [String: PropertyValue], parent: [AnswerPath.Step], clock: Clock) -> Double? {
        guard let count = node.question?.repeatCount else { return nil }
        let value = count.evaluate(in: context(values, at: parent, current: "", clock: clock)).number
        guard value.isFinite else { return nil }
        return max(0, value.rounded(.towardZero))
    }

    /// Whether the instance `steps` lead to shows: for each repeat on the way, its row shows
    /// in the instance around it (its `relevant`, read there, and its groups').
    func instanceShows(_ steps: [AnswerPath.Step], in values: [String: PropertyValue], clock: Clock) -> Bool {
        guard let outline = outline?.value else { return true }
        var parent: [AnswerPath.Step] = []
        for step in steps {
            guard let number = outline.scope(at: parent) else { return false }
            let q = scopeQuestionnaire(number: number)
            guard let row = q.fields.indices.first(where: { q.fields[$0].key == step.name && outline.scopeOfRepeatRow[outline.scopes[number].offset + $0] != nil }),
                  q.fieldShows(row, at: parent, in: values, clock: clock) else { return false }
            parent.append(step)
        }
        return true
    }

    /// Whether this scope's field `i` shows in the instance `steps` lead to, by its own and
    /// its groups' `relevant` only.
    func fieldShows(_ i: Int, at steps: [AnswerPath.Step], in values: [String: PropertyValue], clock: Clock) -> Bool {
        if let outer = enclosingGroups[i].last, !fieldShows(outer, at: steps, in: values, clock: clock) { return false }
        guard let relevant = question(i)?.relevant else { return true }
        let current = XLSForm.text(of: AnswerTree.value(values, steps[...], fields[i].key))
        return relevant.evaluate(in: context(values, at: steps, current: current, clock: clock)).boolean
    }
}
