/// A list taller than its window (bubbles' `list.Model`): the highlighted item, by whatever
/// names it (a document index for the survey list, a name for the documents list), and the
/// first row shown. The survey list and the documents list keep one; the choice picker,
/// which remembers no scroll, asks the same `scroll(_:showing:height:)` from the top each
/// frame.
public struct ScrollingList<Cursor: Equatable & Sendable>: Equatable, Sendable {
    public var cursor: Cursor
    /// The first row shown.
    public var scroll = 0

    public init(cursor: Cursor) {
        self.cursor = cursor
    }

    /// Scrolls as little as possible so that rows `top...row` are on screen (`top`: a
    /// section's header above its first row), then so that no blank rows show past the end.
    /// Nothing moves while the window has no rows.
    mutating func keepInView(row: Int?, from top: Int? = nil, height: Int, rowCount: Int) {
        guard height > 0 else { return }
        if let row {
            let top = top ?? row
            if top < scroll { scroll = top }
            if row >= scroll + height { scroll = row - height + 1 }
        }
        scroll = min(max(0, scroll), max(0, rowCount - height))
    }

    /// PgUp/PgDn: a window's rows less one, so the row at the edge stays in sight.
    static func page(height: Int) -> Int { max(1, height - 1) }

    /// The scroll a frame draws with: `scroll`, unless the highlighted row fell below the
    /// window (it shrank since), then just enough to show it on the last row.
    static func scroll(_ scroll: Int, showing row: Int, height: Int) -> Int {
        guard height > 0, row >= scroll + height else { return scroll }
        return row - height + 1
    }
}
