import SurveyValues
import SurveyForms

/// The survey list: its highlight, which the form follows, and its scroll.
extension AppState {
    /// Rows of the list that fit on screen now (pane or popover).
    var listViewportHeight: Int { list.body(in: layout).height }

    /// The highlighted record's place in the list as shown (nil when the filter hides it).
    var listPosition: Int? { list.projection.position(ofRecord: list.rows.cursor) }

    /// What the list reads of the app (`SurveyListState.Context`).
    var listContext: SurveyListState.Context {
        let app = self
        return .init(records: records, height: listViewportHeight, sentBack: { app.sentBackIDs }, syncRead: session.sync != nil)
    }

    /// Does what a key on the list asks (`SurveyListState.reduce`).
    mutating func follow(_ request: SurveyListState.Request) -> [Effect] {
        switch request {
        case .none:
            return []
        case .show(let index):
            showRecord(index)
            return []
        case .jump(let index):
            showRecord(index, jumping: true)
            return []
        case .changed(let remark, let effects):
            list.followChange(in: listContext)
            if let remark { statusLine.tell(remark) }
            return effects
        case .tell(let remark, let effects):
            statusLine.tell(remark)
            return effects
        }
    }

    /// Shows a record on the form and keeps the list highlight and scroll on it; `jumping`
    /// (the form's ←/→) scrolls the list by half a window when the highlight leaves it.
    mutating func showRecord(_ index: Int, jumping: Bool = false) {
        shown = .record(index)
        list.keepCursorInView(in: listContext, jumping: jumping)
    }

    /// F2 (after `committingField`): the list pane takes focus (split) or the list pops up
    /// (collapsed).
    mutating func showList() -> [Effect] {
        if isSplit {
            popovers.dismiss()
            screen.moveFocus(to: .list)
        } else {
            popovers.present(.list)
        }
        list.keepCursorInView(in: listContext)
        return []
    }

    /// Keeps focus and popovers legal for the layout: collapsed has no list pane to focus,
    /// split has no list popover (its pane takes the focus instead).
    mutating func resize(to newSize: Size) {
        screen.resize(to: newSize)   // collapsed, the focus leaves the list pane
        switch layout.kind {
        case .collapsed where list.filterInput != nil && popover == nil:
            // The `/` line lives above the list: typing must never go on unseen.
            popovers.present(.list)
        case .split where popover == .list:
            popovers.dismiss()
            screen.moveFocus(to: .list)
        default:
            break
        }
        list.keepCursorInView(in: listContext)
        manager.keepCursorInView(in: managerContext)
    }

    /// Where the person left this document: its list order, and the record by id (else by
    /// position, for records without one).
    public mutating func restorePlace(_ place: SessionPlace?) {
        list.restore(place?.listOrder.flatMap(ListOrder.init(memoryWord:)) ?? ListOrder(), records: records)
        guard recordCount > 0 else {
            shown = .draft
            list.select(0)
            return
        }
        if let id = place?.recordID, let index = records.firstIndex(where: { $0.instanceID == id }) {
            showRecord(index)
        } else if let index = place?.record, records.indices.contains(index) {
            showRecord(index)
        } else {
            if let first = list.record(nearPosition: 0) { showRecord(first) }
            return
        }
        restoreLanguageAndQuestion(place)
    }

    /// The form's language and the question (in its member) a keyer left, when the form
    /// still has them; anything else is quietly not restored (it is a convenience).
    private mutating func restoreLanguageAndQuestion(_ place: SessionPlace?) {
        if let language = place?.language, let form = questionnaire.form, form.languages.contains(language),
           questionnaire.language != language, form.formID == session.questionnaire.form?.formID {
            session.relabel(Questionnaire(form: form, language: language))
            list.rename(ListNames(session.questionnaire))
        }
        guard questionnaire.form != nil, let text = place?.question, let path = AnswerPath(parsing: text) else { return }
        let outline = self.outline
        if path.steps.isEmpty, let row = outline.indices.first(where: { outline.heading($0) == nil && outline.path($0) == path }),
           outline.isNavigable(row) {
            form.highlight(.field(row))
            form.keepHighlightInView(in: formContext)
        } else if !path.steps.isEmpty {
            form.highlight(problemAt: path, in: formContext)
        }
    }

    /// What the session memory keeps of this document.
    public var place: SessionPlace {
        let record: Int? = recordCount > 0 ? list.rows.cursor : nil
        // The question on the survey shown (not the New form's: it is not what the list keeps).
        var question: String?
        if case .record = shown, questionnaire.form != nil, case .field(let i) = formItem {
            let outline = self.outline
            if outline.indices.contains(i), outline.heading(i) == nil { question = outline.path(i).description }
        }
        return .init(record: record, recordID: record.flatMap { records.indices.contains($0) ? records[$0].instanceID : nil },
                     listOrder: list.order == ListOrder() ? nil : list.order.memoryWord,
                     question: question, language: questionnaire.language)
    }
}

extension SurveyListState {
    /// Where the list's rows are (pane or popover), below its header and the `/` line: the
    /// one rectangle drawing, scrolling and clicks use.
    func body(in layout: Layout) -> Rect {
        let rows = layout.listRows(inPopover: !layout.isSplit, rowCount: projection.rowCount + (showsFilterLine ? 1 : 0))
        guard showsFilterLine, rows.height > 0 else { return rows }
        return Rect(x: rows.x, y: rows.y + 1, width: rows.width, height: rows.height - 1)
    }
}
