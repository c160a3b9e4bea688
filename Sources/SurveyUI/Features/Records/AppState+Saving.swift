import SurveyValues
import SurveyForms

/// What saving found (`Outcome.saving`): the document's save and the New form's, the copies
/// a delete keeps, the journal put back at the start, and the background writer's news. A
/// failure puts back what the change replaced (`Rollback`), so nothing typed is lost.
extension AppState {
    mutating func reduce(_ outcome: SaveOutcome) -> [Effect] {
        switch outcome {
        case .saved(let replaced):
            return documentWasSaved(replacedCharacters: replaced)
        case .failed(let message):
            session.saveFailed(message)
            let unkept = copiesKeptForDelete
            restoreAfterFailedSave(message)
            // The delete did not happen: its copy comes off the deleted list again.
            return unkept.isEmpty ? [] : [.forgetDeleted(unkept)]
        case .draftSaved:
            rollback = nil
            session.saveSucceeded()
        case .draftFailed(let message):
            // After a failed Add the draft fails the same way: keep that, more useful, message.
            let addFailed = status?.kind == .error && session.lastSaveError != nil
            session.saveFailed(message)
            if rollback != nil {
                restoreRollback()
                statusLine.warn("Could not save the New form: \(message). Nothing was lost: your entry is still on the form.")
            } else if !addFailed {
                statusLine.warn("Could not save the New form: \(message)")
            }
        case .deletedSurveysNotKept(let message):
            restoreRollback()
            statusLine.warn("Not deleted: a copy could not be kept among the deleted surveys: \(message)")
        case .otherNewFormKept(let title, let file):
            statusLine.warn("Another survey window had saved a New form here (\(title)): kept it as \(file), offered at the next start")
        case .instanceIDsAssigned(let identified):
            document = identified
        case .mergedInBackground(let merged, let message, let isError):
            if takeMergedDocument(merged) {
                statusLine.warn(message + ". The survey asked about was changed there: nothing was done, ask again")
            } else {
                statusLine.say(.init(message, kind: isError ? .error : .info))
            }
        case .writeFailed(let message):
            statusLine.warn(message)
        case .quitHeldForUnsavedRecords:
            // Something only in memory: say what, and let a second quit leave.
            session.confirmLeaving()
            if session.documentMissing {
                statusLine.warn("“\(documentName)” is gone from the folder: save its records, or quit again to leave them unsaved")
            } else {
                statusLine.warn("Your entry is not saved (\(session.lastSaveError ?? "the save failed")): press Enter to try again, "
                     + "or quit again to leave without it")
            }
        case .journalPutBack(let message), .newFormLeftByAnAdd(let message):
            statusLine.tell(message)
        }
        return []
    }
}
