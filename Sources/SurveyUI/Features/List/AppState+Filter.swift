import SurveyValues
import SurveyForms

/// `/` search, sections and sort: how the list is narrowed and ordered. None of it touches
/// the document; each change recomputes the projection and keeps the highlight on a record
/// the list shows.
extension AppState {
    /// `/` from the list or the form: the filter line opens above the list (in the popover
    /// when collapsed). After `committingField`.
    mutating func beginFilter() -> [Effect] {
        guard document != nil else { return [] }
        let buildsIndex = list.openFilterLine(recordCount: recordCount)
        if layout.isSplit {
            screen.moveFocus(to: .list)
            popovers.dismiss()
        } else {
            popovers.present(.list)
        }
        refreshList()
        return buildsIndex ? [.buildSearchIndex] : []
    }

    /// "Indexing 1,000,000 surveys for search…": what the status line says while the index
    /// of a large list is built and the list is not narrowed yet.
    var indexingRemark: StatusMessage? {
        list.isWaitingForIndex ? .init("Indexing \(counted(recordCount, "survey")) for search…") : nil
    }

    /// The index built in the background: the list narrows to what was typed meanwhile.
    mutating func takeSearchIndex(_ index: SearchIndex) {
        list.take(index, records: records)
        refreshList()
    }

    /// The rest of a search, finished in the background: every match shows, and the title
    /// counts them.
    mutating func takeFinishedSearch(_ done: FinishedSearch) {
        if list.takeFinished(done) { listDidChange() }
    }

    /// The projection again, after the filter or order changed.
    mutating func refreshList() {
        list.refresh(records)
        listDidChange()
    }
}

extension AppState {
    /// The `/` search's background work (`Outcome.search`).
    mutating func reduce(_ outcome: SearchOutcome) -> [Effect] {
        switch outcome {
        case .indexBuilt(let index):
            takeSearchIndex(index)
        case .finished(let done):
            takeFinishedSearch(done)
        }
        return []
    }
}
