import FoundationEssentials
import SurveyValues
import SurveyForms

/// The document open (one feature's state): its records and form, the file's condition,
/// undo, and what saving needs to know. Every setter but `document`'s is private to this
/// file, so how the file's condition changes (opened, vanished, saved as, a save failed) and
/// how the undo history moves are each stated once, in the methods below. `document` is the
/// records every feature reads and the record features change; it is written only through
/// `AppState.document`, which keeps the list's projection in step.
public struct DocumentSession: Equatable, Sendable {
    public private(set) var questionnaire: Questionnaire
    public private(set) var documentName: String
    /// nil when the file could not be read: then `loadError` says why and nothing is saved.
    public internal(set) var document: SurveyDocument?
    /// Set while the rest of a large document is still being read: `document` then holds
    /// the records read so far, and nothing may change it (see `AppState+Loading`).
    public private(set) var loading: DocumentLoading?
    public private(set) var loadError: String?
    /// Set when the document's form cannot be used (it has errors, or is missing): its
    /// surveys are shown as stored and nothing may change them (`AppState+ReadOnly`).
    public private(set) var formTrouble: FormTrouble?
    /// Set when the current file was deleted or renamed outside the app: never recreated
    /// behind the user's back.
    public private(set) var documentMissing = false
    /// Why, when the file is still there but another program made it unreadable.
    public private(set) var missingReason: String?
    /// The name the save-as box offers: the document's own when its file is gone, a free
    /// one ("Farm 2") when an unreadable file still holds the name.
    public private(set) var saveAsSuggestion: String?
    /// The user was warned that leaving loses the in-memory records, and may now leave.
    public private(set) var leaveConfirmed = false
    /// Why the last save failed, until a save succeeds: while the entry it put back on the
    /// form is still there, that entry exists only in memory and quitting asks first.
    public private(set) var lastSaveError: String?
    /// Changes to step back and forth through, and what the save in flight will add to them.
    public private(set) var history = UndoHistory()
    private(set) var pendingChange: AppState.PendingChange?
    /// Effects that wait for the change in flight to be saved (`expect(_:then:)`).
    private(set) var effectsAfterSave: [Effect] = []

    init(questionnaire: Questionnaire, documentName: String, formTrouble: FormTrouble? = nil, loadError: String? = nil) {
        self.questionnaire = questionnaire
        self.documentName = documentName
        self.formTrouble = formTrouble
        self.loadError = loadError
        self.readsLastSaved = questionnaire.readsLastSaved
    }

    // MARK: Which document, and its file's condition

    /// Another document is current: its name, form and load result (why it failed; the
    /// records are `AppState.document`'s to take); the file's condition, the undo history and
    /// any change in flight belong to the one left.
    mutating func open(_ name: String, form: DocumentForm, loaded: Result<SurveyDocument, DocumentError>) {
        let questionnaire = form.questionnaire, formTrouble = form.trouble
        let loadError: String? = if case .failure(let error) = loaded { error.message } else { nil }
        if name != documentName { sync = nil; conflictCursor = 0 }
        formWaiting = nil
        documentName = name
        self.questionnaire = questionnaire
        readsLastSaved = questionnaire.readsLastSaved
        self.formTrouble = formTrouble
        self.loadError = loadError
        documentMissing = false
        missingReason = nil
        saveAsSuggestion = nil
        leaveConfirmed = false
        history = UndoHistory()
        pendingChange = nil
        effectsAfterSave = []
    }

    /// A sync took a newer version of the document's form (issue 28): its questions, its
    /// list files and whether it can be used now. Nothing but the form changes.
    mutating func takeForm(_ form: DocumentForm) {
        questionnaire = form.questionnaire
        readsLastSaved = questionnaire.readsLastSaved
        formTrouble = form.trouble
        formWaiting = nil
        followLastSaved()
    }

    /// A form version a sync took while an answer of a stored survey was being typed or
    /// picked: taken once that field is left (`AppState.takeForm`), so the typing never
    /// lands in another version's question.
    public private(set) var formWaiting: DocumentForm?
    mutating func awaitForm(_ form: DocumentForm) { formWaiting = form }

    /// The form's language changed: the same questions, labelled in another language.
    mutating func relabel(_ questionnaire: Questionnaire) {
        self.questionnaire = questionnaire
        followLastSaved()
    }

    // MARK: The team's database

    /// The document's sync as the runtime last read it from its ledger: unsent changes, the
    /// last sync, conflicts kept, review states. nil until read (or never synced).
    public private(set) var sync: SyncSummary?
    /// The document a sync is running for (one at a time), nil when none.
    public private(set) var syncing: String?
    /// The conflict highlighted in the conflicts view.
    public private(set) var conflictCursor = 0

    /// The document's verification record as last read (F4's keyer statistics), nil until read.
    public private(set) var verification: VerificationLog?

    /// The verification record read for `document`: kept when it is this one's (else the
    /// document was left meanwhile, and it is dropped). Whether it was kept.
    mutating func verificationRead(_ log: VerificationLog, document: String) -> Bool {
        guard document == documentName else { return false }
        verification = log
        return true
    }

    /// The edit history of the survey F4 was opened on (issue 31), oldest first.
    public private(set) var edits: SurveyEdits?

    /// The edit history of a survey read for `document`: kept when it is this one's.
    mutating func historyRead(survey: String, _ entries: [EditHistoryEntry], document: String) {
        if document == documentName { edits = SurveyEdits(survey: survey, entries: entries) }
    }

    mutating func syncRead(_ summary: SyncSummary?) {
        sync = summary
        moveConflictCursor(to: conflictCursor)
    }

    mutating func syncStarted() { syncing = documentName }
    /// The sync of `document` is over: another may start (a sync of a document left
    /// meanwhile still ends the one running).
    mutating func syncEnded(_ document: String) { if syncing == document { syncing = nil } }

    mutating func moveConflictCursor(to index: Int) {
        conflictCursor = max(0, min(index, (sync?.conflicts.count ?? 0) - 1))
    }

    /// Whether the form reads `${last-saved#…}` (decided once per questionnaire).
    private var readsLastSaved = false

    /// `${last-saved#name}` reads the document's last survey: the questionnaire is given it
    /// whenever the document changes (`AppState.document`), for forms that read it only.
    mutating func followLastSaved() {
        guard readsLastSaved else { return }
        questionnaire = questionnaire.withLastSaved(document?.lastSaved)
    }

    /// A file was renamed (here, or outside survey, which the app follows): whether it was
    /// this document's, which now goes by the new name.
    mutating func renamed(from old: String, to new: String) -> Bool {
        guard old == documentName else { return false }
        documentName = new
        return true
    }

    /// The file is gone, or another program made it unreadable: the records stay in memory,
    /// and the save-as box offers `suggestion`.
    mutating func vanish(reason: String?, suggestion: String) {
        documentMissing = true
        missingReason = reason
        saveAsSuggestion = suggestion
    }

    /// What a key the save-as box refused while it holds says (`PopoverState.refusesNamingKey`):
    /// why the box appeared, and how to type the name.
    var namingHeldRemark: String {
        let why = missingReason == nil ? "is gone from the folder" : "was made unreadable by another program"
        return "Not typed: “\(documentName)” \(why) and its records wait for a name: "
            + "type it a second after your last key, or Esc for later"
    }

    /// The in-memory records were saved under `name`: a document on disk again.
    mutating func savedAs(_ name: String) {
        documentName = name
        documentMissing = false
        missingReason = nil
        saveAsSuggestion = nil
        leaveConfirmed = false
    }

    /// The user was told that leaving loses what is only in memory: leaving again may.
    mutating func confirmLeaving() { leaveConfirmed = true }

    /// A save succeeded: nothing typed is held back any more.
    mutating func saveSucceeded() {
        lastSaveError = nil
        if !documentMissing { leaveConfirmed = false }
    }

    mutating func saveFailed(_ message: String) { lastSaveError = message }

    // MARK: Reading a large document in parts

    /// A document shown before all of it is read: `percent` of it so far; `place`, the one the
    /// session memory named, is gone to once its record is read, unless the user has moved
    /// from `placeholder`, shown meanwhile.
    mutating func beginLoading(percent: Int, awaiting place: SessionPlace?, shownMeanwhile placeholder: AppState.Shown?) {
        loading = DocumentLoading(percent: percent)
        loading?.place = place
        loading?.placeholder = placeholder
    }
    /// A part read, `percent` of the file so far; false when the document is not being read
    /// in parts any more (a part that comes after the end is not taken).
    mutating func loaded(percent: Int) -> Bool {
        guard loading != nil else { return false }
        loading?.percent = percent
        return true
    }

    /// The record the session memory named, when it is among those read from `start` and the
    /// user is still where the highlight was put meanwhile (`shown` now): its index, and the
    /// place is no longer waited for. A place without an id is found by its position.
    mutating func findAwaitedPlace(from start: Int, shown: AppState.Shown) -> Int? {
        guard let place = loading?.place, loading?.placeholder == shown, let records = document?.records else { return nil }
        let found: Int? = if let id = place.recordID {
            records[start...].firstIndex { $0.instanceID == id }
        } else if let index = place.record, index < records.count {
            index
        } else {
            nil
        }
        if found != nil {
            loading?.place = nil
            loading?.placeholder = nil
        }
        return found
    }
    /// The place the session memory named, while it is still waited for and the user is still
    /// where the highlight was put meanwhile (`shown` now): gone to once the whole file is read.
    func awaitedPlace(shown: AppState.Shown) -> SessionPlace? {
        loading?.placeholder == shown ? loading?.place : nil
    }
    /// The whole file is read; `unreadable`: it turned out unreadable, for this reason.
    mutating func endLoading(unreadable message: String? = nil) {
        loading = nil
        if let message { loadError = message }
    }

    // MARK: Undo and redo

    /// What the save about to start means for the history when it succeeds.
    mutating func expect(_ change: AppState.PendingChange, then effects: [Effect] = []) {
        pendingChange = change
        effectsAfterSave = effects
    }

    /// What the change in flight leaves to do once it is saved (and never if it is not).
    mutating func takeEffectsAfterSave() -> [Effect] {
        defer { effectsAfterSave = [] }
        return effectsAfterSave
    }

    /// Ctrl-Z / Ctrl-Y: the step to undo or redo, taken off its stack.
    mutating func takeStep(undoing: Bool) -> UndoHistory.Step? {
        undoing ? history.undo.popLast() : history.redo.popLast()
    }

    /// A step that could not be replayed goes back where it was taken from.
    mutating func putBack(_ step: UndoHistory.Step, undoing: Bool) {
        if undoing { history.undo.append(step) } else { history.redo.append(step) }
    }

    /// The save in flight succeeded: a change is recorded (clearing redo), an undo's step
    /// moves to redo and a redo's to undo. Returns what the save was.
    mutating func changeSaved(before: SurveyDocument, after: SurveyDocument,
                              focusBefore: String?, focusAfter: String?) -> AppState.PendingChange? {
        guard let pending = pendingChange else { return nil }
        pendingChange = nil
        switch pending {
        case .change(let kind, let label):
            history.record(.init(kind: kind, label: label, before: before, after: after,
                                 focusBefore: focusBefore, focusAfter: focusAfter))
        case .undo(let step): history.redo.append(step)
        case .redo(let step): history.undo.append(step)
        }
        return pending
    }

    /// The save failed: an undo or redo that did not happen goes back on its stack.
    mutating func changeNotSaved() {
        switch pendingChange {
        case .undo(let step): history.undo.append(step)
        case .redo(let step): history.redo.append(step)
        case .change, nil: break
        }
        pendingChange = nil
        effectsAfterSave = []
    }
}

/// What was changed here in one survey (its edit history), as F4 shows it.
public struct SurveyEdits: Equatable, Sendable {
    public let survey: String
    public let entries: [EditHistoryEntry]
}
