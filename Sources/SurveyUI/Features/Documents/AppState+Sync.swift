import SurveyValues
import SurveyForms

/// The team's database in the app (issue 19): F9 syncs the document in the background
/// (the keyboard stays live; what came in shows in the list at once), F4 says what is
/// unsent, when the last sync was and what is in conflict, and its `c` opens the conflicts:
/// each field with this laptop's answer and the other side's, settled by `m` (mine) or `t`
/// (theirs), which is a change that goes out at the next sync like any edit.
extension AppState {
    /// A sync key: the session decides (`DocumentSession.reduce`), and what it asks is done
    /// here. F9 saves a typed answer first (a refused one keeps the sync from starting).
    mutating func reduce(_ action: SyncAction) -> [Effect] {
        let run: (inout AppState) -> [Effect] = { state in
            switch state.session.reduce(action) {
            case .none:
                return []
            case .tell(let message, let effects):
                state.statusLine.tell(message)
                return effects
            case .warn(let message):
                state.statusLine.warn(message)
                return []
            case .showConflicts(let shown):
                state.screen.showConflicts(shown)
                return []
            case .resolve(let effect):
                return [effect]
            }
        }
        return action == .start ? committingField(then: run) : run(&self)
    }
}

extension AppState {
    /// The team's database (`Outcome.sync`): what a sync reports of the open document.
    mutating func reduce(_ outcome: SyncOutcome) -> [Effect] {
        switch outcome {
        case .summaryRead(let name, let summary):
            if name == documentName {
                session.syncRead(summary)
                _ = follow(list.sentBackChanged(in: listContext))
            }
        case .progress(let name, let text):
            if name == documentName { statusLine.tell(text) }
        case .finished(let name, var message, let isError, let reloaded, let summary, let taken):
            // A sync or a resolution is over: the document as written comes in (the survey
            // shown stays shown, by id), with the ledger's summary and what to say; a newer
            // form version the sync took is used at once (`takeForm`).
            session.syncEnded(name)
            guard name == documentName else { return [] }
            if let reloaded, session.differs(from: reloaded) { takeMergedDocument(reloaded) }
            if let taken, let kept = takeForm(taken) { message += "; " + kept }
            if let summary {
                session.syncRead(summary)
                _ = follow(list.sentBackChanged(in: listContext))
            }
            if session.sync?.conflicts.isEmpty ?? true { screen.showConflicts(false) }
            if isError { statusLine.warn(message) } else { statusLine.tell(message) }
        }
        return []
    }
}

/// The marks the list and the form show of a survey, from the sync's ledger.
extension DocumentSession {
    /// The owner of `record` when it is another role's (nil: this laptop may change it).
    func othersOwner(of record: Record) -> String? {
        // Asked of every list row each frame: a document with none costs nothing.
        guard let others = sync?.othersSurveys, !others.isEmpty, let id = record.instanceID else { return nil }
        return others[id]
    }

    /// The marks the list shows before a survey's name: whose it is when it is another
    /// role's (`@ana`), then the review.
    func syncMarks(of record: Record) -> String? {
        let owner = othersOwner(of: record).map(SurveyOwner.mark)
        let review = reviewMark(of: record)
        guard owner != nil || review != nil else { return nil }
        return [owner, review].compactMap { $0 }.joined(separator: " ")
    }

    /// The review mark the list shows before a survey's name.
    func reviewMark(of record: Record) -> String? {
        // Most documents have no review: asked of every row each frame, it must cost nothing
        // then (reading a survey's id walks its packed answers).
        guard let reviews = sync?.reviews, !reviews.isEmpty else { return nil }
        guard let id = record.instanceID, let review = reviews[id] else { return nil }
        switch review.state {
        case .approved: return "✓"
        case .hasIssues: return "!"
        case .rejected: return "✗"
        case .edited: return nil
        }
    }
}
