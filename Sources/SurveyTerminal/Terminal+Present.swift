import CNcurses
import SurveyUI

extension Terminal {
    /// Copies a rendered frame to the screen.
    ///
    /// Only the cells that differ from the frame presented last are copied (curses then
    /// compares them with what the screen shows and sends only the changes), so a key costs
    /// the cells it changed. A changed span of narrow characters (ASCII, "ë", "Ж": one
    /// column each, see `CursesRowWriter`) is copied as it is; a row with anything wider or
    /// combined in its changed span is cleared and drawn whole, and the
    /// first frame, a frame of a new size and the first after a resize or a resume erase the
    /// whole window first, so any cell the grid does not cover (a smaller grid, or a
    /// character curses draws narrower than the grid assumed) shows blank rather than a
    /// stale character. When the grid and the screen differ in size (a resize not yet
    /// handled) only the overlap is drawn.
    public func present(_ grid: CellGrid) {
        guard let window = activeWindow else { return }
        let screen = size
        let previous = presented.flatMap { $0.size == grid.size && grid.size == screen ? $0 : nil }
        if previous == nil { werase(window) }
        let rows = min(grid.size.height, screen.height)
        let columns = min(grid.size.width, screen.width)
        if columns > 0 {
            var writer = CursesRowWriter(window: window, palette: palette)
            for y in 0..<rows {
                if let previous {
                    guard let changed = grid.changedColumns(from: previous, row: y) else { continue }
                    // Both frames narrow there: no wide character is cut or left half drawn.
                    if CursesRowWriter.isNarrow(row: y, columns: changed, of: grid),
                       CursesRowWriter.isNarrow(row: y, columns: changed, of: previous) {
                        writer.draw(row: y, of: grid, columns: columns, range: changed)
                        continue
                    }
                    wmove(window, Int32(y), 0)
                    wclrtoeol(window)
                }
                writer.draw(row: y, of: grid, columns: columns)
            }
        }
        presented = grid
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
