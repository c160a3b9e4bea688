import SurveyValues
import SurveyForms

/// Finding one's place in a long form without walking it question by question (issue 30,
/// as CSEntry and Collect's hierarchy let a keyer): the next problem, which opens the member
/// it is in. Home/End and a screenful at a time are the form's own (`FormState.reduce`).
extension AppState {
    /// F8: the next question whose answer the form refuses or lacks, after the highlighted
    /// one and round again, across members (the member it is in is shown). The status line
    /// says which of how many.
    mutating func jumpToNextProblem() {
        guard questionnaire.form != nil else {
            tell("The original form has no rules to break")
            return
        }
        let record = formRecord
        let problems = FormInstance(questionnaire, record: record, clock: ruleClock).problems()
        guard !problems.isEmpty else {
            tell("No problem: every answer here passes the form's rules")
            return
        }
        // In the form's order, members included: the tree's (Ctrl-G) rows, every member in
        // its place, so "next" inside a roster is the next member's, never the first's.
        let rows = InterviewTree.rows(of: record, in: questionnaire, clock: ruleClock, problems: problems)
        let flagged = rows.indices.filter { rows[$0].kind == .question && rows[$0].problem != nil }
        let message = Dictionary(problems.map { ($0.path, $0.message) }, uniquingKeysWith: { first, _ in first })
        guard !flagged.isEmpty else {
            // What the tree cannot place (a whole member's problem): the form's own words.
            warn("Problem: \(problems[0].message)")
            return
        }
        let here = treeRow(of: formItem, in: rows)
        let at = flagged.firstIndex { $0 > here } ?? 0
        let row = rows[flagged[at]]
        let path = AnswerPath(row.steps, row.name)
        guard highlight(problemAt: path) else {
            warn("Problem \(at + 1) of \(flagged.count) is not on the form now: \(message[path] ?? row.problem ?? "")")
            return
        }
        warn("Problem \(at + 1) of \(flagged.count): \(message[path] ?? row.problem ?? "")")
    }

    /// The tree row of the highlighted item (a question's own; a roster heading's member;
    /// the buttons after every row), -1 when none comes before it.
    private func treeRow(of item: FormItem, in rows: [InterviewTree.Row]) -> Int {
        guard case .field(let i) = item, outline.indices.contains(i) else { return item == .add || item == .clear ? rows.count : -1 }
        if let heading = outline.heading(i) {
            return rows.firstIndex { $0.kind == .member && $0.steps == heading.steps }
                ?? rows.firstIndex { $0.kind == .roster && $0.steps == heading.parent && $0.name == heading.name } ?? -1
        }
        let path = outline.path(i)
        return rows.firstIndex { $0.kind == .question && $0.steps == path.steps && $0.name == path.name } ?? -1
    }

    /// The highlight on the question at `path`, showing the members it is in (a whole
    /// member's problem: its roster's heading). False when the form has no such row shown.
    @discardableResult
    mutating func highlight(problemAt path: AnswerPath) -> Bool {
        let before = form
        form.showMembers(path.steps)
        let outline = self.outline
        let row = outline.indices.first { outline.heading($0) == nil && outline.isShown($0) && outline.path($0) == path }
            ?? outline.indices.first { i in
                guard let heading = outline.heading(i) else { return false }
                return heading.name == path.name && heading.parent == path.steps
            }
        guard let row else {
            // Nothing to go to: the members shown stay as they were, the highlight with them.
            form = before
            return false
        }
        form.highlight(.field(row))
        keepFormHighlightInView()
        return true
    }
}
