import SurveyValues
import SurveyForms

/// The document manager (F3): switching, creating, renaming, deleting and restoring
/// documents. The file work is done by effects; these helpers decide what to ask for and
/// what the screen shows when the answer comes back.
extension AppState {
    /// Index of the highlighted row in `documents`.
    public var managerCursor: Int { manager.cursorIndex(open: documentName) }

    /// What the manager reads of the app (`DocumentManagerState.Context`).
    var managerContext: DocumentManagerState.Context { .init(openDocument: documentName, layout: layout) }

    var highlightedDocument: DocumentSummary? { manager.highlighted(open: documentName) }

    /// Why the highlighted document cannot be read, or what its name needs, shown on the
    /// status line while nothing else is said there, so "unreadable" never goes unexplained.
    var highlightedDocumentRemark: StatusMessage? {
        guard popover == .documents, let doc = highlightedDocument else { return nil }
        if let problem = doc.problem { return .init(problem, kind: .error) }
        return doc.note.map { .init("\(doc.name): \($0)") }
    }

    /// A key on the manager: its own reducer decides (`DocumentManagerState.reduce`), and
    /// what it asks of the app is done here.
    mutating func reduce(_ action: DocumentManagerAction) -> [Effect] {
        switch manager.reduce(action, in: managerContext) {
        case .none:
            return []
        case .open(let target):
            // Switch (remembering where we were in this one).
            guard confirmLeavingUnsavedDocument() else { return [] }
            popovers.dismiss()
            if target == documentName && !session.documentMissing && session.loadError == nil { return [] }
            return [.rememberSession, .openDocument(target)]
        case .create:
            guard confirmLeavingUnsavedDocument() else { return [] }
            popovers.dismiss()
            return [.rememberSession, .createDocument]
        case .rename(let old, let new):
            return [.renameDocument(from: old, to: new)]
        case .confirmDelete(let name, let records):
            popovers.present(.confirmDelete(name: name, records: records))
            return []
        case .restoreDeleted:
            return [.restoreDocument]
        }
    }

    /// Leaving a document that exists only in memory (switching, a new document, quitting)
    /// asks first: the first try shows the save-as box, doing it again leaves.
    mutating func confirmLeavingUnsavedDocument() -> Bool {
        guard session.documentMissing, !session.leaveConfirmed else { return true }
        session.confirmLeaving()
        popovers.present(.saveAs(TextInput(text: session.saveAsSuggestion ?? documentName)))
        statusLine.warn("“\(documentName)” is only in memory: save it, or do that again to leave it unsaved")
        return false
    }

    /// The text box the keys type into (the save-as name, the rename field, the `/` line or
    /// the form's field): each is a `TextInput` and edits itself; this only finds which.
    mutating func editActiveText(_ change: (inout TextInput) -> Void) {
        if popovers.editText(change) {
            return
        } else if popover == .documents, manager.renaming != nil {
            manager.editRename(change)
        } else if list.filterInput != nil {
            list.editFilterLine(change)   // the list narrows at once
            list.refresh(records)
            // The rows on screen are counted after the refresh (the `/` line, the sections).
            list.followChange(in: listContext)
        } else if editing != nil {
            form.editText(change)   // in place: a copy would duplicate a long value on every key
        }
    }
}

extension AppState {
    /// What the file work of the documents found (`Outcome.documents`): the manager's list
    /// takes its part first (`DocumentManagerState.reduce`), then the app its own.
    mutating func reduce(_ outcome: DocumentOutcome) -> [Effect] {
        // A document vanishing is the app's alone, so a listing that finds the open one gone
        // can go on as one (below) without the manager taking the listing's news twice.
        if case .vanished = outcome {} else { manager.reduce(outcome, in: managerContext) }
        switch outcome {
        case .listed(let list):
            // The manager took the listing: the open document missing from it is gone, as if
            // the runtime had found it gone (below; the manager has nothing to do with that).
            if !session.documentMissing && document != nil && !list.contains(where: { $0.name == documentName }) {
                return reduce(.vanished(unreadable: nil, suggestion: documentName))
            }
        case .opened(let name, let loaded, let draft, let place, let form):
            // Another document is now current: its records, its draft, its last-viewed record.
            session.open(name, form: form, loaded: loaded)
            self.form.reset(draft: draft)
            document = try? loaded.get()
            // Keep a message this same action already gave (a delete says where it went). A
            // read-only document's reason shows instead (`readOnlyRemark`).
            if document != nil, status == nil, session.formTrouble == nil { statusLine.tell("Opened “\(name)”") }
            rollback = nil
            // Undo steps belong to the document they changed (`session.open` dropped them); the
            // filter to the list it narrowed.
            self.list = SurveyListState(names: ListNames(questionnaire))
            restorePlace(place)
            self.form.highlight(firstFormItem)
            if recordCount == 0 {
                screen.moveFocus(to: .form)   // nothing to browse: the first key starts the first survey
            }
            // Its review marks and conflicts, when it has a sync ledger.
            return [.rememberSession, .readSyncSummary]
        case .created(let name):
            return [.openDocument(name), .listDocuments]
        case .renamed(let old, let new):
            // The same document under a new name: its audit log moved with it, and the
            // survey's open log goes on there (not ended and written under the old name).
            if session.renamed(from: old, to: new) { audit.documentRenamed(from: old, to: new) }
            statusLine.tell("Renamed “\(old)” to “\(new)”")
            return [.listDocuments]
        case .deleted(let name, let records, let replacement):
            // Said where it went; the current document's neighbour (the next, else the
            // previous) is shown, or a fresh Untitled when it was the only one.
            statusLine.tell("Moved “\(name)” (\(records.map { counted($0, "record") } ?? "unreadable")) to the trash; u brings it back")
            guard name == documentName else { return [.listDocuments] }
            if let next = replacement ?? manager.neighbour(of: name) { return [.openDocument(next), .listDocuments] }
            return [.createDocument]
        case .restored(let name):
            statusLine.tell("Restored “\(name)”")
            return [.listDocuments]
        case .savedAs(let name):
            session.savedAs(name)
            popovers.dismiss()
            statusLine.tell("Saved \(counted(recordCount, "record")) as “\(name)”")
            return [.rememberSession, .listDocuments]
        case .vanished(let reason, let suggestion):
            // The current file is gone from disk (deleted or renamed outside the app), or
            // another program left it unreadable. It is not recreated or overwritten: the change
            // that was being saved goes back on the form (as after a failed save), the records
            // stay in memory, and the user is offered a name to save them under.
            if rollback != nil { restoreRollback() }
            session.vanish(reason: reason, suggestion: suggestion)
            // It appears unasked, over someone keying heads-down: what they were typing goes
            // neither into the name nor, with Enter, saves under it (as the kept surveys' offer).
            popovers.present(.saveAs(TextInput(text: suggestion)),
                             holdingChoicesUntil: environment.clock.now.addingTimeInterval(Self.recoveryChoiceHold))
            statusLine.warn(reason == nil
                 ? "“\(documentName)” is gone from the folder: save its records under a name"
                 : "“\(documentName)” was made unreadable by another program: save its records under a name")
        case .changedOnDisk(let reloaded):
            return documentChangedOnDisk(reloaded)
        case .movedOutside(let name):
            // Another program renamed the current file (`survey docs rename`, a file
            // manager): the app follows it, so nothing is written under the old name.
            let old = documentName
            if session.renamed(from: old, to: name) { audit.documentRenamed(from: old, to: name) }
            statusLine.tell("“\(old)” was renamed to “\(name)” outside survey: following it")
            return [.rememberSession]
        case .operationFailed(let message):
            form.awaitAttachment(nil)   // a copy that failed: the path stays typed, with why
            statusLine.warn(message)
            if case .confirmDelete = popover { popovers.present(.documents) }
        case .historyRead(let name, let survey, let entries):
            session.historyRead(survey: survey, entries, document: name)
        }
        return []
    }
}
