/// Ctrl-G's tree of the interview: a box nearly the screen's size, a line saying what typing
/// does (or what has been typed), then the rows indented by depth, each question with its
/// answer in a second column (`—` for none) and `⚠` on what the form refuses or lacks (and
/// on the members and rosters holding it). The highlighted row is reversed and kept in view.
///
/// It holds the tree and the layout it goes in, so it can be drawn from a hand-made tree.
struct InterviewTreeView {
    let tree: InterviewTree
    let layout: Layout

    struct Geometry {
        let box: Rect
        let hint: Rect
        let rows: Rect
        let scroll: Int
    }

    static func geometry(_ tree: InterviewTree, layout: Layout) -> Geometry {
        let box = layout.centeredBox(width: 78, height: max(tree.rows.count, 8) + 3)
        let inner = box.inset(by: 1)
        let hint = Rect(x: inner.x + 1, y: inner.y, width: inner.width - 1, height: min(1, inner.height))
        let rows = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 1))
        return Geometry(box: box, hint: hint, rows: rows,
                        scroll: ScrollingList<Int>.scroll(0, showing: tree.highlighted, height: rows.height))
    }

    func draw(into grid: inout CellGrid) {
        let g = Self.geometry(tree, layout: layout)
        let problems = tree.problemCount
        let title = "Go to" + (problems == 0 ? "" : " · \(problems) problem\(problems == 1 ? "" : "s")")
        _ = grid.box(g.box, title: title, style: .accent)
        let hint: String
        if !tree.filter.isEmpty || tree.problemsOnly {
            hint = (tree.problemsOnly ? "Problems only" : "Find") + (tree.filter.isEmpty ? "" : ": \(tree.filter)")
                + (tree.visible.isEmpty ? " (no match)" : "")
        } else {
            hint = "Type to narrow · Tab: problems only · Enter goes there"
        }
        grid.put(hint, x: g.hint.x, y: g.hint.y, style: .muted, clip: g.hint)
        // Labels in a column as wide as the longest shown, up to three fifths of the box.
        let shown = tree.visible.dropFirst(g.scroll).prefix(g.rows.height)
        let labelWidth = min(shown.map { Self.labelText(tree[$0]).count }.max() ?? 0, g.rows.width * 3 / 5)
        for (line, index) in shown.enumerated() {
            let row = tree[index]
            let y = g.rows.y + line
            let highlighted = g.scroll + line == tree.highlighted
            let style: Style = highlighted ? Style(.reverse) : row.kind == .question ? .plain : .bold
            if highlighted { grid.fill(Rect(x: g.rows.x, y: y, width: g.rows.width, height: 1), style: style) }
            let label = Self.labelText(row)
            let mark = row.problem == nil ? "  " : "⚠ "
            let rowRect = Rect(x: g.rows.x, y: y, width: g.rows.width, height: 1)
            grid.put(mark, x: g.rows.x, y: y, style: row.problem == nil ? style : Style(style.attributes, role: .error), clip: rowRect)
            grid.put(label, x: g.rows.x + 2, y: y, style: style, clip: Rect(x: g.rows.x + 2, y: y, width: labelWidth, height: 1))
            let answer = row.kind == .roster ? "" : row.answer
            let answerX = g.rows.x + 2 + labelWidth + 2
            if answerX < g.rows.maxX, !answer.isEmpty {
                let muted = row.kind == .question && answer == "—" && !highlighted
                grid.put(answer, x: answerX, y: y, style: muted ? .muted : style, clip: rowRect)
            }
        }
    }

    /// The row's first column: indented by depth, a roster with its member count.
    static func labelText(_ row: InterviewTree.Row) -> String {
        let indent = String(repeating: "  ", count: row.depth)
        switch row.kind {
        case .roster: return indent + row.label + " (" + row.answer + ")"
        default: return indent + row.label
        }
    }
}
