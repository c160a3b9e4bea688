import SurveyModel

/// The survey list, rows reading `Last, First`: the split layout's left pane and the
/// collapsed layout's popover draw the same rows, so both behave alike. It draws the list as
/// the projection gives it (filtered, sorted, in sections), with the `/` line above the rows.
struct ListPane: View {
    let state: AppState
    let focused: Bool
    /// The rows' rectangle as `AppState.listBody` computes it (the one clicks use).
    let body: Rect

    private var projection: ListProjection { state.list.projection }

    /// Draws the header, the `/` line and the rows; `rect` excludes any border or divider.
    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let title = state.list.activeFilter.isEmpty ? "Surveys (\(state.recordCount)\(state.session.loading == nil ? "" : "…"))"
            : "Surveys (\(projection.count) of \(state.recordCount))"
        grid.put(title, x: rect.x + 1, y: rect.y, style: .bold, clip: rect)
        if state.list.showsFilterLine, rect.height > 1 {
            drawFilterLine(into: &grid, in: Rect(x: rect.x, y: rect.y + 1, width: rect.width - 1, height: 1))
        }
        let rows = body.intersection(rect)
        guard !rows.isEmpty else { return }
        if projection.count == 0 {
            let empty = state.recordCount == 0 ? "No surveys yet" : "No surveys match “\(state.list.activeFilter.text)”"
            grid.put(empty, x: rows.x + 1, y: rows.y, style: .muted, clip: rows)
            return
        }
        let cursorRow = projection.row(ofRecord: state.list.rows.cursor)
        let scroll = ScrollingList<Int>.scroll(state.list.rows.scroll, showing: cursorRow ?? 0, height: rows.height)
        let cursorIsShown = !state.form.showingDraft
        for line in 0..<rows.height {
            let row = scroll + line
            guard row < projection.rowCount else { break }
            let y = rows.y + line
            let clip = Rect(x: rows.x, y: y, width: rows.width - 1, height: 1)
            switch projection.row(row) {
            case .header(let section):
                grid.put(" " + section, x: rows.x, y: y, style: Style(.bold, role: .muted), clip: clip)
            case .record(let index):
                let isCursor = row == cursorRow
                let style: Style
                if isCursor && focused {
                    style = Style(.reverse)
                    grid.cursor = Point(x: rows.x, y: y)   // screen readers follow the terminal's cursor
                } else if isCursor && cursorIsShown {
                    style = Style(.bold, role: .accent)
                } else {
                    style = .plain
                }
                if isCursor { grid.fill(rows.row(line), style: style) }
                // A marker as well as the colour, so the highlight shows without colour too.
                let marker = isCursor && !focused && cursorIsShown ? "›" : " "
                // The marker, then the title as cells laid out once and kept between frames:
                // the same cells as putting `marker + title` (the marker is one column).
                let width = min(clip.maxX, grid.size.width) - rows.x
                if width >= 2, rows.x >= 0, let cells = state.listTitleCells(of: index, limit: rows.width, width: width - 1) {
                    grid.put(marker, x: rows.x, y: y, style: style, clip: clip)
                    grid.put(cells: cells, x: rows.x + 1, y: y, style: style, clip: clip)
                } else {
                    grid.put(marker + state.listTitle(of: index, limit: rows.width), x: rows.x, y: y, style: style, clip: clip)
                }
            }
        }
        if scroll > 0 { grid.put("↑", x: rows.maxX - 1, y: rows.y, style: .muted, clip: rows) }
        if scroll + rows.height < projection.rowCount {
            grid.put("↓", x: rows.maxX - 1, y: rows.maxY - 1, style: .muted, clip: rows)
        }
    }

    private func drawFilterLine(into grid: inout CellGrid, in line: Rect) {
        grid.put("/", x: line.x + 1, y: line.y, style: .bold, clip: line)
        let field = Rect(x: line.x + 3, y: line.y, width: max(0, line.width - 3), height: 1)
        if let input = state.list.filterInput {
            TextFieldView(buffer: input).draw(into: &grid, in: field)
        } else {
            grid.put(state.list.filter.text, x: field.x, y: field.y, style: .plain, clip: field)
        }
    }
}
