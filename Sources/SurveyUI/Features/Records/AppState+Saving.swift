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
            draftSaveFailed(message)
        case .deletedSurveysNotKept(let message):
            restoreRollback()
            warn("Not deleted: a copy could not be kept among the deleted surveys: \(message)")
        case .otherNewFormKept(let title, let file):
            otherNewFormKept(title: title, file: file)
        case .instanceIDsAssigned(let identified):
            document = identified
        case .mergedInBackground(let merged, let message, let isError):
            if takeMergedDocument(merged) {
                warn(message + ". The survey asked about was changed there: nothing was done, ask again")
            } else {
                say(.init(message, kind: isError ? .error : .info))
            }
        case .writeFailed(let message):
            warn(message)
        case .quitHeldForUnsavedRecords:
            holdQuit()
        case .journalPutBack(let message):
            tell(message)
        }
        return []
    }
}
