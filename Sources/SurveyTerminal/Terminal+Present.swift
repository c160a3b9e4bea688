import CNcurses
import SurveyRuntime
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
        defer {
            spareGrid = presented
            presented = grid
        }
        let screen = size
        let previous = presented.flatMap { $0.size == grid.size && grid.size == screen ? $0 : nil }
        if previous == nil { werase(window) }
        let rows = min(grid.size.height, screen.height)
        let columns = min(grid.size.width, screen.width)
        if columns > 0 {
            var writer = CursesRowWriter(window: window, palette: palette)
            for y in 0..<rows {
                switch Self.rowCopy(y, of: grid, previous: previous) {
                case .unchanged:
                    continue
                case .columns(let changed):
                    writer.draw(row: y, of: grid, columns: columns, range: changed)
                case .whole:
                    if previous != nil {
                        wmove(window, Int32(y), 0)
                        wclrtoeol(window)
                    }
                    writer.draw(row: y, of: grid, columns: columns)
                }
            }
        }
        wattr_set(window, shim_attr_normal(), 0, nil)
        placeCursor(grid.cursor, showing: grid.showsCaret, screen: screen, window: window)
        wnoutrefresh(window)
        doupdate()
    }

    /// What `present` copies of row `y` of a frame, given the frame on screen (nil when the
    /// window was erased): nothing when the row is the same; only the changed columns when
    /// both frames have narrow characters there (no wide character is cut or left half
    /// drawn); else the whole row, cleared first.
    static func rowCopy(_ y: Int, of grid: CellGrid, previous: CellGrid?) -> RowCopy {
        guard let previous else { return .whole }
        guard let changed = grid.changedColumns(from: previous, row: y) else { return .unchanged }
        if CursesRowWriter.isNarrow(row: y, columns: changed, of: grid),
           CursesRowWriter.isNarrow(row: y, columns: changed, of: previous) {
            return .columns(changed)
        }
        return .whole
    }

    enum RowCopy: Equatable {
        case unchanged
        case columns(Range<Int>)
        case whole
    }

    /// Draws `program`'s frame into the grid of the frame before last (see `takeFrameGrid`)
    /// and presents it.
    public func present(_ program: Program) {
        var grid = takeFrameGrid()
        program.render(into: &grid)
        present(grid)
    }

    /// A grid to draw the next frame into: the one presented before the last, which nothing
    /// else holds any more, so drawing into it neither allocates nor copies. Any grid will
    /// do (`Screen.render(_:into:)` clears it and sets its size).
    public func takeFrameGrid() -> CellGrid {
        let grid = spareGrid
        spareGrid = nil
        return grid ?? CellGrid(size: size)
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
