import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension SyncSummary {
    /// The summary of a document as a sync sees it.
    public init(_ state: SyncState) {
        let outgoing = SyncPlan.outgoing(from: state, device: "")
        self.init(unsent: outgoing.count + state.ledger.conflicts.count, lastSync: state.ledger.lastSync,
                  conflicts: state.ledger.conflictList(holding: state.records).map {
                      Conflict(id: $0.id, path: $0.field.path, mine: $0.field.mine, theirs: $0.field.theirs)
                  },
                  reviews: state.ledger.reviews.dictionary, setAside: state.ledger.setAside.count,
                  othersSurveys: state.ledger.othersSurveys)
    }
}
