import SurveyValues
import SurveyForms

/// Work `update` asks the outside world to do. Plain values, so tests compare them directly;
/// the runner reads what to save from the state it already holds.
public enum Effect: Equatable, Sendable {
    case saveDocument
    case saveDraft
    /// Pull then push the current document through the team's database, in the background.
    case syncDocument
    /// Read the current document's ledger into a `SyncSummary`.
    case readSyncSummary
    /// Settle one conflicting field of a survey (then re-read the document).
    case resolveConflict(id: String, path: SyncFieldPath, keepMine: Bool)
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
    /// Put kept surveys back into their document on disk (not the open one), merging them
    /// into the surveys it still has (`DocumentStore.restore`).
    case restoreRecovery(Recovery, theirsWhereBothChanged: Bool)
    /// Kept surveys merged into the open document and saved: their file goes to .trash, with
    /// the surveys as they were where the merge replaced answers.
    case putAwayRecovery(Recovery, replaced: [Record])
    case discardRecovery(Recovery)
    case lookForRecoveries
    /// Append surveys just deleted to the document's deleted-surveys file.
    case keepDeleted([Record])
    /// Keep a roster member deleted with ^D in the deleted-surveys file (before the survey is
    /// saved without it), so it is in some file whatever happens next.
    case keepDeletedMember(DeletedMemberEntry)
    /// Take surveys an undo brought back out of the deleted-surveys file, by id.
    case forgetDeleted(Set<String>)
    /// Write whatever exists only in memory (`AppState.unsavedRecords`) to a recovery file.
    case keepUnsavedWork
    /// Build the `/` index of the records in the background (a large list: see
    /// `SurveyListState.buildsIndexInBackground`), then `Outcome.search(.indexBuilt)`.
    case buildSearchIndex
    /// What the `/` line holds while its index is built: the build searches ahead for it.
    case searchAhead(String)
    /// Finish, in the background, the search a key left unfinished
    /// (`SurveyListState.searchToFinish`), then `Outcome.search(.finished)`; it replaces any
    /// search under way.
    case finishSearch(SearchJob)
    /// No search is waited for any more: the one under way stops at its next slice.
    case cancelSearch
    /// Copy the file at a path typed into an image, audio, video or file question into the
    /// document's media folder, then `Outcome.form(.fileAttached)` with its name there.
    case attachFile(path: String)
    /// Read the shown survey's edit history (`.NAME.history.jsonl`), then `Outcome.documents(.historyRead)`.
    case readHistory(survey: String)
    /// Read the document's verification record, then `Outcome.verify(.read)` (verify
    /// mode starts from it, or F4 draws the keyer statistics).
    case readVerification(thenVerify: Bool)
    /// A survey added from the New form: its keys and time, once the save gave the survey at
    /// this index its id (the runtime fills in `survey`).
    case noteKeyed(AddedSurvey, VerificationEntry)
    /// Add lines to the document's verification record (`.NAME.verify.plist`).
    case noteVerification([VerificationEntry])
    /// A keyer error's line, written only if the document holds the correction (`value` at
    /// `path` of the survey) once its save is done: a save that failed put the old answer back.
    case noteCorrection(VerificationEntry, path: AnswerPath, value: PropertyValue?)
    /// Add events to the document's audit log (`.NAME.audit.csv`); the New form's, added as
    /// the survey at `addedSurvey`, take its id once it is saved.
    case noteAudit(document: String, [AuditEvent], addedSurvey: AddedSurvey?)
}

/// A survey just added from the New form, to be found after its save gave it an id: by its
/// answers, near its place (a merge with another program's surveys can move it).
public struct AddedSurvey: Equatable, Sendable {
    public var record: Record
    public var near: Int
    public init(_ record: Record, near: Int) {
        self.record = record
        self.near = near
    }
}

// MARK: What an effect writes, decided beside the effects
//
// The guards of `update` (a read-only document, one still loading, a New form left, a member
// not yet saved) ask these two questions of every effect. Each names every case, with no
// `default`, so adding an effect does not compile until it is placed on one side of each
// (issue 29: a list that ended in `default: false` let new writers slip past read-only mode).

extension Effect {
    /// Whether this effect writes the surveys of `document` (the open one), its New form or
    /// the files kept beside it: what a read-only document refuses. Every case is named, with
    /// no default, so a new effect cannot slip past read-only mode unclassified (issue 29).
    func writesSurveys(of document: String) -> Bool {
        switch self {
        case .saveDocument, .saveDraft, .syncDocument, .resolveConflict, .keepDeleted, .keepDeletedMember, .forgetDeleted,
             .putAwayRecovery, .attachFile, .noteVerification, .noteKeyed, .noteCorrection, .noteAudit:
            return true
        case .restoreRecovery(let recovery, _):
            return recovery.documentName == document
        // Other documents, the folder, this session's own files and reading: never this
        // document's surveys. `saveDocumentAs` writes the surveys shown to a new name when
        // the file vanished; `keepUnsavedWork` writes a recovery file beside it.
        case .quit, .listDocuments, .openDocument, .createDocument, .renameDocument, .deleteDocument, .restoreDocument,
             .saveDocumentAs, .rememberSession, .discardRecovery, .lookForRecoveries, .keepUnsavedWork, .readSyncSummary,
             .buildSearchIndex, .searchAhead, .finishSearch, .cancelSearch, .readVerification, .readHistory:
            return false
        }
    }

    /// Whether carrying it out writes the document or its file, or leaves the document for
    /// another: what a partly read document must never do.
    public var changesDocument: Bool {
        switch self {
        case .saveDocument, .keepDeleted, .keepDeletedMember, .forgetDeleted, .openDocument, .createDocument, .renameDocument,
             .deleteDocument, .restoreDocument, .saveDocumentAs, .restoreRecovery, .syncDocument, .resolveConflict:
            return true
        case .saveDraft, .quit, .listDocuments, .rememberSession, .discardRecovery, .putAwayRecovery, .lookForRecoveries,
             .keepUnsavedWork, .buildSearchIndex, .searchAhead, .finishSearch, .cancelSearch, .attachFile, .readSyncSummary,
             .readVerification, .noteVerification, .noteKeyed, .noteCorrection, .noteAudit, .readHistory:
            return false
        }
    }
}
