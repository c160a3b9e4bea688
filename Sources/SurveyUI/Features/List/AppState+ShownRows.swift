import SurveyValues
import SurveyForms

/// The list rows on screen: their titles and marks, worked out after every action
/// (`ShownListRows`) and read by drawing; a row's title as drawn is the rows' own
/// (`ShownListRows.shownTitle`), from the survey and the document's session.
extension AppState {
    /// After every action (`update`): the titles of the rows the list shows now (the original
    /// five) or whether each breaks a rule (a designer's form), kept for drawing; made only
    /// for a row whose survey, cut or width changed. The rows are found as `ListPane` finds
    /// them: the list's rectangle, its scroll kept showing the highlight.
    mutating func keepShownListRows() {
        let layout = self.layout
        guard layout.kind != .tooSmall, layout.listPane != nil || popover == .list else { return }
        let body = list.body(in: layout)
        let projection = list.projection
        let scroll = ScrollingList<Int>.scroll(list.rows.scroll, showing: projection.row(ofRecord: list.rows.cursor) ?? 0,
                                               height: body.height)
        let records = self.records   // read once: each read of `records` copies the document
        var shown: [(index: Int, record: Record)] = []
        shown.reserveCapacity(max(0, body.height))
        for row in scroll..<max(scroll, min(scroll + body.height, projection.rowCount)) {
            if case .record(let index) = projection.row(row), index < records.count { shown.append((index, records[index])) }
        }
        let questionnaire = session.questionnaire
        if let form = questionnaire.form {
            let clock = ruleClock
            shownListRows.keepMarks(shown, formID: form.formID, version: form.version) {
                !FormInstance(questionnaire, record: $0, clock: clock).problems().isEmpty
            }
        } else {
            // The cells go after the row's one-column marker, before the scroll arrows' column.
            shownListRows.keepTitles(shown, limit: body.width, width: body.width - 2) { questionnaire.title(of: $0, limit: body.width) }
        }
    }
}

extension ShownListRows {
    /// A list row's title, marked `⚠` when the survey breaks a rule of the designer's form
    /// (what F4 counts), so it can be found, or `…` when it is incomplete (kept before it
    /// passed them, `AppState+Incomplete`); kept ones are read, others made now.
    func shownTitle(of index: Int, record: Record, session: DocumentSession, clock: Questionnaire.Clock, limit: Int) -> String {
        // Whose it is when it is another's (`@ana`), and a supervisor's verdict (`✓`, `!`,
        // `✗`), first, as a team's list shows them.
        var mark = session.syncMarks(of: record).map { $0 + " " } ?? ""
        if record.isIncomplete { mark += AppState.incompleteListMark + " " }
        let questionnaire = session.questionnaire
        guard let form = questionnaire.form else {
            return mark + (text(of: index, record: record, limit: limit) ?? session.title(of: record, limit: limit))
        }
        if record.isIncomplete { return mark + session.title(of: record, limit: limit) }   // its rules are not all met yet
        let breaks = self.breaks(index, record: record, formID: form.formID, version: form.version)
            ?? !FormInstance(questionnaire, record: record, clock: clock).problems().isEmpty
        return mark + (breaks ? "⚠ " : "") + session.title(of: record, limit: limit)
    }

    /// `shownTitle` as the cells it is drawn as in `width` columns after the row's marker
    /// (`CellGrid.cells(of:width:)`); nil for a designer's form, whose titles are not kept, for
    /// a row with a team's marks or the incomplete mark, and for a title that starts with a joining mark
    /// (`ShownListRows.Title.cells`): those are drawn as one text with the marker.
    func shownTitleCells(of index: Int, record: Record, session: DocumentSession, limit: Int, width: Int) -> [Cell]? {
        guard session.questionnaire.form == nil else { return nil }
        if session.syncMarks(of: record) != nil || record.isIncomplete { return nil }
        if let kept = title(of: index, record: record, limit: limit, width: width) { return kept.cells }
        return ShownListRows.cells(ofTitle: session.title(of: record, limit: limit), width: width)
    }
}
