import SurveyModel

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

    /// A key typed on the `/` line: records pinned by an edit under the old filter go.
    mutating func filterLineChanged() { pinned = [] }

    /// F6: sections by the initial of the last name, or back to the plain list.
    mutating func toggleSections() { order.sections.toggle() }

    /// `s`: the next sort key (entry order, last name, first name, age); it leaves sections,
    /// which have an order of their own.
    mutating func cycleSortKey() {
        order = ListOrder(key: order.sections ? .lastName : names.next(after: order.key), sections: false)
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
}
