import FoundationEssentials
import SurveyValues
import SurveyForms

/// A change this laptop holds to a survey that is another role's, found at a sync: the
/// server would refuse it (row-level security) at every sync, so it is never sent.
public struct OthersChange: Equatable, Sendable {
    public enum Fate: Equatable, Sendable {
        /// An edit or a delete of a survey the server has: kept here as a conflict against
        /// the server's version, this laptop's answers staying in the survey, until someone
        /// takes theirs (`survey resolve ID --theirs`, `t`); nothing is lost.
        case keptAsConflict
        /// A survey merged from another laptop's copy that the server does not have yet: left
        /// for that laptop to send, so the server never makes this laptop its owner.
        case leftForItsLaptop
    }

    public var id: String
    public var owner: String
    public var fate: Fate

    public init(id: String, owner: String, fate: Fate) {
        self.id = id
        self.owner = owner
        self.fate = fate
    }

    /// "uuid:x: not taken: it is ana's survey (…); this laptop's change is kept as a conflict
    /// (survey resolve uuid:x --theirs takes ana's)", one line for `survey sync`.
    public var line: String {
        switch fate {
        case .keptAsConflict:
            let whose = owner.isEmpty ? "its laptop's" : "\(owner)'s"
            return "\(id): not taken: \(SurveyOwner.reason(owner)); this laptop's change is kept as a conflict "
                + "(survey conflicts shows it; survey resolve \(id) --theirs takes \(whose))"
        case .leftForItsLaptop:
            return "\(id): not sent: \(SurveyOwner.reason(owner)); it was merged from "
                + (owner.isEmpty ? "another laptop's copy" : "\(owner)'s copy") + ", which sends it"
        }
    }
}

extension SyncPlan {
    /// Turns each change this laptop holds to another role's survey (`changes`, with the
    /// owner the ledger or the server's refusal named) into what it becomes here, and notes
    /// each owner. An edit becomes a conflict on each answer it changed, theirs being the
    /// version the server has (the base); a survey brought back here after a delete there is
    /// a conflict on the whole survey (as an edit meeting a delete is); a delete here brings
    /// the survey back, as the server has it, with a conflict on the whole survey, so the
    /// person sees what was refused. Taking theirs then leaves the survey as the server has
    /// it, and nothing goes out; keeping mine is refused (`resolve`). A survey the server does
    /// not have (merged from another copy, `OthersChange.Fate.leftForItsLaptop`) is left as it
    /// is, and not sent.
    public static func holdOthersChanges(_ changes: [(change: OutgoingChange, owner: String)],
                                         in state: inout SyncState) -> [OthersChange] {
        var held: [OthersChange] = []
        for (change, owner) in changes {
            let id = change.id
            guard change.baseRevision?.number != nil, let base = state.ledger.bases[id], state.ledger.conflicts[id] == nil else {
                held.append(OthersChange(id: id, owner: owner, fate: .leftForItsLaptop))
                continue
            }
            state.ledger.owners[id] = owner
            let fields: [FieldConflict]
            if change.deleted {
                var record = Record(base.answers)
                record[Record.instanceIDKey] = .string(id)
                state.records.append(record)
                fields = [FieldConflict(path: SyncFieldPath(), base: .dictionary(base.answers), mine: nil,
                                        theirs: .dictionary(base.answers))]
            } else if base.deleted {
                fields = [FieldConflict(path: SyncFieldPath(), base: .dictionary(base.answers),
                                        mine: .dictionary(change.answers), theirs: nil)]
            } else {
                let keys = Set(change.answers.keys).union(base.answers.keys).sorted()
                fields = keys.filter { change.answers[$0] != base.answers[$0] }.map { key in
                    FieldConflict(path: SyncFieldPath([.key(key)]), base: base.answers[key], mine: change.answers[key],
                                  theirs: base.answers[key])
                }
                guard !fields.isEmpty else { continue }
            }
            state.ledger.conflicts[id] = SyncLedger.Conflict(theirs: base, fields: fields)
            held.append(OthersChange(id: id, owner: owner, fate: .keptAsConflict))
        }
        return held
    }

    /// After a merge of `other` (`SyncPlan.incoming(from:adoptingBasesInto:)`, then `apply`),
    /// notes whose the surveys it brought are, so this laptop neither changes them nor sends
    /// them as new and becomes their owner on the server (issue 28). A survey `added` here:
    /// the owner the other copy knew, else, when the server does not have it, the role the
    /// other copy last synced as ("" if it never synced): it is that laptop's to send. A
    /// survey already here takes the other copy's owner only where that came from the server
    /// (its base has the server's revision) and this ledger knows none: an owner the other
    /// copy only guessed from a merge could be wrong about a survey this laptop made.
    public static func noteOwners(from other: OtherDocument, added: [String], in ledger: inout SyncLedger) {
        for id in added where ledger.owners[id] == nil {
            if let owner = other.ledger.owners[id] {
                ledger.owners[id] = owner
            } else if other.ledger.bases[id]?.revision?.number == nil {
                ledger.owners[id] = other.ledger.role ?? ""
            }
        }
        for (id, owner) in other.ledger.owners where ledger.owners[id] == nil && !owner.isEmpty {
            if other.ledger.bases[id]?.revision?.number != nil { ledger.owners[id] = owner }
        }
    }
}
