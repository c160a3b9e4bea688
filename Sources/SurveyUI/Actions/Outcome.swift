import SurveyValues
import SurveyForms

/// What an effect found, fed back by the runner. Nested by the feature whose code takes it
/// (issue 29: a flat list of 37 had grown), as `Action` is: `update` hands each nest to its
/// feature's reducer (`reduce(_: DocumentOutcome)` in `AppState+Documents`, and so on).
public enum Outcome: Equatable, Sendable {
    /// The document's file: listing the folder, opening, creating, renaming, deleting it, and
    /// what another program did to it.
    case documents(DocumentOutcome)
    /// Saving: the document, the New form, the journal and the background writer.
    case saving(SaveOutcome)
    /// The first document opened, and a large one read in parts.
    case loading(LoadOutcome)
    /// Surveys kept by an earlier session that could not save them.
    case recovery(RecoveryOutcome)
    /// The `/` search's index and searches finished in the background.
    case search(SearchOutcome)
    /// The team's database (F9).
    case sync(SyncOutcome)
    /// Verify mode and the keyer statistics.
    case verify(VerifyOutcome)
    /// The form: a file attached to an answer.
    case form(FormOutcome)
}

/// The document's file (`AppState+Documents`, the manager's part in `DocumentManagerState`).
public enum DocumentOutcome: Equatable, Sendable {
    case listed([DocumentSummary])
    case opened(name: String, loaded: Result<SurveyDocument, DocumentError>, draft: Record, place: SessionPlace?,
                form: DocumentForm = DocumentForm(questionnaire: .standard))
    case created(String)
    case renamed(from: String, to: String)
    /// `replacement`: the document created first to show instead of the only one.
    case deleted(name: String, records: Int?, replacement: String?)
    case restored(String)
    case savedAs(String)
    /// The current file is gone (nil) or can no longer be read (the reason).
    case vanished(unreadable: String?, suggestion: String)
    /// Another program changed the file since we read it: here it is, re-read.
    case changedOnDisk(SurveyDocument)
    /// The current file was renamed by another program (found by its inode): follow it.
    case movedOutside(to: String)
    case operationFailed(String)
    /// The edit history of one survey, read for F4 (`Effect.readHistory`).
    case historyRead(document: String, survey: String, [EditHistoryEntry])
}

/// Saving (`AppState+Saving`).
public enum SaveOutcome: Equatable, Sendable {
    case saved(replacedCharacters: Int)
    case failed(String)
    case draftSaved
    case draftFailed(String)
    /// A copy of the surveys being deleted could not be kept: the delete is called off.
    case deletedSurveysNotKept(String)
    /// Another window's New form was on disk where ours was going: it was kept as a
    /// recovered survey (its title, the file).
    case otherNewFormKept(title: String, file: String)
    /// The save gave records without an id one (`instanceID`): here is the document as written.
    case instanceIDsAssigned(SurveyDocument)
    /// The background writer found the file changed elsewhere; this is the merge (or, on a
    /// clash, ours over theirs) to show and write, and what to say about it.
    case mergedInBackground(SurveyDocument, message: String, isError: Bool)
    /// The background writer could not update the `.plist` (the changes are in the journal).
    case writeFailed(String)
    /// A quit found the records existing only in memory (the commit before it found the
    /// file gone): it waits, and the next quit leaves.
    case quitHeldForUnsavedRecords
    /// Changes an interrupted session left in the journal were put back into the file (or
    /// could not be): what to tell the user.
    case journalPutBack(String)
    /// The New form's file an Add left behind (marked as being stored, and the document holds
    /// the survey) was removed when the document was read: what to tell the user.
    case newFormLeftByAnAdd(String)
}

/// The first document opened, and a large one read in parts (`AppState+Loading`).
public enum LoadOutcome: Equatable, Sendable {
    /// The runner opened the first document (see `Launch`).
    case launched(Launch)
    /// The first frame is on screen: records found without an id get theirs (derived, so
    /// the same in every program that opens the file), then the remembered place is found
    /// by its record's id.
    case identifyRecordsFoundWithoutIDs(thenRestoring: SessionPlace?)
    /// More of a document being read in the background: records to add after those shown,
    /// and how much of the file is read (0 to 100).
    case partLoaded([Record], percent: Int)
    /// The background reading of the document is over (see `DocumentReadEnd`).
    case ended(DocumentReadEnd)
}

/// Surveys kept by an earlier session (`AppState+Safekeeping`).
public enum RecoveryOutcome: Equatable, Sendable {
    /// Surveys kept by an earlier session, oldest first.
    case found([Recovery])
    /// Kept surveys put back into a document that was not open: it and what the merge did.
    case restored(into: String, summary: String)
    case discarded(count: Int)
}

/// The `/` search (`SurveyListState`).
public enum SearchOutcome: Equatable, Sendable {
    /// The `/` index built in the background (`Effect.buildSearchIndex`).
    case indexBuilt(SearchIndex)
    /// The rest of a `/` search, finished in the background (`SurveyListState.searchToFinish`).
    case finished(FinishedSearch)
}

/// The team's database (`AppState+Sync`).
public enum SyncOutcome: Equatable, Sendable {
    /// The document's sync as its ledger holds it (nil: never synced nor merged).
    case summaryRead(document: String, SyncSummary?)
    /// A step of a sync running in the background ("pulled 1,000 of …").
    case progress(document: String, String)
    /// A sync (or a conflict resolved) is over: what to say, the document as written
    /// (nil: unchanged), and its sync now; `form`, the newer form version it took (nil: none).
    case finished(document: String, message: String, isError: Bool, reloaded: SurveyDocument?, summary: SyncSummary?,
                  form: DocumentForm? = nil)
}

/// Verify mode (`AppState+Verify`).
public enum VerifyOutcome: Equatable, Sendable {
    /// The document's verification record, read for verify mode (or F4's statistics).
    case read(document: String, VerificationLog, thenVerify: Bool)
}

/// The form (`AppState+Attachments`).
public enum FormOutcome: Equatable, Sendable {
    /// The file typed into an attachment question is in the media folder under this name.
    case fileAttached(String)
}
