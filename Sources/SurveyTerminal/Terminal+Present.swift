import CNcurses
import SurveyUI

extension Terminal {
    /// Copies a rendered frame to the screen.
    ///
    /// The whole grid is copied every frame: curses compares it with what the screen
    /// already shows and sends only the changes. The window is erased first, so any cell
    /// the grid does not cover (a smaller grid, or a character curses draws narrower than
    /// the grid assumed) shows blank rather than a stale character. When the grid and the
    /// screen differ in size (a resize not yet handled) only the overlap is drawn.
    public func present(_ grid: CellGrid) {
        guard let window = activeWindow else { return }
        let screen = size
        werase(window)
        let rows = min(grid.size.height, screen.height)
        let columns = min(grid.size.width, screen.width)
        if columns > 0 {
            var writer = CursesRowWriter(window: window, palette: palette)
            for y in 0..<rows {
                writer.draw(row: y, of: grid, columns: columns)
            }
        }
        wattr_set(window, shim_attr_normal(), 0, nil)
        placeCursor(grid.cursor, showing: grid.showsCaret, screen: screen, window: window)
        wnoutrefresh(window)
        doupdate()
    }

    /// Puts the terminal's cursor on the focused item the grid names, showing it only as the
    /// caret of a text box; a position outside the screen is hidden rather than clamped to a
    /// misleading place.
    private func placeCursor(_ cursor: Point?, showing: Bool, screen: Size, window: UnsafeMutablePointer<WINDOW>) {
        guard let cursor, cursor.x >= 0, cursor.y >= 0,
              cursor.x < screen.width, cursor.y < screen.height else {
            showCursor(false)
            return
        }
        showCursor(showing)
        wmove(window, Int32(cursor.y), Int32(cursor.x))
    }
}
