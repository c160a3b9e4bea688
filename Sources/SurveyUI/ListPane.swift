import SurveyModel

/// The survey list, rows reading `Last, First`: the split layout's left pane and the
/// collapsed layout's popover draw the same rows, so both behave alike.
struct ListPane: View {
    let records: [Record]
    let cursor: Int
    let scroll: Int
    let focused: Bool
    /// Whether the form shows the highlighted record (not the New form).
    let cursorIsShown: Bool

    /// Draws the header and the rows; `rect` excludes any border or divider.
    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard !rect.isEmpty else { return }
        grid.put("Surveys (\(records.count))", x: rect.x + 1, y: rect.y, style: .bold, clip: rect)
        let rows = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
        guard !rows.isEmpty else { return }
        if records.isEmpty {
            grid.put("No surveys yet", x: rows.x + 1, y: rows.y, style: .muted, clip: rows)
            return
        }
        let scroll = Self.visibleScroll(self.scroll, cursor: cursor, rows: rows.height)
        for line in 0..<rows.height {
            let index = scroll + line
            guard index < records.count else { break }
            let y = rows.y + line
            let isCursor = index == cursor
            let style: Style
            if isCursor && focused {
                style = Style(.reverse)
            } else if isCursor && cursorIsShown {
                style = Style(.bold, role: .accent)
            } else {
                style = .plain
            }
            if isCursor { grid.fill(rows.row(line), style: style) }
            grid.put(" " + records[index].listTitle(limit: rows.width), x: rows.x, y: y, style: style,
                     clip: Rect(x: rows.x, y: y, width: rows.width - 1, height: 1))
        }
        if scroll > 0 { grid.put("↑", x: rows.maxX - 1, y: rows.y, style: .muted, clip: rows) }
        if scroll + rows.height < records.count {
            grid.put("↓", x: rows.maxX - 1, y: rows.maxY - 1, style: .muted, clip: rows)
        }
    }

    /// The scroll drawn (and clicked): the stored one, moved just enough to keep the
    /// highlighted row on screen when the rows shrank after it was set (a long message took one).
    static func visibleScroll(_ scroll: Int, cursor: Int, rows: Int) -> Int {
        guard rows > 0, cursor >= scroll + rows else { return scroll }
        return cursor - rows + 1
    }
}
