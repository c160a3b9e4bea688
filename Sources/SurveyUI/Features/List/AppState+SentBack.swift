import SurveyValues
import SurveyForms

/// The surveys a supervisor sent back (issue 31): `has issues` or `rejected` in the review
/// the last sync brought, not yet fixed and sent. The title counts them, `b` narrows the list
/// to them (the `/` filter and the order apply within), and the comment shows on the form
/// beside the questions it names (`ReviewNotes`). A narrowed list follows a sync's reviews
/// (`SurveyListState.sentBackChanged`).
extension AppState {
    /// The ids of the surveys sent back, as the ledger's summary has them.
    var sentBackIDs: Set<String> {
        guard let reviews = session.sync?.reviews, !reviews.isEmpty else { return [] }
        return Set(reviews.compactMap { id, review in review.sendsBack ? id : nil })
    }
}
