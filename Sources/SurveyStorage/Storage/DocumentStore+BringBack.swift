import FoundationEssentials
import SurveyValues
import SurveyForms

/// A survey's answers set to those of an earlier version (`survey history ID --bring-back N`,
/// issue 31): an edit like any other, so the next sync sends it as a new version and the
/// server keeps every version before it. Nothing is overwritten there.
extension DocumentStore {
    /// What a bring-back changed: the survey before and after, and its answers' changes
    /// (none: the survey held those answers already, and nothing was written).
    public struct BroughtBack: Sendable {
        public let before: Record
        public let after: Record
        public let changes: [AnswerChange]
    }

    /// Sets the answers of the survey `id` of `name` to `answers` (its id kept), under the
    /// folder's lock, so the app's save cannot land in between (see `append`). Refused, with
    /// nothing written, when the survey is not in the document, is another enumerator's (only
    /// its owner changes it, on the server as here), or is in conflict (settled first, or the
    /// conflict would be settled by this without a choice). A survey found without an id is
    /// not found (ids are given by the app or `survey add`; this writes nothing else).
    public func bringBack(_ answers: [String: PropertyValue], of id: String, in name: String) throws -> BroughtBack {
        try withFolderLock {
            var document = try load(name).get()
            guard let place = document.records.firstIndex(where: { $0.instanceID == id }) else {
                throw DocumentError("\(id) is not in “\(name)”: nothing brought back (survey sync brings the team's surveys; "
                    + "survey undelete a deleted one)")
            }
            // An unreadable ledger stops nothing here: the sync says why.
            if let ledger = try? syncLedger(for: name) {
                if let owner = ledger.othersOwner(of: id) {
                    throw DocumentError("\(id) is not changed: \(SurveyOwner.reason(owner))")
                }
                if ledger.conflicts[id] != nil {
                    throw DocumentError("\(id) has answers in conflict: settle them first (survey conflicts), then bring the version back")
                }
            }
            let before = document.records[place]
            var values = answers
            values[Record.instanceIDKey] = .string(id)
            let after = Record(values)
            var old = before.values
            old[Record.instanceIDKey] = nil
            let changes = AnswerChanges.between(old, answers)
            // Already as asked: the file is left as it is (an open app, the sync's mark and the
            // other surveys' places all stay).
            guard !changes.isEmpty else { return BroughtBack(before: before, after: before, changes: []) }
            document.records[place] = after
            try save(document, as: name)
            return BroughtBack(before: before, after: after, changes: changes)
        }
    }
}
