import SurveyModel

/// The survey list's own state (bubbles' `list`): the `/` filter and its input line, the
/// order, and the projection they give, kept apart from the document so that filtering or
/// sorting never moves a record in the file. The highlight itself stays `AppState.listCursor`,
/// a document index the projection maps to a row.
public struct SurveyListState: Equatable, Sendable {
    /// The filter in force (Enter on the `/` line keeps it; Esc clears it).
    public var filter = RecordFilter("")
    /// The `/` line while it is being typed: the list narrows with each key.
    public var filterInput: EditBuffer?
    public var order = ListOrder()
    /// What sorting and sections go by (the questionnaire's names for a survey).
    public var names = ListNames.standard
    /// Ids of records edited while a filter was on: they stay listed until it changes, so a
    /// record does not vanish under the typing hand.
    public var pinned: Set<String> = []
    public private(set) var projection = ListProjection()
    /// Folded text of every record, built the first time a filter is used and kept up to
    /// date from then on.
    private(set) var searchIndex: SearchIndex?
    /// What the projection was last built from, so a filter typed further (each key adds to
    /// it) searches only the records the previous one showed.
    private var builtFrom: (records: RecordList, order: ListOrder, filter: String, pinned: Set<String>)?

    public init() {}

    public static func == (a: SurveyListState, b: SurveyListState) -> Bool {
        a.filter == b.filter && a.filterInput == b.filterInput && a.order == b.order && a.pinned == b.pinned
            && a.projection == b.projection && a.searchIndex == b.searchIndex
    }


    /// What narrows the list right now: the line being typed, else the kept filter.
    public var activeFilter: RecordFilter { filterInput.map { RecordFilter($0.text) } ?? filter }

    /// Whether the `/` line shows above the rows.
    public var showsFilterLine: Bool { filterInput != nil || !filter.isEmpty }

    /// Lets go of the records the projection was built from (the next refresh builds afresh),
    /// so the document's records can be changed in place without being copied.
    mutating func forgetRecords() {
        builtFrom = nil
    }

    mutating func refresh(_ records: RecordList) {
        let keep: Set<Int> = pinned.isEmpty ? []
            : Set(records.indices.filter { records[$0].instanceID.map(pinned.contains) ?? false })
        let filter = activeFilter
        if !filter.isEmpty {
            searchIndex = searchIndex?.updated(for: records) ?? SearchIndex(records: records)
        }
        var within: [Int]?
        if let last = builtFrom, !last.filter.isEmpty, filter.text.hasPrefix(last.filter), last.order == order,
           last.pinned == pinned, last.records.isSameStorage(as: records) {
            within = projection.shownRecords
        }
        projection = ListProjection(records: records, filter: filter, order: order, keep: keep, index: searchIndex,
                                    within: within, names: names)
        builtFrom = (records, order, filter.text, pinned)
    }
}
