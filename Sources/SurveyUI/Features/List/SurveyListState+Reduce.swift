import SurveyValues
import SurveyForms

/// The survey list's own reducer (issue 29: a child reducer, as `ChoicePicker.reduce`): its
/// keys for moving, finding, ordering and narrowing, decided from the list and the little it
/// reads of the app (`Context`), and what they ask of the app as a value; so are the `/`
/// search's background results and a sync's surveys sent back. `AppState` shows the record
/// asked for, keeps the highlight on a record the list shows after a change, and says the
/// remark (`AppState+List`). `/` and F2's focus, which open popovers, are the app's.
extension SurveyListState {
    /// What the list reads of the app.
    struct Context {
        var records: RecordList
        /// The rows the list shows now (pane or popover).
        var height: Int
        /// The ids of the surveys a supervisor sent back (`AppState.sentBackIDs`), worked out
        /// only by `b`: a set over every review, built for each ↓, cost a held key 30 sets a
        /// second on a team's document.
        var sentBack: () -> Set<String>
        /// Whether the document's ledger was read (else `b` asks for it).
        var syncRead: Bool
    }

    /// What a key on the list asks of the app.
    enum Request: Equatable {
        case none
        /// Show the record at this document index on the form (the highlight is on it).
        case show(Int)
        /// The same, from the form's ←/→: the list scrolls by half a window when the
        /// highlight leaves it.
        case jump(Int)
        /// The projection changed (the filter, the order, the narrowing): the highlight goes
        /// to a record it shows; then the status says `remark`, and `effects` are done.
        case changed(remark: String?, effects: [Effect] = [])
        /// Nothing changed: the status says why, and `effects` are done.
        case tell(String, effects: [Effect] = [])
    }

    mutating func reduce(_ action: ListAction, in context: Context) -> Request {
        switch action {
        case .move(let delta):
            guard let position = projection.position(ofRecord: rows.cursor) else { return show(atPosition: 0) }
            return show(atPosition: position + delta)
        case .page(let pages):
            return page(by: pages, in: context)
        case .toFirst:
            return show(atPosition: 0)
        case .toLast:
            return show(atPosition: projection.count - 1)
        case .commitFilter:
            guard filterInput != nil else { return .none }
            keepFilterLine()
            refresh(context.records)
            let none = projection.count == 0 && !isMatching
            return .changed(remark: none ? "No surveys match “\(filter.text)”: / changes the filter, Esc on it clears it" : nil)
        case .clearFilter:
            dropFilter()
            refresh(context.records)
            return .changed(remark: "Showing all \(counted(context.records.count, "survey"))")
        case .toggleSections:
            toggleSections()
            refresh(context.records)
            return .changed(remark: orderRemark, effects: [.rememberSession])
        case .cycleSortKey:
            cycleSortKey()
            refresh(context.records)
            return .changed(remark: orderRemark, effects: [.rememberSession])
        case .toggleSentBack:
            let sentBack = context.sentBack()
            if sentBack.isEmpty, restriction?.isSameKind(as: .sentBack([])) != true {
                return .tell("No survey is sent back: a supervisor's “has issues” or “rejected” shows here after a sync (F9)",
                             effects: context.syncRead ? [] : [.readSyncSummary])
            }
            let narrowed = toggleRestriction(.sentBack(sentBack))
            refresh(context.records)
            return .changed(remark: narrowed
                ? counted(projection.count, "survey") + " sent back: the comment shows beside the questions it names; b shows all"
                : "Showing all \(counted(context.records.count, "survey"))")
        case .toggleIncomplete:
            let narrowed = toggleRestriction(.incomplete)
            refresh(context.records)
            let n = projection.count
            return .changed(remark: !narrowed ? "Showing all \(counted(context.records.count, "survey"))"
                : n == 0 ? "No survey is incomplete: Ctrl-S keeps a New form as one; i shows all"
                : counted(n, "survey") + " incomplete: Enter goes on keying one, [ Finish ] adds it; i shows all")
        case .focusForm, .beginFilter:
            return .none   // the app's: they move the focus and open popovers
        }
    }

    /// The `/` search's background work (`Outcome.search`): the index built narrows the list
    /// to what was typed meanwhile; the finished search shows every match (the title counts
    /// them), unless it is not the one the list waits for.
    mutating func reduce(_ outcome: SearchOutcome, in context: Context) -> Request {
        switch outcome {
        case .indexBuilt(let index):
            take(index, records: context.records)
            refresh(context.records)
            return .changed(remark: nil)
        case .finished(let done):
            return takeFinished(done) ? .changed(remark: nil) : .none
        }
    }

    /// A sync brought reviews: a list narrowed to the surveys sent back follows them (a
    /// survey fixed and sent leaves it).
    mutating func sentBackChanged(in context: Context) -> Request {
        guard followSentBack(context.sentBack()) else { return .none }
        refresh(context.records)
        return .changed(remark: nil)
    }

    /// ←/→ on the form, the original app's swipes: the record before or after the one shown,
    /// in the list as shown (filtered, sorted, across section headers); at either end it
    /// stays. `showingRecord`: the form shows a stored survey (not the New form).
    func step(by delta: Int, showingRecord: Bool, in context: Context) -> Request {
        guard context.records.count > 0 else { return .tell("No surveys yet: fill in the form and press Add") }
        guard projection.count > 0 else { return .tell("No surveys match the filter: Esc on the / line clears it") }
        guard showingRecord, let position = projection.position(ofRecord: rows.cursor) else {
            // From the New form, or a record the filter hides: the highlighted one, else the first.
            return projection.position(ofRecord: rows.cursor) != nil ? .show(rows.cursor) : show(atPosition: 0)
        }
        let next = position + delta
        if next < 0 { return .tell("Already at the first record") }
        if next >= projection.count { return .tell("Already at the last record") }
        return record(nearPosition: next).map(Request.jump) ?? .none
    }

    /// The record at a place in the list as shown (clamped); nil when it shows none.
    func record(nearPosition position: Int) -> Int? {
        guard projection.count > 0 else { return nil }
        return projection.record(atPosition: min(max(0, position), projection.count - 1))
    }

    private func show(atPosition position: Int) -> Request {
        record(nearPosition: position).map(Request.show) ?? .none
    }

    /// PgUp/PgDn: a page, or in sections the previous / next section.
    private func page(by pages: Int, in context: Context) -> Request {
        let headers = projection.headerRows
        guard !headers.isEmpty, let row = projection.row(ofRecord: rows.cursor) else {
            let delta = pages * ScrollingList<Int>.page(height: context.height)
            guard let position = projection.position(ofRecord: rows.cursor) else { return show(atPosition: 0) }
            return show(atPosition: position + delta)
        }
        let target: Int?
        if pages > 0 {
            target = headers.first { $0 > row }.flatMap { projection.record(nearRow: $0) }
                ?? projection.record(atPosition: projection.count - 1)
        } else {
            let current = headers.last { $0 < row } ?? 0
            let header = row == current + 1 ? (headers.last { $0 < current } ?? current) : current
            target = projection.record(nearRow: header)
        }
        return target.map(Request.show) ?? .none
    }
}
