import SurveyValues
import SurveyForms

/// The survey list, rows reading `Last, First`: the split layout's left pane and the
/// collapsed layout's popover draw the same rows, so both behave alike. It draws the list as
/// the projection gives it (filtered, sorted, in sections), with the `/` line above the rows.
///
/// Like ratatui's `List` with its `ListState`, it holds what it draws (the header, the `/`
/// line, the projection's rows, where the cursor and scroll are), made from the state by
/// `make(from:focused:)`, so it can be drawn from hand-made rows.
struct ListPane: View {
    /// The `/` line: being typed, or a filter already applied.
    enum FilterLine {
        case typing(TextInput)
        case applied(String)
    }

    /// "Surveys (n)", or "(n of m)" under a filter.
    let title: String
    /// Shown in place of rows when the projection has none.
    let emptyText: String
    /// The `/` line, nil when none shows.
    let filterLine: FilterLine?
    /// The rows as shown: filtered, sorted, in sections.
    let projection: ListProjection
    /// The highlighted record's row (nil when the filter hides it), and the scroll before it
    /// is kept in view.
    let cursorRow: Int?
    let scroll: Int
    /// Whether the highlight shows when not focused (not while the form shows the draft).
    let cursorIsShown: Bool
    let focused: Bool
    /// The rows' rectangle as `AppState.listBody` computes it (the one clicks use).
    let body: Rect
    /// A record's title as cells laid out for `width` columns, kept between frames (nil when
    /// not kept), and as text cut to `limit`. Asked only for the rows that show, so a list of
    /// 100,000 costs what a screenful does: that is why these are functions, not an array.
    let titleCells: (_ index: Int, _ limit: Int, _ width: Int) -> [Cell]?
    let titleText: (_ index: Int, _ limit: Int) -> String

    /// The pane for the current state: the one place the state is read for the list.
    static func make(from state: AppState, focused: Bool) -> ListPane {
        let list = state.list
        let projection = list.projection
        let sentBack = state.session.sync?.reviews.values.reduce(0) { $0 + ($1.sendsBack ? 1 : 0) } ?? 0
        // A narrowed list (`b`, `i`) is named for what it shows, the `/` filter within it.
        let narrowed: (title: String, none: String)? = switch list.restriction {
        case .sentBack?: ("Sent back", "No survey is sent back now (b shows all)")
        case .incomplete?: ("Incomplete", "No survey is incomplete now (i shows all)")
        case nil: nil
        }
        let title: String
        if let narrowed {
            title = "\(narrowed.title) (\(projection.count) of \(state.recordCount))"
        } else if list.activeFilter.isEmpty {
            title = "Surveys (\(state.recordCount)\(state.session.loading == nil ? "" : "…")"
                + (sentBack > 0 ? ", \(sentBack) sent back)" : ")")
        } else {
            title = list.isMatching ? "Surveys (matching… of \(state.recordCount))" : "Surveys (\(projection.count) of \(state.recordCount))"
        }
        let emptyText = state.recordCount == 0 ? "No surveys yet"
            : list.activeFilter.isEmpty ? narrowed?.none ?? "No surveys yet"
            : list.isMatching ? "Matching “\(list.activeFilter.text)”…" : "No surveys match “\(list.activeFilter.text)”"
        let filterLine: FilterLine? = !list.showsFilterLine ? nil
            : list.filterInput.map { .typing($0) } ?? .applied(list.filter.text)
        return ListPane(title: title, emptyText: emptyText, filterLine: filterLine, projection: projection,
                        cursorRow: projection.row(ofRecord: list.rows.cursor), scroll: list.rows.scroll,
                        cursorIsShown: !state.form.showingDraft, focused: focused, body: state.list.body(in: state.layout),
                        titleCells: { state.shownListRows.shownTitleCells(of: $0, record: state.records[$0], session: state.session,
                                                                          limit: $1, width: $2) },
                        titleText: { state.shownListRows.shownTitle(of: $0, record: state.records[$0], session: state.session,
                                                                    clock: state.ruleClock, limit: $1) })
    }

    /// Draws the header, the `/` line and the rows; `rect` excludes any border or divider.
    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard !rect.isEmpty else { return }
        grid.put(title, x: rect.x + 1, y: rect.y, style: .bold, clip: rect)
        if let filterLine, rect.height > 1 {
            drawFilterLine(filterLine, into: &grid, in: Rect(x: rect.x, y: rect.y + 1, width: rect.width - 1, height: 1))
        }
        let rows = body.intersection(rect)
        guard !rows.isEmpty else { return }
        if projection.count == 0 {
            grid.put(emptyText, x: rows.x + 1, y: rows.y, style: .muted, clip: rows)
            return
        }
        let scroll = ScrollingList<Int>.scroll(self.scroll, showing: cursorRow ?? 0, height: rows.height)
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
                if width >= 2, rows.x >= 0, let cells = titleCells(index, rows.width, width - 1) {
                    grid.put(marker, x: rows.x, y: y, style: style, clip: clip)
                    grid.put(cells: cells, x: rows.x + 1, y: y, style: style, clip: clip)
                } else {
                    grid.put(marker + titleText(index, rows.width), x: rows.x, y: y, style: style, clip: clip)
                }
            }
        }
        if scroll > 0 { grid.put("↑", x: rows.maxX - 1, y: rows.y, style: .muted, clip: rows) }
        if scroll + rows.height < projection.rowCount {
            grid.put("↓", x: rows.maxX - 1, y: rows.maxY - 1, style: .muted, clip: rows)
        }
    }

    private func drawFilterLine(_ filterLine: FilterLine, into grid: inout CellGrid, in line: Rect) {
        grid.put("/", x: line.x + 1, y: line.y, style: .bold, clip: line)
        let field = Rect(x: line.x + 3, y: line.y, width: max(0, line.width - 3), height: 1)
        switch filterLine {
        case .typing(let input):
            TextFieldView(buffer: input).draw(into: &grid, in: field)
        case .applied(let text):
            grid.put(text, x: field.x, y: field.y, style: .plain, clip: field)
        }
    }
}
