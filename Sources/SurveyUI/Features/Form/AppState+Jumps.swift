import SurveyModel

/// Finding one's place in a long form without walking it question by question (issue 30,
/// as CSEntry and Collect's hierarchy let a keyer): Home/End, a screenful at a time, and the
/// next problem, which opens the member it is in.
extension AppState {
    /// Home/End: the first / last question of the form (not the buttons).
    mutating func jumpToEdge(last: Bool) {
        let questions = navigableItems.filter { if case .field = $0 { true } else { false } }
        guard let target = last ? questions.last : questions.first else { return }
        form.highlight(target)
    }

    /// PgUp/PgDn outside a roster: the question a screenful up or down (the first or last
    /// at the ends), the form scrolling with it.
    mutating func moveHighlightByPage(_ direction: Int) {
        let geometry = formGeometry
        let items = navigableItems
        guard let here = geometry.contentSpan(of: formItem)?.lowerBound, let at = items.firstIndex(of: formItem) else {
            moveHighlight(by: direction, wrap: false)
            return
        }
        let page = max(1, geometry.viewport.height - 1)
        var target = at
        var i = at
        while true {
            i += direction
            guard items.indices.contains(i), let top = geometry.contentSpan(of: items[i])?.lowerBound else { break }
            target = i
            if abs(top - here) >= page { break }
        }
        if target == at { target = direction > 0 ? items.count - 1 : 0 }
        form.highlight(items[target])
    }

    /// F8: the next question whose answer the form refuses or lacks, after the highlighted
    /// one and round again, across members (the member it is in is shown). The status line
    /// says which of how many.
    mutating func jumpToNextProblem() {
        guard questionnaire.form != nil else {
            tell("The original form has no rules to break")
            return
        }
        let problems = questionnaire.problems(in: formRecord, clock: ruleClock)
        guard !problems.isEmpty else {
            tell("No problem: every answer here passes the form's rules")
            return
        }
        let outline = self.outline
        let current: AnswerPath? = if case .field(let i) = formItem, outline.indices.contains(i), outline.heading(i) == nil {
            outline.path(i)
        } else { nil }
        // After the problem on the highlight; else the first at or after the highlight's
        // top-level row (a roster's members come after the questions before it).
        let next: Int
        if let current, let at = problems.firstIndex(where: { $0.path == current }) {
            next = (at + 1) % problems.count
        } else {
            let row = topLevelRow(of: formItem, in: outline)
            next = problems.firstIndex { $0.index >= row && $0.path != current } ?? 0
        }
        let problem = problems[next]
        highlight(problemAt: problem.path)
        warn("Problem \(next + 1) of \(problems.count): \(problem.message)")
    }

    /// The highlight on the question at `path`, showing the members it is in (a whole
    /// member's problem: its roster's heading). False when the form has no such row shown.
    @discardableResult
    mutating func highlight(problemAt path: AnswerPath) -> Bool {
        var parent: [AnswerPath.Step] = []
        for step in path.steps {
            form.showInstance(step.index, of: FormWalk.RepeatHeading.selectionKey(parent: parent, name: step.name))
            parent.append(step)
        }
        let outline = self.outline
        let row = outline.indices.first { outline.heading($0) == nil && outline.isShown($0) && outline.path($0) == path }
            ?? outline.indices.first { i in
                guard let heading = outline.heading(i) else { return false }
                return heading.name == path.name && heading.parent == path.steps || heading.steps == path.steps
            }
        guard let row else { return false }
        form.highlight(.field(row))
        keepFormHighlightInView()
        return true
    }

    /// The top-level row an item is under: its own, or its outermost roster's.
    private func topLevelRow(of item: FormItem, in outline: FormWalk) -> Int {
        guard case .field(let i) = item, outline.indices.contains(i) else { return questionnaire.fields.count }
        let steps = outline.steps(i)
        let key = steps.first?.name ?? outline.field(i).key
        return questionnaire.fields.firstIndex { $0.key == key } ?? 0
    }
}
