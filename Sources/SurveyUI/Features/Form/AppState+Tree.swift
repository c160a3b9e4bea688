import SurveyValues
import SurveyForms

/// Ctrl-G: the interview as a tree (`InterviewTree`), to find one's place in a long form with
/// nested rosters and go there: every member, every answer, problems marked.
extension AppState {
    /// Ctrl-G opens the tree from the form; every other key is the tree's own
    /// (`InterviewTree.reduce`), and what it asks of the form is done here.
    mutating func reduce(_ action: TreeAction) -> [Effect] {
        if action == .open { return committingField { $0.openTree(); return [] } }
        guard case .tree(var tree) = popover else { return [] }
        let request = tree.reduce(action)
        popovers.present(.tree(tree))
        switch request {
        case .stay: break
        case .tell(let message): statusLine.tell(message)
        case .go(let row):
            popovers.dismiss()
            screen.moveFocus(to: .form)
            if !form.highlight(row, of: tree, in: formContext) { statusLine.warn("That question is not on the form now") }
        }
        return []
    }

    private mutating func openTree() {
        guard document != nil else { return }
        guard questionnaire.form != nil else {
            statusLine.tell("The original five questions fit on one screen: ↑/↓ move between them")
            return
        }
        let record = formRecord
        let rows = InterviewTree.rows(of: record, in: questionnaire, clock: ruleClock,
                                      problems: FormInstance(questionnaire, record: record, clock: ruleClock).problems())
        let outline = self.outline
        let here: AnswerPath? = if case .field(let i) = formItem, outline.indices.contains(i), outline.heading(i) == nil {
            outline.path(i)
        } else { nil }
        popovers.present(.tree(InterviewTree(rows: rows, highlighting: here)))
    }
}

extension FormState {
    /// The highlight at the tree's `row`: a question, a member (its heading, that member
    /// shown), a roster (its heading), a group (its first question after it). False when it
    /// is not on the form now.
    mutating func highlight(_ row: InterviewTree.Row, of tree: InterviewTree, in context: Context) -> Bool {
        switch row.kind {
        case .question:
            return highlight(problemAt: AnswerPath(row.steps, row.name), in: context)
        case .member:
            return highlight(memberAt: row.steps, in: context)
        case .roster:
            return highlight(memberAt: row.steps + [AnswerPath.Step(name: row.name, index: 0)], in: context)
        case .group:
            let at = tree.rows.firstIndex(of: row).map { tree.rows.index(after: $0) }
            let next = at.flatMap { start in tree.rows[start...].first { $0.kind == .question } }
            return next.map { highlight(problemAt: AnswerPath($0.steps, $0.name), in: context) } ?? false
        }
    }
}
