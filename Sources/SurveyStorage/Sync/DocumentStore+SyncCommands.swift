import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues
import SurveyForms

/// The sync's changes a person asks for by hand: deleting a survey so the delete travels,
/// settling a conflict, merging another copy of the document. Each reads the state, calls
/// `SyncPlan`, and commits the result as one change (`commitSync`).
extension DocumentStore {
    /// Moves survey `id` to the document's deleted surveys (where `survey undelete` finds it).
    /// The ledger needs no entry of its own: a survey with a base and no place in the
    /// document is a tombstone, which the next sync sends. Refused while it has conflicts
    /// (resolving is the way to choose between the two versions). Returns the record.
    @discardableResult
    public func deleteSurvey(id: String, from name: String, at date: Date) throws -> Record {
        let snapshot = try syncSnapshot(of: name)
        var state = snapshot.state
        guard let place = state.records.firstIndex(where: { $0.instanceID == id }) else {
            throw DocumentError("“\(name)” has no survey with the id \(id)")
        }
        if let conflict = state.ledger.conflicts[id] {
            throw DocumentError("\(id) has \(conflict.fields.count == 1 ? "a conflict" : "\(conflict.fields.count) conflicts") "
                + "to resolve first (survey conflicts): nothing was deleted")
        }
        if let owner = state.ledger.othersOwner(of: id) {
            throw DocumentError("\(id) is not deleted: \(SurveyOwner.reason(owner))")
        }
        let record = state.records.remove(at: place)
        state.deleted.append(DeletedRecord(record: record, deletedAt: date))
        try commitSync(state, over: snapshot, movedToDeleted: [record], at: date)
        return record
    }

    /// Settles conflicts of survey `id` (`SyncPlan.resolve`), the survey then given the
    /// form's calculations; a roster member removed so is kept in the deleted surveys first.
    /// Returns how many.
    @discardableResult
    public func resolveConflict(id: String, path: SyncFieldPath?, by choice: SyncPlan.Choice, in name: String,
                                at date: Date) throws -> Int {
        var snapshot = try syncSnapshot(of: name)
        var resolved = try SyncPlan.resolve(id: id, path: path, by: choice, in: snapshot.state, at: date)
        // The survey gets the form's calculations where the answers chosen reach: a pull settled
        // them while the answers were still in conflict, from this laptop's (a total for the
        // answer now replaced would go out beside it).
        if let before = snapshot.state.records.first(where: { $0.instanceID == id }),
           let place = resolved.state.records.firstIndex(where: { $0.instanceID == id }) {
            let form = documentForm(for: name, firstSurveys: snapshot.state.records)
            if form.trouble == nil {
                resolved.state.records[place] = form.questionnaire.settledAfterMerge(
                    resolved.state.records[place], before: before, clock: Questionnaire.Clock(now: date))
            }
        }
        // Kept first, as ^D keeps a member: if the commit then fails, nothing is lost. The
        // commit then builds on the deleted surveys as they are now.
        if !resolved.deletedMembers.isEmpty {
            for member in resolved.deletedMembers { try appendDeletedMember(member, for: name) }
            snapshot.files.deleted = fingerprint(atPath: RawPath(deletedURL(for: name).path))
        }
        try commitSync(resolved.state, over: snapshot, movedToDeleted: resolved.movedToDeleted, at: date)
        return resolved.count
    }

    /// What merging the other copies `files` into document `name` does, in order; written
    /// only when `write` (else a dry run). Every file is read before anything is written:
    /// one that cannot be read refuses the whole merge. With the document's `questionnaire`,
    /// each survey merged from both sides gets the form's calculations
    /// (`Questionnaire.settlingMerges`).
    public func mergeOtherCopies(_ files: [URL], into name: String, write: Bool, questionnaire: Questionnaire? = nil,
                                 at date: Date) throws -> (events: [SyncEvent], written: Bool) {
        let snapshot = try syncSnapshot(of: name, readOnly: !write)
        var others: [OtherDocument] = []
        for file in files {
            if Self.isSameFile(file, url(for: name)) {
                throw DocumentError("\(file.path) is “\(name)” itself: nothing to merge")
            }
            others.append(try OtherDocument.read(file))
        }
        var state = snapshot.state
        var events: [SyncEvent] = []
        var moved: [Record] = []
        var broughtBack = Set<String>()
        for other in others {
            let incoming = SyncPlan.incoming(from: other, adoptingBasesInto: &state)
            let applied = SyncPlan.apply(incoming, to: state, at: date)
            state = applied.state
            SyncPlan.noteOwners(from: other, added: applied.events.filter { $0.kind == .added }.map(\.id), in: &state.ledger)
            events += applied.events
            // A survey brought back after being moved out by an earlier file never left the file.
            for id in applied.broughtBack {
                if let i = moved.firstIndex(where: { $0.instanceID == id }) { moved.remove(at: i) } else { broughtBack.insert(id) }
            }
            moved += applied.movedToDeleted
        }
        if let questionnaire { state = questionnaire.settlingMerges(state, before: snapshot.state, events: &events, clock: Questionnaire.Clock(now: date)) }
        guard write else { return (events, false) }
        if state != snapshot.state || !moved.isEmpty || !broughtBack.isEmpty { state.ledger.lastSync = date }
        let written = try commitSync(state, over: snapshot, movedToDeleted: moved, broughtBack: broughtBack, at: date)
        // Registrations and visits merged in change the entity lists here, as where they were keyed.
        // The merge is written whatever happens to a list: one that cannot be written is said.
        if written, let questionnaire {
            do {
                try recordEntities(takenBy: events, before: snapshot.state.records, now: state.records, questionnaire: questionnaire,
                                   clock: Questionnaire.Clock(now: date))
            } catch let error as DocumentError {
                throw MergedButEntityListsNot(events: events, reason: error.message)
            }
        }
        return (events, written)
    }

    /// The same file (device and inode), whatever the path says.
    static func isSameFile(_ a: URL, _ b: URL) -> Bool {
        var first = stat(), second = stat()
        guard stat(a.path, &first) == 0, stat(b.path, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}

/// A merge written whole whose entity lists could not take what it brought: the command says
/// both (the surveys are merged; `survey entities --rebuild` writes the lists again).
public struct MergedButEntityListsNot: Error {
    public var events: [SyncEvent]
    public var reason: String
}
