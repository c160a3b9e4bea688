import SurveyValues
import SurveyForms

/// How a roster's place is worded, on its heading row and in messages.
enum RosterText {
    /// "2 of 4", or, with no instance yet, how to add one (or that the form fixes none).
    static func position(_ heading: FormWalk.RepeatHeading) -> String {
        if heading.holdsOtherValue { return "none: the survey holds another answer here (kept)" }
        if heading.count == 0 {
            return heading.fixedCount == nil ? "none yet: ^O adds one" : "none (the form asks for 0)"
        }
        // Members kept after the form's count went down show as what they are.
        if let fixed = heading.fixedCount, heading.count > fixed {
            let beyond = heading.shown >= fixed ? ": ^D deletes it" : ""
            return "\(heading.shown + 1) of \(heading.count) (counted \(fixed)\(beyond))"
        }
        return "\(heading.shown + 1) of \(heading.count)"
    }

    /// The repeat's label, for "Add another Household member? y/n".
    static func name(_ heading: FormWalk.RepeatHeading) -> String {
        heading.label.isEmpty ? heading.name : heading.label
    }

    /// “ (“Ana”)”: the first answer of the member `steps` lead to in `record`, to tell members
    /// apart in a question and the breadcrumb; empty when it has none.
    static func memberTitle(_ steps: [AnswerPath.Step], in record: Record, _ questionnaire: Questionnaire) -> String {
        guard let last = steps.last else { return "" }
        let answers = record.instances(of: last.name, in: Array(steps.dropLast()))
        guard answers.indices.contains(last.index) else { return "" }
        let inner = questionnaire.scopeQuestionnaire(steps)
        guard let first = inner.fields.first(where: { $0.kind.isAnswered && answers[last.index][$0.key] != nil }),
              let value = answers[last.index][first.key] else { return "" }
        return " (“\(first.screenText(value).prefix(40))”)"
    }

    /// Where the highlighted question (`item`) sits among the rosters, outermost first, each
    /// roster's name then the member shown with its first answer: `Tree`, `2 of 3 (“102”)`,
    /// `Stems`, `3 of 3` (issue 30). The form's heading shows it, so a keyer deep in a nested
    /// member knows whose answers these are without scrolling up to the member's heading row,
    /// at any size. Empty outside rosters (`FormState.highlightsMember(in:)` says which, cheaply).
    static func breadcrumb(at item: AppState.FormItem, in outline: FormWalk, record: Record, _ questionnaire: Questionnaire) -> [String] {
        guard case .field(let i) = item, let entries = outline.entries, entries.indices.contains(i.index) else { return [] }
        let steps = entries[i.index].steps
        guard !steps.isEmpty else { return [] }
        var crumbs: [String] = []
        for depth in 1...steps.count {
            let prefix = Array(steps.prefix(depth))
            guard let heading = entries.lazy.compactMap(\.heading).first(where: { $0.steps == prefix }) else { continue }
            crumbs.append(name(heading))
            crumbs.append("\(heading.shown + 1) of \(heading.count)" + memberTitle(prefix, in: record, questionnaire))
        }
        return crumbs
    }
}
