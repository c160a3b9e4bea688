import FoundationEssentials
import SurveyModel

/// One sync of a document through the team's PostgreSQL, the same for `survey sync` and the
/// app's F9: pull what changed since the ledger's cursor and fold it in (`SyncPlan.apply`:
/// fast-forward, three-way merge, conflicts kept), commit; then push what changed here since
/// its base (`SyncPlan.outgoing`), acknowledge what the server stored, commit again. Every
/// commit is the store's (`commitSync`: the deleted surveys, the document and the ledger,
/// under the folder lock, put back whole on a failure), so a sync cut off at any point
/// leaves both sides consistent and a second run finishes the job: the server keeps each
/// batch whole or not at all, and the ledger moves its cursor only past rows it kept.
public enum DocumentSync {
    public struct Result: Equatable, Sendable {
        /// Surveys the pull changed here (added, updated, merged, put in conflict, deleted,
        /// reviewed); a survey coming back as this laptop sent it is not counted.
        public var pulled: Int = 0
        public var pushed: Int = 0
        /// Sent but not stored: changed there since (pulled next time), or another's.
        public var refused: [String] = []
        public var events: [SyncEvent] = []
        /// Surveys in conflict after this sync.
        public var conflicts: [String] = []
        /// "form household version 3 taken", when a newer published form came.
        public var formTaken: String?
        /// Surveys on the server this pull could not keep: not applied, noted in the ledger
        /// (F4 counts them), named by `survey sync`.
        public var setAside: [SetAsideRow] = []
        /// Surveys here the server's checks would refuse (an id or answers no laptop keeps,
        /// `SetAsideRow`): kept here, not sent, so they never stop the rest of the push.
        public var notSent: [SetAsideRow] = []
        /// Changes here to another role's surveys: never sent, kept as conflicts or left for
        /// the laptop they were merged from (`DocumentSync+Owners`).
        public var othersChanges: [OthersChange] = []

        /// "Synced “Field”: 3 in, 2 out; 1 conflict (F4, c)".
        public func message(for name: String) -> String {
            var parts = ["\(pulled) in", "\(pushed) out"]
            if let formTaken { parts.append(formTaken) }
            if !notSent.isEmpty { parts.append("\(notSent.count) not sendable (survey sync names them)") }
            if !setAside.isEmpty { parts.append("\(setAside.count) set aside (survey sync names them)") }
            if !refused.isEmpty { parts.append("\(refused.count) not taken by the server (sync again)") }
            parts += othersMessage
            if !conflicts.isEmpty { parts.append(counted(conflicts.count, "survey") + " in conflict (survey conflicts, or F4 then c)") }
            return "Synced “\(name)”: " + parts.joined(separator: ", ")
        }
        public var message: String { message(for: documentName) }
        var documentName = ""
    }

    /// What a pull asks of the server at a time.
    public static let pullBatch = 1_000

    /// Pull then push `document` of `store` through the database `target`; `progress` gets a
    /// line after each batch. `pullOnly`/`pushOnly` for `survey pull` / `survey push`.
    public static func run(store: DocumentStore, document name: String, target: ConnectionString, device: String,
                           pull: Bool = true, push: Bool = true, at date: @escaping () -> Date = { Date() },
                           progress: (String) -> Void = { _ in }) throws -> Result {
        let server = try SurveyServer(target)
        defer { server.connection.close() }
        var result = Result()
        result.documentName = name
        var snapshot = try store.syncSnapshot(of: name)
        let role = try server.role()
        snapshot = try noteRole(role, from: server, store, name, snapshot, at: date)
        let dataset = Self.dataset(of: store, name: name, surveys: snapshot.state.records)
        if pull {
            // A newer form version first, so what comes in is read with it.
            let current = store.documentForm(for: name, firstSurveys: snapshot.state.records).questionnaire.form
            if let formTaken = try FormPublishing.takeNewest(from: server, formID: dataset, store: store, document: name,
                                                             current: current) {
                result.formTaken = formTaken
                progress("Syncing “\(name)”: \(formTaken)")
            }
            var cursor = snapshot.state.ledger.pullCursor ?? 0
            while true {
                let (rows, setAside, next) = try server.pull(dataset: dataset, since: cursor, limit: pullBatch)
                guard !rows.isEmpty || !setAside.isEmpty else { break }
                let incoming = rows.map(Self.incoming)
                var events: [SyncEvent] = []
                // Kept batch by batch: a pull cut off later starts after this one.
                snapshot = try commit(store, name, at: date) { snapshot in
                    var applied = SyncPlan.apply(incoming, to: snapshot.state, at: date())
                    for row in rows { applied.state.ledger.owners[row.instanceID] = row.owner }
                    let arrived = Set(rows.map(\.instanceID))
                    applied.state.ledger.setAside.removeAll { arrived.contains($0.id) }
                    for row in setAside { applied.state.ledger.setAside(row) }
                    applied.state.ledger.pullCursor = next
                    events = applied.events
                    return (applied.state, applied.movedToDeleted)
                }
                cursor = next
                result.pulled += Set(events.filter { $0.kind != .agreed }.map(\.id)).count
                result.events += events
                result.setAside += setAside
                progress("Syncing “\(name)”: \(result.events.count) looked at, \(result.pulled) in…")
                if rows.count + setAside.count < pullBatch { break }
            }
        }
        var sent: [(OutgoingChange, SyncRevision)] = []
        var others: [(change: OutgoingChange, owner: String)] = []
        if push {
            var changes: [OutgoingChange] = []
            for change in SyncPlan.outgoing(from: snapshot.state, device: device) {
                if let problem = SetAsideRow.problem(withID: change.id) ?? SetAsideRow.problem(withAnswers: change.answers) {
                    result.notSent.append(SetAsideRow(id: change.id, owner: device, reason: problem))
                } else if let owner = snapshot.state.ledger.othersOwner(of: change.id, as: role) {
                    others.append((change, owner))
                } else {
                    changes.append(change)
                }
            }
            if !changes.isEmpty {
                let rows = changes.map { outgoing($0, dataset: dataset) }
                let results = try server.push(rows) { step in
                    progress("Syncing “\(name)”: \(step.sent) of \(step.total) out…")
                }
                for (change, pushed) in zip(changes, results) {
                    switch pushed.outcome {
                    case .accepted(let revision), .alreadyThere(let revision):
                        sent.append((change, SyncRevision(revision)))
                    case .refused(let owner):
                        others.append((change, owner))
                    case .stale, .missing:
                        result.refused.append(change.id)
                    }
                }
                result.pushed = sent.count
            }
        }
        snapshot = try commit(store, name, at: date) { snapshot in
            var state = snapshot.state
            for (change, revision) in sent { SyncPlan.acknowledge(change, revision: revision, in: &state.ledger) }
            for (change, _) in sent { state.ledger.owners[change.id] = role }
            result.othersChanges = SyncPlan.holdOthersChanges(others, in: &state)
            state.ledger.lastSync = date()
            return (state, [])
        }
        snapshot = try store.syncSnapshot(of: name, readOnly: true)
        result.conflicts = snapshot.state.ledger.conflicts.keys.sorted()
        return result
    }

    /// Commits what `make` builds on a snapshot of the document. When another program wrote
    /// it meanwhile (the app saving a keyed answer while F9 runs, a shell command), the
    /// commit refuses and writes nothing; it is built again on a fresh snapshot, a few times,
    /// so a sync never fails because someone kept working.
    static func commit(_ store: DocumentStore, _ name: String, at date: () -> Date,
                       _ make: (DocumentStore.SyncSnapshot) throws -> (SyncState, [Record])) throws -> DocumentStore.SyncSnapshot {
        var snapshot = try store.syncSnapshot(of: name)
        for attempt in 1...5 {
            let (state, moved) = try make(snapshot)
            do {
                try store.commitSync(state, over: snapshot, movedToDeleted: moved, at: date())
                return try store.syncSnapshot(of: name)
            } catch where attempt < 5 && !store.isCurrent(snapshot) {
                snapshot = try store.syncSnapshot(of: name)
            }
        }
        return snapshot
    }

    /// Which of the server's surveys are this document's: its form's id (every laptop
    /// keying the form shares them), else the document's name.
    public static func dataset(of store: DocumentStore, name: String, surveys: [Record]) -> String {
        let form = store.documentForm(for: name, firstSurveys: surveys)
        if let id = form.questionnaire.form?.formID, !id.isEmpty { return id }
        return name
    }

    static func incoming(_ row: IncomingRow) -> IncomingVersion {
        IncomingVersion(id: row.instanceID, answers: row.answers, revision: SyncRevision(row.revision), deleted: row.deleted,
                        review: row.review.map { SyncReview($0.state, comment: $0.comment) },
                        formID: row.formID, formVersion: row.formVersion, device: row.device)
    }

    static func outgoing(_ change: OutgoingChange, dataset: String) -> OutgoingRow {
        OutgoingRow(instanceID: change.id, dataset: dataset, answers: change.answers, formID: change.formID,
                    formVersion: change.formVersion, device: change.device, baseRevision: change.baseRevision?.number,
                    deleted: change.deleted)
    }

    /// An error for people: the database's words with the connection string's password
    /// never shown.
    public static func describe(_ error: Error, target: ConnectionString) -> String {
        if let error = error as? DatabaseError { return target.redact(error.message) }
        if let error = error as? DocumentError { return error.message }
        return target.redact("\(error)")
    }
}
