import FoundationEssentials
import SurveyValues

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
    func topLevelProblems(inValues values: [String: PropertyValue], relevance: [Bool], clock: Clock,
                                 before: (values: [String: PropertyValue], relevance: [Bool], problems: [Problem])) -> [Problem] {
        topLevelProblems(inValues: values, relevance: relevance, clock: clock, before: before,
                         reached: topLevelRowsReached(values, before: before.values))
    }

    /// The same, with the rows the change reached already worked out (`topLevelRowsReached`,
    /// nil: judge them all), as the commit's relevance worked them out.
    func topLevelProblems(inValues values: [String: PropertyValue], relevance: [Bool], clock: Clock,
                                 before: (values: [String: PropertyValue], relevance: [Bool], problems: [Problem]),
                                 reached: Set<Int>?) -> [Problem] {
        guard relevance.count == fields.count, before.relevance.count == fields.count, var judge = reached else {
            return problems(inValues: values, clock: clock, members: [], relevance: relevance.count == fields.count ? relevance : nil)
        }
        for i in fields.indices where relevance[i] != before.relevance[i] { judge.insert(i) }
        var found = before.problems.filter { !judge.contains($0.index) && $0.path.steps.isEmpty }
        for problem in problems(of: values, at: [], shown: relevance, clock: clock, only: judge) {
            found.append((problem.index, problem.message, AnswerPath(fields[problem.index].key)))
        }
        return found.sorted { $0.index < $1.index }
    }

    /// The top level's relevance of the answers `values` (what `relevance(inValues:)` gives),
    /// from `before`'s: only the rows whose own answer changed or whose `relevant` reads an
    /// answer that changed (by the form's dependency graph), and the rows of a group whose
    /// relevance changed, are evaluated again. After a commit on a 500-question form the
    /// whole pass was a quarter of the key, to find that one row or none had changed.
    ///
    /// `before` must have been evaluated at the same clock (a rule may read `now()`).
    func topLevelRelevance(inValues values: [String: PropertyValue], clock: Clock,
                                  before: (values: [String: PropertyValue], relevance: [Bool])) -> [Bool] {
        topLevelRelevance(inValues: values, clock: clock, before: before, reached: topLevelRowsReached(values, before: before.values))
    }

    /// The same, with the rows the change reached already worked out (nil: evaluate them all).
    func topLevelRelevance(inValues values: [String: PropertyValue], clock: Clock,
                                  before: (values: [String: PropertyValue], relevance: [Bool]), reached: Set<Int>?) -> [Bool] {
        guard let form, before.relevance.count == fields.count, let reached else {
            return relevance(inValues: values, clock: clock)
        }
        var result = before.relevance
        guard !reached.isEmpty else { return result }
        let ctx = context(values, at: [], current: "", clock: clock)
        for i in fields.indices {
            let outer = enclosingGroups[i].last
            // A row of a group shown or hidden anew is decided again, whatever it reads.
            guard reached.contains(i) || outer.map({ result[$0] != before.relevance[$0] }) == true else { continue }
            if let outer, !result[outer] {
                result[i] = false
            } else if let relevant = form.questions[i].relevant {
                var c = ctx
                c.current = .string(XLSForm.text(of: values[fields[i].key]))
                result[i] = relevant.evaluate(in: c).boolean
            } else {
                result[i] = true
            }
        }
        return result
    }

    /// The top-level rows a change from `before` to `values` may reach: those whose answer
    /// changed and those whose rules read one that did (by the form's dependency graph; a
    /// change inside a roster counts as a change of every row of its repeats). nil when the
    /// graph cannot say (no form, not the top level, or an answer the form does not ask
    /// changed: a rule may read it by a name the graph does not know).
    func topLevelRowsReached(_ values: [String: PropertyValue], before: [String: PropertyValue]) -> Set<Int>? {
        guard form != nil, let outline = outline?.value, scopeNumber == 0 else { return nil }
        // The answers that differ, found from the answers themselves (an unchanged roster is
        // the same storage in both, compared at once), then the rows asking them.
        var changedKeys: [String] = []
        for (key, value) in values where before[key] != value { changedKeys.append(key) }
        for key in before.keys where values[key] == nil { changedKeys.append(key) }
        var changed: [Int] = []
        var reached = Set<Int>()
        for key in changedKeys {
            // The top level's rows come first among the form's nodes (`FormOutline`).
            guard let rows = outline.byName[key]?.filter({ $0 < fields.count }), !rows.isEmpty else { return nil }
            for i in rows {
                reached.insert(i)
                changed.append(i)
                // A roster: every row of its scopes (nested ones too) changed with it.
                if outline.scopeOfRepeatRow[i] != nil {
                    for scope in outline.scopes where scope.chain.first == key {
                        changed += Array(scope.offset..<(scope.offset + scope.fields.count))
                    }
                }
            }
        }
        for node in changed {
            for reader in outline.graph.readers[node] where reader < fields.count { reached.insert(reader) }
        }
        return reached
    }
}
