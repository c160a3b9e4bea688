import FoundationEssentials
import SurveyValues
import SurveyForms

/// The two functions a sync is made of, without I/O: what came in is applied to a
/// document's state (`apply`), and what changed here goes out (`outgoing`, then
/// `acknowledge`). The database half and `survey merge` read the state, call these, and
/// write what they return (`DocumentStore.commitSync`).
public enum SyncPlan {
    public struct Applied: Equatable, Sendable {
        public var state: SyncState
        public var events: [SyncEvent]
        /// Surveys moved out of the document into its deleted surveys, and ids brought back
        /// from there: what the store writes to `.NAME.deleted.plist`.
        public var movedToDeleted: [Record] = []
        public var broughtBack: Set<String> = []
    }

    /// Applies each incoming version in turn. Unchanged here: taken as it is (fast-forward).
    /// Changed here: merged three ways against the base; a clash is recorded in the ledger
    /// and the document keeps mine there until resolved. Deleted there and unchanged here:
    /// moved to the deleted surveys, so `survey undelete` can bring it back. Edited on one
    /// side and deleted on the other: a conflict on the whole survey, which stays in the
    /// document. A version already known (its revision is the base's, or the one a conflict
    /// holds) changes nothing, so applying the same input twice is the same as once.
    public static func apply(_ incoming: [IncomingVersion], to state: SyncState, at date: Date) -> Applied {
        var applier = SyncApplier(state: state, date: date)
        applier.apply(incoming)
        return applier.result
    }
}

/// `SyncPlan.apply` batch by batch: a pull of 100,000 surveys comes in batches, each applied
/// to the same state (its index of ids built once), and the result is written once at the
/// end, so a pull costs the rows it brings, not the document once per batch.
public struct SyncApplier {
    var records: [Record]
    var deleted: [DeletedRecord]
    /// Public so the database half can note what it set aside and where its cursor is.
    public var ledger: SyncLedger
    let date: Date
    var index: [String: Int] = [:]
    /// Places of surveys moved out, taken out of `records` once at the end (removing each
    /// at once would cost the whole list per delete).
    var removed = Set<Int>()
    /// The last deleted survey of each id, by its place in `deleted`.
    var deletedIndex: [String: Int] = [:]
    var events: [SyncEvent] = []
    var movedToDeleted: [Record] = []
    var broughtBack: Set<String> = []
    /// A version taken as the base of a change still here (this laptop's own push come back,
    /// edited or deleted here since): no event says so, and the change must still go out.
    public private(set) var leftChangesHere = false

    public init(state: SyncState, date: Date) {
        records = state.records
        deleted = state.deleted
        ledger = state.ledger
        self.date = date
        // The first survey of each id: set from the last to the first, so each id is hashed
        // once (looked up, then set, it was hashed twice), in room made once: a sync of 100
        // changes into 100,000 surveys builds this index of every one.
        index.reserveCapacity(records.count)
        for i in records.indices.reversed() {
            if let id = records[i].instanceID { index[id] = i }
        }
        deletedIndex.reserveCapacity(deleted.count)
        for (i, entry) in deleted.enumerated() {
            if let id = entry.record.instanceID { deletedIndex[id] = i }
        }
    }

    /// Room for `count` more surveys in the tables a pull fills (a long pull knows how many
    /// are coming): grown a doubling at a time, the old and new storage of each were in
    /// memory together at the last doubling.
    public mutating func reserveCapacity(_ count: Int) {
        index.reserveCapacity(index.count + count)
        if !ledger.isPartial {
            ledger.bases.reserveCapacity(ledger.bases.count + count)
            ledger.owners.reserveCapacity(ledger.owners.count + count)
        }
        records.reserveCapacity(records.count + count)
        events.reserveCapacity(events.count + count)
    }

    /// Applies each version in turn; returns the events of these alone.
    @discardableResult
    public mutating func apply(_ incoming: [IncomingVersion]) -> ArraySlice<SyncEvent> {
        let first = events.count
        for version in incoming { apply(version) }
        return events[first...]
    }

    public var result: SyncPlan.Applied {
        let kept = removed.isEmpty ? records : records.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        let remaining = broughtBack.isEmpty ? deleted : deleted.enumerated().filter { offset, entry in
            guard let id = entry.record.instanceID, broughtBack.contains(id) else { return true }
            return deletedIndex[id] != offset
        }.map(\.element)
        return SyncPlan.Applied(state: SyncState(records: kept, deleted: remaining, ledger: ledger), events: events,
                                movedToDeleted: movedToDeleted, broughtBack: broughtBack)
    }

    private mutating func apply(_ theirs: IncomingVersion) {
        let id = theirs.id
        if let review = theirs.review, ledger.reviews[id] != review {
            ledger.reviews[id] = review
            events.append(SyncEvent(.reviewed, id))
        } else if theirs.review == nil, theirs.reviewCleared, ledger.reviews[id] != nil {
            ledger.reviews[id] = nil
            events.append(SyncEvent(.reviewed, id))
        }
        let base = ledger.bases[id]
        if let base, base.revision == theirs.revision, base.deleted == theirs.deleted { return }
        if let pending = ledger.conflicts[id], pending.theirs.revision == theirs.revision { return }
        guard let place = index[id] else { return applyToAbsent(theirs, base: base) }
        guard let base else {
            let mine = records[place].answers
            let theirAnswers = theirs.answers
            // Never agreed on: the same answers are agreement; a tombstone of the very
            // answers held here is a delete; anything else is merged with no base.
            if theirs.ownPush, !theirs.deleted, ledger.conflicts[id] == nil, theirAnswers != mine {
                // What this laptop sent before it was cut off, edited here since: the edit goes
                // out against it.
                ledger.bases[id] = theirs.version
                ledger.conflicts[id] = nil
                leftChangesHere = true
                return
            }
            if theirAnswers == mine {
                if theirs.deleted { return delete(at: place, theirs) }
                ledger.bases[id] = theirs.version
                ledger.conflicts[id] = nil
                return events.append(SyncEvent(.agreed, id))
            }
            if theirs.deleted { return conflictOnWholeSurvey(theirs, base: nil, mine: mine) }
            return merge(at: place, base: nil, mine: mine, theirs)
        }
        let changedHere = base.deleted || !base.holdsSameAnswers(as: records[place])
        if changedHere, !base.deleted, !theirs.deleted, let from = theirs.ownEditFrom, from == base.revision,
           ledger.conflicts[id] == nil, Self.changedHereToo(theirs.answers, base: base.answers, mine: records[place]) {
            // This laptop's edit of the base, pushed, then cut off before it heard: it is the
            // base now, and what changed here since goes out as an edit of it.
            let version = theirs.version
            ledger.bases[id] = version
            if version.holdsSameAnswers(as: records[place]) { events.append(SyncEvent(.agreed, id)) } else { leftChangesHere = true }
            return
        }
        if theirs.deleted && !changedHere { return delete(at: place, theirs) }
        if !changedHere {
            setAnswers(theirs.answers, at: place)
            ledger.bases[id] = theirs.version
            ledger.conflicts[id] = nil
            return events.append(SyncEvent(.fastForwarded, id))
        }
        let mine = records[place].answers
        if theirs.deleted { return conflictOnWholeSurvey(theirs, base: base.answers, mine: mine) }
        if theirs.answers == mine {
            ledger.bases[id] = theirs.version
            ledger.conflicts[id] = nil
            return events.append(SyncEvent(.agreed, id))
        }
        merge(at: place, base: base.answers, mine: mine, theirs)
    }

    /// Whether every answer `theirs` changed from `base` is changed here too: what a lost
    /// edit of this laptop's looks like (the edit is still here, or changed again). Device
    /// and role alone do not prove it: two laptops of one person may share a host name, and
    /// a folder restored from a backup holds a base older than the laptop's last push; there
    /// an answer changed only there would be overwritten unseen, so it is merged instead.
    static func changedHereToo(_ theirs: [String: PropertyValue], base: [String: PropertyValue], mine: Record) -> Bool {
        var mine = mine.values
        mine[Record.instanceIDKey] = nil
        for key in Set(theirs.keys).union(base.keys) where theirs[key] != base[key] {
            if mine[key] == base[key] { return false }
        }
        return true
    }

    /// Not in the document: new here, deleted here, or gone both ways.
    private mutating func applyToAbsent(_ theirs: IncomingVersion, base: SyncLedger.Version?) {
        let id = theirs.id
        let keptDeleted = deletedIndex[id].map { deleted[$0] }
        let deletedHere = (base.map { !$0.deleted } ?? false) || (base == nil && keptDeleted != nil)
        if theirs.deleted {
            // Gone on both sides (or never here): remember the tombstone.
            ledger.bases[id] = theirs.version
            ledger.conflicts[id] = nil
            return
        }
        guard deletedHere else {
            // Packed once: the base, and the survey as the base with its id.
            let version = theirs.version
            var record = version.packed
            record[Record.instanceIDKey] = .string(id)
            records.append(record)
            index[id] = records.count - 1
            ledger.bases[id] = version
            return events.append(SyncEvent(.added, id))
        }
        let lastHere = base?.answers ?? keptDeleted!.record.answers
        if base == nil, theirs.ownPush, ledger.conflicts[id] == nil {
            // Sent, then deleted here before the laptop heard: the delete goes out against it.
            ledger.bases[id] = theirs.version
            leftChangesHere = true
            return
        }
        let theirAnswers = theirs.answers
        if theirAnswers == lastHere {
            // Unchanged there: the delete stands and goes out (base kept, or set).
            if base == nil { ledger.bases[id] = theirs.version }
            leftChangesHere = true
            return
        }
        // Deleted here, edited there: the survey comes back, marked, until someone chooses.
        var record = theirs.packed
        record[Record.instanceIDKey] = .string(id)
        records.append(record)
        index[id] = records.count - 1
        if keptDeleted != nil { broughtBack.insert(id) }
        ledger.conflicts[id] = SyncLedger.Conflict(theirs: theirs.version, fields: [
            FieldConflict(path: SyncFieldPath(), base: base.map { .dictionary($0.answers) },
                          mine: nil, theirs: .dictionary(theirAnswers)),
        ])
        events.append(SyncEvent(.conflicted, id, fields: [SyncFieldPath()]))
    }

    private mutating func merge(at place: Int, base: [String: PropertyValue]?, mine: [String: PropertyValue],
                                _ theirs: IncomingVersion) {
        let id = theirs.id
        let outcome = AnswerMerge.merge(base: base, mine: mine, theirs: theirs.answers)
        setAnswers(outcome.answers, at: place)
        if outcome.conflicts.isEmpty {
            ledger.bases[id] = theirs.version
            ledger.conflicts[id] = nil
            events.append(SyncEvent(.merged, id))
        } else {
            ledger.conflicts[id] = SyncLedger.Conflict(theirs: theirs.version, fields: outcome.conflicts)
            events.append(SyncEvent(.conflicted, id, fields: outcome.conflicts.map(\.path)))
        }
    }

    private mutating func conflictOnWholeSurvey(_ theirs: IncomingVersion, base: [String: PropertyValue]?,
                                                mine: [String: PropertyValue]) {
        ledger.conflicts[theirs.id] = SyncLedger.Conflict(theirs: theirs.version, fields: [
            FieldConflict(path: SyncFieldPath(), base: base.map { .dictionary($0) }, mine: .dictionary(mine), theirs: nil),
        ])
        events.append(SyncEvent(.conflicted, theirs.id, fields: [SyncFieldPath()]))
    }

    private mutating func delete(at place: Int, _ theirs: IncomingVersion) {
        let record = records[place]
        removed.insert(place)
        index[theirs.id] = nil
        deleted.append(DeletedRecord(record: record, deletedAt: date))
        deletedIndex[theirs.id] = deleted.count - 1
        movedToDeleted.append(record)
        ledger.bases[theirs.id] = theirs.version
        ledger.conflicts[theirs.id] = nil
        events.append(SyncEvent(.deleted, theirs.id))
    }

    /// The record keeps its id; every other value becomes `answers`.
    private mutating func setAnswers(_ answers: [String: PropertyValue], at place: Int) {
        guard let id = records[place].instanceID else { return }
        var values = answers
        values[Record.instanceIDKey] = .string(id)
        if records[place].values != values { records[place] = Record(values) }
    }
}
