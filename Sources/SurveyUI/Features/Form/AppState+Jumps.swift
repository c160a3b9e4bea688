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
            statusLine.tell("The original form has no rules to break")
            return
        }
        let record = formRecord
        let problems = FormInstance(questionnaire, record: record, clock: ruleClock).problems()
        guard !problems.isEmpty else {
            statusLine.tell("No problem: every answer here passes the form's rules")
            return
        }
        // In the form's order, members included: the tree's (Ctrl-G) rows, every member in
        // its place, so "next" inside a roster is the next member's, never the first's.
        let rows = InterviewTree.rows(of: record, in: questionnaire, clock: ruleClock, problems: problems)
        let flagged = rows.indices.filter { rows[$0].kind == .question && rows[$0].problem != nil }
        let message = Dictionary(problems.map { ($0.path, $0.message) }, uniquingKeysWith: { first, _ in first })
        guard !flagged.isEmpty else {
            // What the tree cannot place (a whole member's problem): the form's own words.
            statusLine.warn("Problem: \(problems[0].message)")
            return
        }
        let here = InterviewTree.row(of: formItem, in: outline, among: rows)
        let at = flagged.firstIndex { $0 > here } ?? 0
        let row = rows[flagged[at]]
        let path = AnswerPath(row.steps, row.name)
        guard form.highlight(problemAt: path, in: formContext) else {
            statusLine.warn("Problem \(at + 1) of \(flagged.count) is not on the form now: \(message[path] ?? row.problem ?? "")")
            return
        }
        statusLine.warn("Problem \(at + 1) of \(flagged.count): \(message[path] ?? row.problem ?? "")")
    }
}

extension InterviewTree {
    /// The row among `rows` of the form's highlighted `item` in `outline` (a question's own; a
    /// roster heading's member; the buttons after every row), -1 when none comes before it.
    static func row(of item: AppState.FormItem, in outline: FormWalk, among rows: [Row]) -> Int {
        guard case .field(let i) = item, outline.indices.contains(i) else { return item == .add || item == .clear ? rows.count : -1 }
        if let heading = outline.heading(i) {
            return rows.firstIndex { $0.kind == .member && $0.steps == heading.steps }
                ?? rows.firstIndex { $0.kind == .roster && $0.steps == heading.parent && $0.name == heading.name } ?? -1
        }
        let path = outline.path(i)
        return rows.firstIndex { $0.kind == .question && $0.steps == path.steps && $0.name == path.name } ?? -1
    }
}
