import SurveyValues

/// The tree's own reducer (issue 29: a child reducer, as `ChoicePicker.reduce`): what a key
/// does to the tree alone, and what it asks of the form around it, as a value. `AppState`
/// presents the tree as it left it and does what it asks (`AppState+Tree`).
extension InterviewTree {
    /// What a key on the tree asks of the form.
    enum Request: Equatable {
        /// The tree changed (or not); nothing else happens.
        case stay
        /// The tree stays, and the status line says this.
        case tell(String)
        /// Enter: the form at this row, the tree closed.
        case go(Row)
    }

    /// Every key but Ctrl-G's opening (which builds the tree from the form).
    mutating func reduce(_ action: TreeAction) -> Request {
        switch action {
        case .open:
            return .stay
        case .move(let delta):
            move(by: delta)
        case .type(let c):
            type(c)
        case .backspace:
            backspace()
        case .toggleProblems:
            toggleProblemsOnly()
            if problemsOnly, problemCount == 0 { return .tell("No problem: every answer here passes the form's rules") }
        case .go:
            return highlightedRow.map(Request.go) ?? .stay
        }
        return .stay
    }
}
