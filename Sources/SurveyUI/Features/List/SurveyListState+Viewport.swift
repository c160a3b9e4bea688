import SurveyValues
import SurveyForms

/// Where the list's highlight and scroll go after something else moved them (a record shown,
/// a delete, the filter or the order changed): the list's own, decided from what it reads of
/// the app (`Context`: the records, the rows on screen). Issue 29: these were `AppState`'s,
/// though they touch the list alone.
extension SurveyListState {
    /// Scrolls the list so the highlighted row is on screen (and the header of its section,
    /// when it is the first of it): as little as possible, or half a window more `jumping`
    /// (the form's ←/→).
    mutating func keepCursorInView(in context: Context, jumping: Bool = false) {
        clampSelection(toCount: context.records.count)
        let row = projection.row(ofRecord: rows.cursor)
        var top = row
        if let row, row > 0, case .header = projection.row(row - 1) { top = row - 1 }
        keepInView(row: row, from: top, height: context.height, jump: jumping ? context.height / 2 : 0)
    }

    /// After the filter or the order changed: the highlight stays on a record the list shows
    /// (the first one when the highlighted record is filtered out), in view. The form follows
    /// the highlight as it always does (`AppState.shown`); the New form stays on it.
    mutating func followChange(in context: Context) {
        if projection.position(ofRecord: rows.cursor) == nil, projection.count > 0 {
            select(projection.record(atPosition: 0))
        }
        keepCursorInView(in: context)
    }

    /// The record drawn at a point of the list's rows (nil on a section header or below the
    /// last row), with the scroll as drawn.
    func record(at point: Point, in rows: Rect) -> Int? {
        guard let cursorRow = projection.row(ofRecord: self.rows.cursor) ?? Optional(0) else { return nil }
        let row = ScrollingList<Int>.scroll(self.rows.scroll, showing: cursorRow, height: rows.height) + point.y - rows.y
        guard row < projection.rowCount, case .record(let index) = projection.row(row) else { return nil }
        return index
    }
}
