import FoundationEssentials
import SurveyValues
import SurveyForms

extension SyncPlan {
    /// The surveys changed here since their base, in document order, then the tombstones
    /// of surveys deleted here (sorted by id): new ones (no base), edited ones (answers ≠
    /// base, or brought back after a delete), and deleted ones (a base that is not a
    /// tombstone, no survey in the document). Each carries the revision it was edited
    /// from, so the other side can tell a clash from a fast-forward. A survey with an
    /// unresolved conflict stays here until resolved; a survey without an id cannot be
    /// found again and is left out (the store gives every survey one first).
    ///
    /// A ledger read in part is looked at only where `look` says (`SyncSnapshot.lookForChangesHere`,
    /// made of these very records): elsewhere the answers are the base's.
    public static func outgoing(from state: SyncState, device: String, look: ChangesLook? = nil) -> [OutgoingChange] {
        let ledger = state.ledger
        precondition(!ledger.isPartial || look != nil, "a look for changes here over a ledger read in part needs its ChangesLook")
        var changes: [OutgoingChange] = []
        var present = Set<String>()
        for place in look?.places ?? Array(state.records.indices) {
            let record = state.records[place]
            guard let id = record.instanceID, present.insert(id).inserted, ledger.conflicts[id] == nil else { continue }
            let base = ledger.bases[id]
            if let base, !base.deleted, base.holdsSameAnswers(as: record) { continue }
            var answers = record
            answers[Record.instanceIDKey] = nil
            changes.append(OutgoingChange(id: id, packed: answers, deleted: false, baseRevision: base?.revision,
                                          review: answersReview(ledger.reviews[id]), device: device))
        }
        // Only the ids gone from the document are sorted (sorting every base's took a tenth
        // of a second at every sync of 100,000 surveys).
        let gone = look.map { $0.gone.filter { ledger.conflicts[$0] == nil } }
            ?? ledger.bases.keys.filter { !present.contains($0) && ledger.conflicts[$0] == nil }
        for id in gone.sorted() {
            let base = ledger.bases[id]!
            guard !base.deleted else { continue }
            let last = state.deleted.last { $0.record.instanceID == id }?.record.answers ?? base.answers
            changes.append(OutgoingChange(id: id, answers: last, deleted: true, baseRevision: base.revision,
                                          review: nil, device: device))
        }
        return changes
    }

    /// A fix of a survey a supervisor sent back goes out as `edited`.
    private static func answersReview(_ received: SyncReview?) -> ReviewState? {
        switch received?.state {
        case .hasIssues?, .rejected?: return .edited
        default: return nil
        }
    }

    /// The other side took `change` and named it `revision`: it is now the base both agree
    /// on (a change made here since is still "changed since the base", and goes next time).
    public static func acknowledge(_ change: OutgoingChange, revision: SyncRevision, in ledger: inout SyncLedger) {
        ledger.bases[change.id] = SyncLedger.Version(packed: change.packed, revision: revision, deleted: change.deleted)
        if let review = change.review {
            ledger.reviews[change.id] = SyncReview(review)
        } else if let received = ledger.reviews[change.id], received.state != .edited {
            // The server marks any change of a reviewed survey `edited` (ODK Central's review
            // states); this laptop no longer pulls its own push back to hear it.
            ledger.reviews[change.id] = SyncReview(.edited, comment: received.comment)
        }
    }
}
