import SurveyModel

/// `/` search, sections and sort: how the list is narrowed and ordered. None of it touches
/// the document; each change recomputes the projection and keeps the highlight on a record
/// the list shows.
extension AppState {
    /// `/` from the list or the form: the filter line opens above the list (in the popover
    /// when collapsed), holding the filter in force so it can be refined. After `committingField`.
    mutating func beginFilter() -> [Effect] {
        guard document != nil else { return [] }
        list.filterInput = TextInput(text: list.filter.text)
        if layout.isSplit {
            screen.focus = .list
            popovers.dismiss()
        } else {
            popovers.present(.list)
        }
        var all: [Effect] = []
        if list.buildsIndexInBackground(for: recordCount) {
            list.indexPending = true
            all.append(.buildSearchIndex)
        }
        refreshList()
        return all
    }

    /// "Indexing 1,000,000 surveys for search…": what the status line says while the index
    /// of a large list is built and the list is not narrowed yet.
    var indexingRemark: StatusMessage? {
        list.isWaitingForIndex ? .init("Indexing \(counted(recordCount, "survey")) for search…") : nil
    }

    /// The index built in the background: the list narrows to what was typed meanwhile.
    mutating func takeSearchIndex(_ index: SearchIndex) {
        list.take(index)
        refreshList()
    }

    /// Enter on the `/` line: keep the filter and go to the list.
    mutating func commitFilter() {
        guard let input = list.filterInput else { return }
        setFilter(input.text)
        list.filterInput = nil
        refreshList()
        if list.projection.count == 0 {
            tell("No surveys match “\(list.filter.text)”: / changes the filter, Esc on it clears it")
        }
    }

    /// Esc on the `/` line: no filter.
    mutating func clearFilter() {
        list.filterInput = nil
        setFilter("")
        refreshList()
        tell("Showing all \(counted(recordCount, "survey"))")
    }

    /// Typing on the `/` line narrows the list at once.
    mutating func filterInputDidChange() {
        list.pinned = []
        refreshList()
    }

    /// F6: sections by the initial of the last name, or back to the plain list.
    mutating func toggleSections() -> [Effect] {
        list.order.sections.toggle()
        refreshList()
        tell(list.order.sections ? "Sections A–Z by \(list.names.label(.lastName)) (F6 again for \(list.names.label(list.order.key)))"
                                           : "Sorted by \(list.names.label(list.order.key))")
        return [.rememberSession]
    }

    /// `s` in the list: the next sort key (entry order, last name, first name, age); it
    /// leaves sections, which have an order of their own.
    mutating func cycleSortKey() -> [Effect] {
        list.order = ListOrder(key: list.order.sections ? .lastName : list.names.next(after: list.order.key), sections: false)
        refreshList()
        tell("Sorted by \(list.names.label(list.order.key))")
        return [.rememberSession]
    }

    private mutating func setFilter(_ text: String) {
        let filter = RecordFilter(text)
        if filter != list.filter { list.pinned = [] }
        list.filter = filter
    }

    /// The projection again, after the filter or order changed.
    mutating func refreshList() {
        list.refresh(records)
        listDidChange()
    }
}
