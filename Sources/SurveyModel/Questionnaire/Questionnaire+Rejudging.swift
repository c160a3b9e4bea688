import FoundationEssentials

extension Questionnaire {
    /// The top level's problems of the answers `values` (what `problems(inValues:clock:members:
    /// [])` gives), from those judged of `before`: only the questions whose answer or whose
    /// relevance changed, or that read an answer that changed (their `required`, `constraint`
    /// or `choice_filter`, by the form's dependency graph), are judged again. A commit on a
    /// 500-question form judged all 500 to redraw the one answer it changed, a third of the key.
    ///
    /// `relevance` is the top level's for `values`; `before` must have been judged at the same
    /// clock (a rule may read `now()`). A change inside a roster counts as a change of every
    /// question in it, so a total's constraint reading the roster is judged again.
    public func topLevelProblems(inValues values: [String: PropertyValue], relevance: [Bool], clock: Clock = Clock(),
                                 before: (values: [String: PropertyValue], relevance: [Bool], problems: [Problem])) -> [Problem] {
        guard form != nil, let outline = outline?.value, scopeNumber == 0,
              relevance.count == fields.count, before.relevance.count == fields.count else {
            return problems(inValues: values, clock: clock, members: [], relevance: relevance.count == fields.count ? relevance : nil)
        }
        var changed: [Int] = []
        var judge = Set<Int>()
        for (i, field) in fields.enumerated() where !field.key.isEmpty && field.kind != .groupEnd {
            if relevance[i] != before.relevance[i] { judge.insert(i) }
            guard values[field.key] != before.values[field.key] else { continue }
            judge.insert(i)
            changed.append(i)
            // A roster: every row of its scopes (nested ones too) changed with it.
            if outline.scopeOfRepeatRow[i] != nil {
                for scope in outline.scopes where scope.chain.first == field.key {
                    changed += Array(scope.offset..<(scope.offset + scope.fields.count))
                }
            }
        }
        for node in changed {
            for reader in outline.graph.readers[node] where reader < fields.count { judge.insert(reader) }
        }
        var found = before.problems.filter { !judge.contains($0.index) && $0.path.steps.isEmpty }
        for problem in problems(of: values, at: [], shown: relevance, clock: clock, only: judge) {
            found.append((problem.index, problem.message, AnswerPath(fields[problem.index].key)))
        }
        return found.sorted { $0.index < $1.index }
    }
}
