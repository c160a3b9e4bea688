import SurveyValues
import SurveyForms

/// The surveys a supervisor sent back (issue 31): `has issues` or `rejected` in the review
/// the last sync brought, not yet fixed and sent. The title counts them, `b` narrows the list
/// to them (the `/` filter and the order apply within), and the comment shows on the form
/// beside the questions it names (`ReviewNotes`).
extension AppState {
    /// The ids of the surveys sent back, as the ledger's summary has them.
    var sentBackIDs: Set<String> {
        guard let reviews = session.sync?.reviews, !reviews.isEmpty else { return [] }
        return Set(reviews.compactMap { id, review in review.sendsBack ? id : nil })
    }

    /// `b` in the list: only the surveys sent back, or every survey again.
    mutating func toggleSentBack() -> [Effect] {
        let ids = sentBackIDs
        if ids.isEmpty, list.restriction?.isSameKind(as: .sentBack([])) != true {
            tell("No survey is sent back: a supervisor's “has issues” or “rejected” shows here after a sync (F9)")
            return session.sync == nil ? [.readSyncSummary] : []
        }
        let narrowed = list.toggleRestriction(.sentBack(ids))
        refreshList()
        guard narrowed else {
            tell("Showing all \(counted(recordCount, "survey"))")
            return []
        }
        tell(counted(list.projection.count, "survey") + " sent back: the comment shows beside the questions it names; b shows all")
        return []
    }

    /// A sync brought reviews: a narrowed list follows them (a survey fixed and sent leaves it).
    mutating func sentBackChanged() {
        if list.followSentBack(sentBackIDs) { refreshList() }
    }

    /// `i` in the list: only the incomplete surveys (kept before they pass), or every survey.
    mutating func toggleIncomplete() -> [Effect] {
        let narrowed = list.toggleRestriction(.incomplete)
        refreshList()
        guard narrowed else {
            tell("Showing all \(counted(recordCount, "survey"))")
            return []
        }
        let n = list.projection.count
        tell(n == 0 ? "No survey is incomplete: Ctrl-S keeps a New form as one; i shows all"
             : counted(n, "survey") + " incomplete: Enter goes on keying one, [ Finish ] adds it; i shows all")
        return []
    }
}
