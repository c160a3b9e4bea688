import SurveyValues
import SurveyForms

/// F9 and the conflicts' keys, as the document's session decides them (issue 29: a child
/// reducer, as `VerifySession.reduce`): the session holds what a sync reads and writes (the
/// ledger's summary, the sync running, the conflict highlighted), and says what it asks of
/// the app as a value; `AppState.reduce(_: SyncAction)` does it (`AppState+Sync`).
extension DocumentSession {
    /// What a sync key asks of the app.
    enum SyncRequest: Equatable {
        case none
        /// The status line says this, and `effects` are done.
        case tell(String, effects: [Effect] = [])
        /// Refused, and why.
        case warn(String)
        /// The conflicts in the form's place (`true`), or F4's facts again.
        case showConflicts(Bool)
        /// The highlighted field settled: the runtime writes it (`Effect.resolveConflict`).
        case resolve(Effect)
    }

    mutating func reduce(_ action: SyncAction) -> SyncRequest {
        switch action {
        case .start:
            if let syncing { return .tell("A sync of “\(syncing)” is already running") }
            guard document != nil, !documentMissing else {
                return .warn("“\(documentName)” cannot be synced: it is not a readable file now")
            }
            syncStarted()
            return .tell("Syncing “\(documentName)”…", effects: [.syncDocument])
        case .showConflicts:
            guard let sync, !sync.conflicts.isEmpty else {
                return .tell("No conflicts: every survey agrees with the other side's", effects: sync == nil ? [.readSyncSummary] : [])
            }
            moveConflictCursor(to: conflictCursor)
            return .showConflicts(true)
        case .closeConflicts:
            return .showConflicts(false)
        case .moveConflict(let delta):
            moveConflictCursor(to: conflictCursor + delta)
            return .none
        case .resolve(let keepMine):
            guard let conflicts = sync?.conflicts, conflicts.indices.contains(conflictCursor) else { return .none }
            guard syncing == nil else { return .warn("A sync is running: resolve when it is over") }
            let conflict = conflicts[conflictCursor]
            // Another role's survey keeps the server's answers: only theirs settles it.
            if keepMine, let owner = sync?.othersSurveys[conflict.id] {
                return .warn("Not kept: \(SurveyOwner.reason(owner)); t takes " + (owner.isEmpty ? "its laptop's" : "\(owner)'s") + " answer")
            }
            return .resolve(.resolveConflict(id: conflict.id, path: conflict.path, keepMine: keepMine))
        }
    }
}

extension DocumentSession {
    /// Whether `reloaded`, the document a sync wrote, differs from the one open (byte for
    /// byte, survey by survey): only then is it taken in, so a sync that changed nothing
    /// leaves the screen as it is. No document open: it differs.
    func differs(from reloaded: SurveyDocument) -> Bool {
        document.map { !$0.records.elementsEqual(reloaded.records) { $0.hasIdenticalBytes($1) } } ?? true
    }
}
