import SurveyModel

/// Everything the user (or the outcome of an effect) can ask of the app, named for the intent
/// rather than the key, so the key table can change without touching `update`.
public enum Action: Equatable, Sendable {
    // Terminal
    case resized(Size)
    case click(Point)
    case wheel(Int, at: Point)

    // List (pane or popover)
    case listMove(Int)
    case listPage(Int)
    case listToFirst
    case listToLast
    case focusForm

    // Form, browsing
    case previousRecord
    case nextRecord
    /// ↑/↓: stop at the ends.
    case moveHighlight(Int)
    /// Tab/Shift-Tab: wrap around.
    case cycleHighlight(Int)
    /// Enter: edit the highlighted field or press the highlighted button.
    case activate
    case beginEditing(inserting: Character?)

    // Form, editing
    case insert(Character)
    case deleteBackward
    case deleteForward
    case caretLeft
    case caretRight
    case caretHome
    case caretEnd
    case caretWordLeft
    case caretWordRight
    case deleteWordBackward
    case deleteToStart
    case deleteToEnd
    /// Tab, Shift-Tab, ↓, ↑ while editing: commit and move on (wrapping for Tab).
    case commitAndMove(Int, wrap: Bool)
    case commitField
    /// Enter while editing: keep the answer and go on to the next question (heads-down).
    case commitAndAdvance
    case cancelEditing
    /// Pasted text: typed into the text box of the moment as one piece (see AppState+Paste).
    case paste(String)

    // Choice picker
    case pickerMove(Int)
    case pickerType(Character)
    case pickerBackspace
    case pickerChoose
    case pickerAccept(Int)
    case pickerClear

    // Questionnaire
    /// The form's labels in its next language.
    case nextLanguage
    /// Heads-down: [ Add ] on the New form goes on to the next empty New form, or not.
    case toggleNextFormAfterAdd

    // Delete, undo, redo
    case requestRecordDelete
    /// `y` to the question on the status line (delete, copy, clear answers).
    case confirmQuestion
    /// `n` or Esc: the survey stays as it is.
    case cancelQuestion
    /// F4: clear the answers this form version does not ask of the survey shown (asks y/n).
    case requestClearNotAsked
    case undo
    case redo

    // Find and order
    case beginFilter
    case commitFilter
    case clearFilter
    case toggleSections
    case cycleSortKey

    // Anywhere
    case showList
    case showHelp
    case closePopover
    case newRecord
    case quit

    // Documents
    case showDocuments
    case toggleInfo
    case managerMove(Int)
    case managerPage(Int)
    case managerToFirst
    case managerToLast
    case openHighlightedDocument
    case newDocument
    case beginRename
    case commitRename
    case cancelRename
    case requestDelete
    case confirmDelete
    case cancelDelete
    case dismissSaveAs
    case restoreDeleted
    case saveUnderName
    case restoreRecovery
    case discardRecovery
    /// The terminal closed or a signal asked us to stop: keep what can be kept, then quit
    /// without asking.
    case terminate
    /// Sent on idle ticks so outside changes to the folder show up while the manager is open.
    case refreshTick

    // Outcomes of effects, fed back by the runner
    /// The runner opened the first document (see `Launch`).
    case launched(Launch)
    /// The first frame is on screen: records found without an id get theirs (derived, so
    /// the same in every program that opens the file), then the remembered place is found
    /// by its record's id.
    case identifyRecordsFoundWithoutIDs(thenRestoring: SessionMemory.Place?)
    /// Changes an interrupted session left in the journal were put back into the file (or
    /// could not be): what to tell the user.
    case journalPutBack(String)
    case documentSaved(replacedCharacters: Int)
    case documentSaveFailed(String)
    case draftSaveFailed(String)
    case documentsListed([DocumentSummary])
    case documentOpened(name: String, loaded: Result<SurveyDocument, DocumentError>, draft: Record, place: SessionMemory.Place?,
                        form: DocumentForm = DocumentForm(questionnaire: .standard))
    case documentCreated(String)
    case documentRenamed(from: String, to: String)
    /// `replacement`: the document created first to show instead of the only one.
    case documentDeleted(name: String, records: Int?, replacement: String?)
    case documentRestored(String)
    case documentSavedAs(String)
    /// The current file is gone (nil) or can no longer be read (the reason).
    case documentVanished(unreadable: String?, suggestion: String)
    /// Another program changed the file since we read it: here it is, re-read.
    case documentChangedOnDisk(SurveyDocument)
    case documentOperationFailed(String)
    case draftSaved
    /// A copy of the surveys being deleted could not be kept: the delete is called off.
    case deletedSurveysNotKept(String)
    /// Another window's New form was on disk where ours was going: it was kept as a
    /// recovered survey (its title, the file).
    case otherNewFormKept(title: String, file: String)
    /// The current file was renamed by another program (found by its inode): follow it.
    case documentMovedOutside(to: String)
    /// Surveys kept by an earlier session, oldest first.
    case recoveriesFound([Recovery])
    case recoveryRestored(into: String, count: Int)
    case recoveryDiscarded(count: Int)
    /// The save gave records without an id one (`instanceID`): here is the document as written.
    case instanceIDsAssigned(SurveyDocument)
    /// The background writer found the file changed elsewhere; this is the merge (or, on a
    /// clash, ours over theirs) to show and write, and what to say about it.
    case documentMergedInBackground(SurveyDocument, message: String, isError: Bool)
    /// The background writer could not update the `.plist` (the changes are in the journal).
    case documentWriteFailed(String)
    /// A quit found the records existing only in memory (the commit before it found the
    /// file gone): it waits, and the next quit leaves.
    case quitHeldForUnsavedRecords
    /// More of a document being read in the background: records to add after those shown,
    /// and how much of the file is read (0 to 100).
    case documentPartLoaded([Record], percent: Int)
    /// The background reading of the document is over (see `DocumentStream.End`).
    case documentLoadEnded(DocumentStream.End)
    /// The `/` index built in the background (`Effect.buildSearchIndex`).
    case searchIndexBuilt(SearchIndex)
}

/// Work `update` asks the outside world to do. Plain values, so tests compare them directly;
/// the runner reads what to save from the state it already holds.
public enum Effect: Equatable, Sendable {
    case saveDocument
    case saveDraft
    case quit
    /// Read the folder's documents (names, counts, times) into `documents`.
    case listDocuments
    case openDocument(String)
    /// Create the next free `Untitled` document.
    case createDocument
    case renameDocument(from: String, to: String)
    /// The count comes from the confirmation, for the message after.
    case deleteDocument(String, records: Int?)
    case restoreDocument
    /// Write the current records to a new document of this name (the old file vanished).
    case saveDocumentAs(String)
    /// Write the last document used and the record showing to the state file.
    case rememberSession
    case restoreRecovery(Recovery)
    case discardRecovery(Recovery)
    case lookForRecoveries
    /// Append surveys just deleted to the document's deleted-surveys file.
    case keepDeleted([Record])
    /// Take surveys an undo brought back out of the deleted-surveys file, by id.
    case forgetDeleted(Set<String>)
    /// Write whatever exists only in memory (`AppState.unsavedRecords`) to a recovery file.
    case keepUnsavedWork
    /// Build the `/` index of the records in the background (a large list: see
    /// `SurveyListState.buildsIndexInBackground`), then `Action.searchIndexBuilt`.
    case buildSearchIndex
}
