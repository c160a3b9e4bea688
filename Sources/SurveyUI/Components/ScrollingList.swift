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

    /// Scrolls so that rows `top...row` are on screen (`top`: a section's header above its
    /// first row), then so that no blank rows show past the end. Nothing moves while the
    /// window has no rows.
    ///
    /// `jump` is how many rows further than needed to scroll once the row leaves the window
    /// (Vim's `scrolljump`): 0 scrolls as little as possible, as a list being stepped through
    /// should. The form's ←/→ step the list *beside* it with half a window's jump, so that
    /// most steps only move the highlight: a terminal scrolls only whole lines, so scrolling
    /// a pane that shares its rows with the form redraws the pane's every row (544 bytes a
    /// step at 120x40, against about 150 for the highlight and the form alone).
    mutating func keepInView(row: Int?, from top: Int? = nil, height: Int, rowCount: Int, jump: Int = 0) {
        guard height > 0 else { return }
        if let row {
            let top = top ?? row
            // Never so far that the row (or its header) would leave the window again.
            let jump = max(0, min(jump, height - 1 - (row - top)))
            if top < scroll { scroll = top - jump }
            if row >= scroll + height { scroll = row - height + 1 + jump }
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
