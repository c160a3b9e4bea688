import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// Whose surveys they are, for a sync (issue 28): the ledger keeps each survey's owner, from
/// pulls (`IncomingRow.owner`) and this laptop's accepted pushes (its own role, the
/// connection's `current_user`), and the role it synced as. A change to another role's
/// survey is never sent (row-level security would refuse it at every sync): it is kept as a
/// conflict, or left for the laptop it was merged from (`SyncPlan.holdOthersChanges`).
extension SurveyServer {
    /// The owner of each of `ids` the server has, by id; ids it lacks are left out.
    public func owners(of ids: [String]) throws -> [String: String] {
        var owners: [String: String] = [:]
        var start = 0
        while start < ids.count {
            let batch = ids[start..<min(start + 10_000, ids.count)].map(Optional.some)
            let result = try connection.execute("SELECT instance_id, owner FROM survey.surveys WHERE instance_id = ANY($1::text[])",
                                                [SQLArray.literal(batch)])
            for row in result.rows { if let id = row[0], let owner = row[1] { owners[id] = owner } }
            start += batch.count
        }
        return owners
    }
}

extension DocumentSync {
    /// Notes the role this sync connects as, first, so a sync cut off later never leaves
    /// owners noted with no role to tell the laptop's own surveys from others'; written only
    /// when it is new (the first sync, another person's login). A ledger written before survey
    /// kept owners (it names no role) learns the owner of every survey it has a base for, in
    /// one query, so the app marks a teammate's survey at once; later owners come with pulls.
    /// Returns whether the files were read again (another program wrote them meanwhile).
    @discardableResult
    static func noteRole(_ role: String, from server: SurveyServer, _ store: DocumentStore, _ name: String,
                         _ snapshot: inout DocumentStore.SyncSnapshot, at date: @escaping () -> Date) throws -> Bool {
        guard snapshot.state.ledger.role != role else { return false }
        try snapshot.makeLedgerWhole(in: store)
        let unknown = snapshot.state.ledger.role == nil
            ? snapshot.state.ledger.bases.keys.filter { snapshot.state.ledger.owners[$0] == nil } : []
        let owners = try server.owners(of: unknown.sorted())
        return try commit(store, name, &snapshot, at: date) { snapshot in
            var state = snapshot.state
            state.ledger = snapshot.lendLedger()
            for (id, owner) in owners where state.ledger.owners[id] == nil { state.ledger.owners[id] = owner }
            state.ledger.role = role
            return (state, [], true)
        }
    }
}

extension DocumentSync.Result {
    /// "2 not taken: they are ana's surveys (kept as conflicts: survey conflicts)", and "1
    /// left for bruno's laptop to send", or nil when there is none of either.
    var othersMessage: [String] {
        var parts: [String] = []
        let kept = othersChanges.filter { $0.fate == .keptAsConflict }
        if !kept.isEmpty {
            let owners = Self.owners(kept)
            parts.append(kept.count == 1 ? "1 not taken: it is \(owners) survey (kept as a conflict: survey conflicts)"
                : "\(kept.count) not taken: they are \(owners) surveys (kept as conflicts: survey conflicts)")
        }
        let left = othersChanges.filter { $0.fate == .leftForItsLaptop }
        if !left.isEmpty {
            parts.append("\(left.count) merged from \(Self.owners(left)) copy not sent (that laptop sends "
                + (left.count == 1 ? "it)" : "them)"))
        }
        return parts
    }

    /// "ana's", "ana's and bruno's", "another laptop's".
    private static func owners(_ changes: [OthersChange]) -> String {
        var names: [String] = []
        for change in changes {
            let name = change.owner.isEmpty ? "another laptop's" : "\(change.owner)'s"
            if !names.contains(name) { names.append(name) }
        }
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
