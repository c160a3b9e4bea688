import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension Questionnaire {
    /// `state` after a merge whose `events` these are, with every survey merged or in
    /// conflict settled against what it was `before` the merge (`settledAfterMerge`), its
    /// conflicts on calculations dropped (the events say so). Unchanged without a form.
    public func settlingMerges(_ state: SyncState, before: SyncState, events: inout [SyncEvent],
                               clock: Clock) -> SyncState {
        guard settles else { return state }
        let touched = Set(events.filter { $0.kind == .merged || $0.kind == .conflicted }.map(\.id))
        guard !touched.isEmpty else { return state }
        var mine: [String: Record] = [:]
        for record in before.records {
            if let id = record.instanceID, touched.contains(id), mine[id] == nil { mine[id] = record }
        }
        var result = state
        for (place, record) in state.records.enumerated() {
            guard let id = record.instanceID, touched.contains(id), let before = mine[id] else { continue }
            // Edited here and deleted there: the choice is between two whole surveys.
            if result.ledger.conflicts[id]?.fields.contains(where: \.path.isWholeSurvey) == true { continue }
            result.records[place] = settledAfterMerge(record, before: before, clock: clock)
            guard var conflict = result.ledger.conflicts[id] else { continue }
            let kept = conflict.fields.filter { !isCalculation(at: $0.path) }
            guard kept.count != conflict.fields.count else { continue }
            let last = events.lastIndex { $0.id == id && $0.kind == .conflicted }
            if kept.isEmpty {
                // As a merge without a clash: theirs is the common version now.
                result.ledger.conflicts[id] = nil
                result.ledger.bases[id] = conflict.theirs
                if let last { events[last] = SyncEvent(.merged, id) }
            } else {
                conflict.fields = kept
                result.ledger.conflicts[id] = conflict
                if let last { events[last].fields = kept.map(\.path) }
            }
        }
        return result
    }
}
