import SurveyValues
import SurveyForms
/// Moving a document's file with its companions (draft, deleted surveys, form, journal) as one
/// step: to the trash, back from it, under a new name. Written once, so that each of the three
/// undoes a half-done move the same way.
extension DocumentStore {
    /// One file of the move: the document itself (`companion` nil) or one of its companions,
    /// with how to move it and how to put it back.
    struct MoveStep {
        let companion: DocumentCompanion?
        let run: () throws -> Void
        let undo: () -> Void
    }

    /// Which file of a move could not be moved, and why; what was moved before it is back.
    struct MoveStepFailed: Error {
        let companion: DocumentCompanion?
        let error: SystemError
    }

    /// Runs the steps in order, all or nothing: when one fails, those already done are undone
    /// in reverse order (the companions, then the document), the folder is left as it was, and
    /// `MoveStepFailed` names the file. Then the folder's entries are synced.
    func moveTogether(_ steps: [MoveStep]) throws {
        var done: [MoveStep] = []
        for step in steps {
            do {
                try step.run()
                done.append(step)
            } catch let error as SystemError {
                for earlier in done.reversed() { earlier.undo() }
                throw MoveStepFailed(companion: step.companion, error: error)
            }
        }
        try? AtomicFile.syncFolder(folder.path, in: fileSystem)
    }

    /// After another program renamed the document from `old` to `new` (a plain `mv`, which
    /// leaves the companions behind), its New form's file follows it; never over one that is
    /// already there.
    public func moveDraft(from old: String, to new: String) throws {
        try FileMove.withoutReplacing(from: draftURL(for: old).path, to: draftURL(for: new).path, in: fileSystem)
    }

    /// The same for its deleted surveys.
    public func moveDeleted(from old: String, to new: String) throws {
        try FileMove.withoutReplacing(from: deletedURL(for: old).path, to: deletedURL(for: new).path, in: fileSystem)
    }

    /// Removes the file of a document just created empty (the replacement for the only
    /// document, when deleting that one failed after all).
    public func removeCreated(_ name: String) {
        _ = fileSystem.unlink(url(for: name).path)
    }
}
