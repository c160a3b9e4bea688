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
        list.refresh(records)
        // The rows on screen are counted after the refresh (the `/` line, the sections).
        list.followChange(in: listContext)
        return buildsIndex ? [.buildSearchIndex] : []
    }

    /// "Indexing 1,000,000 surveys for search…": what the status line says while the index
    /// of a large list is built and the list is not narrowed yet.
    var indexingRemark: StatusMessage? {
        list.isWaitingForIndex ? .init("Indexing \(counted(recordCount, "survey")) for search…") : nil
    }
}
