import SurveyValues
import SurveyForms

/// The survey list's own state (bubbles' `list`): the `/` filter and its input line, the
/// order, and the projection they give, kept apart from the document so that filtering or
/// sorting never moves a record in the file; and the highlight and scroll, `rows`, whose cursor
/// is a document index the projection maps to a row. Every setter is private to this file:
/// the app-level part of the list feature (`AppState+List`, `AppState+Filter`) and the
/// features that move the selection go through the methods at the end.
public struct SurveyListState: Equatable, Sendable {
    /// The filter in force (Enter on the `/` line keeps it; Esc clears it).
    public private(set) var filter = RecordFilter("")
    /// The `/` line while it is being typed: the list narrows with each key.
    public private(set) var filterInput: TextInput?
    public private(set) var order = ListOrder()
    /// What sorting and sections go by (the questionnaire's names for a survey).
    public private(set) var names = ListNames.standard
    /// Ids of records edited while a filter was on: they stay listed until it changes, so a
    /// record does not vanish under the typing hand.
    public private(set) var pinned: Set<String> = []
    /// Only some surveys (nil: every survey): those a supervisor sent back (`b`), or the
    /// incomplete ones (`i`). The `/` filter and the order apply within them.
    public private(set) var restriction: ListRestriction?
    public private(set) var projection = ListProjection()
    /// The highlighted row, as a document index, and the first row shown. The form shows
    /// the highlighted record unless `FormState.showingDraft`: one index plus that flag (not
    /// a separate "shown record"), so the list highlight and the form can never disagree.
    public private(set) var rows = ScrollingList(cursor: 0)
    /// Folded text of every record, built the first time a filter is used and kept up to
    /// date from then on.
    private(set) var searchIndex: SearchIndex?
    /// Every record's sort key, made the first time the list is sorted and kept up to date.
    private var sortIndex: SortIndex?
    /// What the projection was last built from, so a filter typed further (each key adds to
    /// it) searches only the records the previous one showed.
    private var builtFrom: (records: RecordList, order: ListOrder, filter: String, pinned: Set<String>, names: ListNames)?

    /// The rest of a search too large for the key that typed it: the runtime finishes it
    /// (`Program`), and `takeFinished` shows every match. Meanwhile the projection holds the
    /// first matches, exactly those the full search puts first.
    public private(set) var searchToFinish: SearchJob?
    /// Counts the searches left to finish, so only the latest one's result is taken.
    private var searchGeneration = 0
    /// Whole match sets of texts typed on these records, order and pinned surveys, so that a
    /// Backspace back to one of them searches nothing; only sets of up to an eighth of the
    /// records are kept (a wider query finds its first screen at once anyway).
    private var searched: [(text: String, matches: [Int])] = []
    /// When a search is left to a `SearchJob` (tests make it smaller: `useWindow`).
    private(set) var window = SearchWindow()

    public init() {}

    public static func == (a: SurveyListState, b: SurveyListState) -> Bool {
        a.rows == b.rows && a.filter == b.filter && a.filterInput == b.filterInput && a.order == b.order && a.pinned == b.pinned
            && a.projection == b.projection && a.searchIndex == b.searchIndex && a.indexPending == b.indexPending
            && a.searchToFinish?.generation == b.searchToFinish?.generation
    }

    /// A smaller window, so that a test's few hundred surveys leave searches to finish.
    mutating func useWindow(_ window: SearchWindow) { self.window = window }

    /// A search is being finished in the background: the list shows its first matches.
    public var isMatching: Bool { searchToFinish != nil }


    /// What narrows the list right now: the line being typed, else the kept filter.
    public var activeFilter: RecordFilter { filterInput.map { RecordFilter($0.text) } ?? filter }

    /// Whether the `/` line shows above the rows.
    public var showsFilterLine: Bool { filterInput != nil || !filter.isEmpty }

    /// Lets go of the records the projection was built from (the next refresh builds afresh),
    /// so the document's records can be changed in place without being copied. `toTop`: the
    /// records are gone for good (the file turned out unreadable), and the highlight and the
    /// scroll go back to the first row.
    mutating func forgetRecords(toTop: Bool = false) {
        builtFrom = nil
        searched = []
        searchToFinish = nil
        if toTop { rows = ScrollingList(cursor: 0) }
    }

    /// `/` was pressed on a large list and its index is being built in the background.
    private(set) var indexPending = false

    /// Lists this large have their index built in the background (`Effect.buildSearchIndex`),
    /// when none is kept yet: on one processor 100,000 surveys took a tenth of a second.
    static let backgroundIndexThreshold = 20_000

    func buildsIndexInBackground(for count: Int) -> Bool {
        searchIndex == nil && !indexPending && count >= Self.backgroundIndexThreshold
    }

    /// A filter is typed but the list waits for its index: it shows every survey meanwhile.
    var isWaitingForIndex: Bool { indexPending && searchIndex == nil && !activeFilter.isEmpty }

    /// The index asked for; one that comes after another document was opened (this state
    /// then asked for none) is dropped.
    ///
    /// An index that searched ahead for the text typed by the time it was built (at a million
    /// surveys that search took 7–15 ms, the slowest character of all when the main thread
    /// made it) gives the list its matches at once; the refresh after then narrows them to
    /// what is typed now. Only in entry order, with no survey pinned, on the records it was
    /// built from and for a text that the typed one extends: otherwise the refresh searches.
    mutating func take(_ index: SearchIndex, records: RecordList) {
        guard indexPending else { return }
        indexPending = false
        guard searchIndex == nil else { return }
        searchIndex = index
        let typed = activeFilter
        if let ahead = index.searchedAhead, typed.text.hasPrefix(ahead.text), order == ListOrder(), pinned.isEmpty,
           records.isSameStorage(as: index.records) {
            projection = ListProjection(shown: ahead.matches, recordCount: records.count)
            builtFrom = (records, order, ahead.text, pinned, names)
            searched = []
            remember(ahead.text, ahead.matches, recordCount: records.count)
        }
    }

    /// The finished search, if it is the one the list waits for: every match shows. False
    /// when it is not (the query, the records or the document changed since).
    mutating func takeFinished(_ done: FinishedSearch) -> Bool {
        guard let job = searchToFinish, job.generation == done.generation, job.index === done.index else { return false }
        searchToFinish = nil
        projection = done.projection
        remember(job.text, done.matches, recordCount: job.recordCount)
        return true
    }

    private mutating func remember(_ text: String, _ matches: [Int], recordCount: Int) {
        guard matches.count <= max(window.limit, recordCount / 8) else { return }
        searched.removeAll { $0.text == text }
        searched.append((text, matches))
        if searched.count > 32 { searched.removeFirst() }
    }

    mutating func refresh(_ records: RecordList) {
        // Read every survey's id only when a search needs them.
        let pinned = self.pinned
        let keep: () -> Set<Int> = {
            pinned.isEmpty ? [] : Set(records.indices.filter { records[$0].instanceID.map(pinned.contains) ?? false })
        }
        // Waiting for the index: every survey, until it comes.
        let filter = isWaitingForIndex ? RecordFilter("") : activeFilter
        if !filter.isEmpty {
            searchIndex = searchIndex?.updated(for: records) ?? SearchIndex(records: records)
        }
        let sortKey = order.sortKey
        if sortKey == .entry {
            sortIndex = nil
        } else {
            sortIndex = sortIndex?.updated(for: records, key: sortKey, names: names)
                ?? SortIndex(records: records, key: sortKey, names: names)
        }
        defer { if restriction == nil { builtFrom = (records, order, filter.text, pinned, names) } }
        let pending = searchToFinish
        searchToFinish = nil
        if let restriction {
            // Every survey looked at again at each change (a pass over them all, paid only while
            // the list is narrowed): no index, no search left for later.
            var within = records.indices.filter { restriction.admits(records[$0]) }
            if sortKey != .entry, let sortIndex { within.sort(by: sortIndex.precedes) }
            searched = []
            projection = filter.isEmpty && order == ListOrder()
                ? ListProjection(shown: within, recordCount: records.count)
                : ListProjection(records: records, filter: filter, order: order, keep: keep(), index: searchIndex,
                                 within: within, names: names, sorting: sortIndex)
            builtFrom = nil
            return
        }
        guard let last = builtFrom, last.order == order, last.pinned == pinned, last.names == names else {
            searched = []
            project(records, filter: filter, keep: keep, within: nil)
            return
        }
        let sameRecords = last.records.isSameStorage(as: records)
        if !sameRecords { searched = [] }
        if last.filter == filter.text {
            // The same query on the same records: a search under way goes on.
            if sameRecords, pending != nil { searchToFinish = pending; return }
            if pending == nil, let moved = repositioned(from: last.records, to: records, filter: filter) {
                projection = moved
                return
            }
        }
        guard sameRecords, !filter.isEmpty else {
            project(records, filter: filter, keep: keep, within: nil)
            return
        }
        // A filter typed further (each key adds to it) searches only what the last one
        // showed, and what its search had not looked at yet.
        if !last.filter.isEmpty, filter.text.hasPrefix(last.filter) {
            project(records, filter: filter, keep: keep,
                    within: pending.map { $0.rest.after($0.found) } ?? .only(projection.shownRecords))
            return
        }
        // Backspace: back to a text searched before, or within the longest one it extends
        // (the matches are in the list's order).
        if let known = searched.last(where: { filter.text.hasPrefix($0.text) }) {
            if known.text == filter.text, !order.sections {
                projection = ListProjection(shown: known.matches, recordCount: records.count, ascending: order == ListOrder())
            } else {
                project(records, filter: filter, keep: keep, within: .only(known.matches))
            }
            return
        }
        project(records, filter: filter, keep: keep, within: nil)
    }

    /// The projection for `filter` among `within` (every survey when nil; in the list's
    /// order). Without sections, a search among many surveys finds the first screenfuls now
    /// (walking every survey in the sort's order when sorted) and leaves the rest to
    /// `searchToFinish`.
    private mutating func project(_ records: RecordList, filter: RecordFilter, keep: () -> Set<Int>,
                                  within: SearchCandidates?) {
        var candidates = within ?? .all(records.count)
        if !filter.isEmpty, !order.sections, let index = searchIndex, candidates.count >= window.threshold {
            if within == nil, order.sortKey != .entry, let sortIndex { candidates = .only(sortIndex.sorted()) }
            let (words, keep) = (index.foldQuery(filter.words), keep())
            let (found, rest) = index.firstMatches(candidates, words: words, keep: keep, limit: window.limit, budget: window.budget)
            let ascending = order.sortKey == .entry
            projection = ListProjection(shown: found, recordCount: records.count, ascending: ascending)
            if let rest {
                searchGeneration += 1
                searchToFinish = SearchJob(generation: searchGeneration, index: index, texts: index.snapshot, text: filter.text,
                                           words: words, keep: keep, found: found, rest: rest, recordCount: records.count,
                                           ascending: ascending)
            } else {
                remember(filter.text, found, recordCount: records.count)
            }
            return
        }
        projection = ListProjection(records: records, filter: filter, order: order, keep: keep(), index: searchIndex,
                                    within: within?.indices, names: names, sorting: sortIndex)
        if !filter.isEmpty { remember(filter.text, projection.shownRecords, recordCount: records.count) }
    }

    /// The projection after a few surveys changed, were added or were deleted (a commit, an
    /// Add, a delete, an undo of one), without ordering them all again; nil when too much
    /// changed for that to pay.
    private func repositioned(from old: RecordList, to records: RecordList, filter: RecordFilter) -> ListProjection? {
        if records.isSameStorage(as: old) { return projection }
        let words = filter.isEmpty ? [] : searchIndex?.foldQuery(filter.words) ?? []
        let pinned = self.pinned
        let isShown: (Int) -> Bool = { i in
            filter.isEmpty || (records[i].instanceID.map(pinned.contains) ?? false)
                || (searchIndex.map { $0.matches(i, words: words) } ?? filter.matches(records[i]))
        }
        if records.count == old.count {
            let changed = records.differingIndices(from: old)
            guard changed.count <= 64 else { return nil }
            var moving = [Bool](repeating: false, count: old.count)
            for i in changed { moving[i] = true }
            return projection.repositioned(removing: { moving[$0] }, moved: { $0 }, inserting: changed, recordCount: records.count,
                                           isShown: isShown, order: order, sorting: sortIndex, names: names, records: records)
        }
        // One stretch replaced by another: what lies after it moves by the difference.
        let (prefix, suffix) = records.changedStretch(from: old)
        let (oldEnd, newEnd) = (old.count - suffix, records.count - suffix)
        guard oldEnd - prefix <= 64, newEnd - prefix <= 64 else { return nil }
        let shift = newEnd - oldEnd
        return projection.repositioned(removing: { $0 >= prefix && $0 < oldEnd }, moved: { $0 >= oldEnd ? $0 + shift : $0 },
                                       inserting: Array(prefix..<newEnd), recordCount: records.count,
                                       isShown: isShown, order: order, sorting: sortIndex, names: names, records: records)
    }
}

/// The list feature's own rules for `/` search, sections and sort (bubbles' list filtering):
/// each writes nothing but the list's state and says what changed, so the app-level part
/// (`AppState+Filter`) only places the focus, opens the popover and words the status line.
extension SurveyListState {
    /// `/`: the line opens holding the filter in force, so it can be refined. True when a list
    /// this large must have its index built in the background first.
    mutating func openFilterLine(recordCount: Int) -> Bool {
        filterInput = TextInput(text: filter.text)
        guard buildsIndexInBackground(for: recordCount) else { return false }
        indexPending = true
        return true
    }

    /// Enter on the `/` line: what was typed becomes the filter in force.
    mutating func keepFilterLine() {
        guard let input = filterInput else { return }
        setFilter(input.text)
        filterInput = nil
    }

    /// Esc on the `/` line: no filter at all.
    mutating func dropFilter() {
        filterInput = nil
        setFilter("")
    }

    /// F6: sections by the initial of the last name, or back to the plain list.
    mutating func toggleSections() { order.sections.toggle() }

    /// `s`: the next sort key (entry order, last name, first name, age); it leaves sections,
    /// which have an order of their own.
    mutating func cycleSortKey() {
        order = ListOrder(key: order.sections ? .lastName : names.next(after: order.key), sections: false)
    }

    /// `b`, `i`: the list narrowed to `restriction`, or every survey again when it is
    /// narrowed that way already. Whether it is narrowed now.
    mutating func toggleRestriction(_ restriction: ListRestriction) -> Bool {
        if let current = self.restriction, current.isSameKind(as: restriction) {
            self.restriction = nil
            return false
        }
        self.restriction = restriction
        return true
    }

    /// The surveys sent back changed (a sync brought reviews): a list narrowed to them
    /// follows (a survey fixed and sent leaves it). Whether it was narrowed to them.
    mutating func followSentBack(_ ids: Set<String>) -> Bool {
        guard case .sentBack? = restriction else { return false }
        restriction = .sentBack(ids)
        return true
    }

    /// A record edited while a filter is on stays listed until the filter changes, so it
    /// does not vanish under the typing hand.
    mutating func pinWhileFiltered(_ id: String?) {
        if !activeFilter.isEmpty, let id { pinned.insert(id) }
    }

    /// What the status line says after F6 or `s`.
    var orderRemark: String {
        order.sections ? "Sections A–Z by \(names.label(.lastName)) (F6 again for \(names.label(order.key)))"
            : "Sorted by \(names.label(order.key))"
    }

    private mutating func setFilter(_ text: String) {
        let filter = RecordFilter(text)
        if filter != self.filter { pinned = [] }
        self.filter = filter
    }

    // MARK: The selection (the record the form shows) and the scroll

    /// A fresh list for another document, sorting and sectioning by its questionnaire's names.
    init(names: ListNames) { self.names = names }

    /// A list in `order`, before any records (tests build one to refresh).
    init(order: ListOrder) { self.order = order }

    /// The highlight on a document index: the record the form shows.
    mutating func select(_ index: Int) { rows.cursor = index }

    /// After records went (a delete, a reload, an undo): the highlight stays in the list.
    mutating func clampSelection(toCount count: Int) {
        rows.cursor = min(max(0, rows.cursor), max(0, count - 1))
    }

    /// Scrolls so `row` (and `top`, its section header) is in view: as little as possible,
    /// or `jump` rows more (`ScrollingList.keepInView`).
    mutating func keepInView(row: Int?, from top: Int?, height: Int, jump: Int = 0) {
        rows.keepInView(row: row, from: top, height: height, rowCount: projection.rowCount, jump: jump)
    }

    /// The order remembered for this document (session memory), and the projection in it.
    mutating func restore(_ order: ListOrder, records: RecordList) {
        self.order = order
        refresh(records)
    }

    /// The form's language changed: sort and section by its names in that language.
    mutating func rename(_ names: ListNames) { self.names = names }

    /// A key typed on the `/` line: records pinned by an edit under the old filter go.
    mutating func editFilterLine(_ change: (inout TextInput) -> Void) {
        guard filterInput != nil else { return }
        change(&filterInput!)
        pinned = []
    }
}

/// Which surveys a narrowed list shows, asked again at every change of the list: a survey
/// finished leaves the incomplete ones at once, one kept with Ctrl-S joins them.
public enum ListRestriction: Equatable, Sendable {
    /// By id: the surveys a supervisor sent back.
    case sentBack(Set<String>)
    case incomplete

    func isSameKind(as other: ListRestriction) -> Bool {
        switch (self, other) {
        case (.sentBack, .sentBack), (.incomplete, .incomplete): true
        case (.sentBack, _), (.incomplete, _): false
        }
    }

    func admits(_ record: Record) -> Bool {
        switch self {
        case .sentBack(let ids): return record.instanceID.map(ids.contains) ?? false
        case .incomplete: return record.isIncomplete
        }
    }
}
