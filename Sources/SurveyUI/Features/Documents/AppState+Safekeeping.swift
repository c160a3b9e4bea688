import FoundationEssentials
import SurveyModel

/// What exists only in memory, and how it is kept: a quit that would lose it asks first, a
/// signal or a closed terminal writes it to a recovery file, and the next start offers it back.
extension AppState {
    /// Something on screen is nowhere on disk: the records of a document that vanished, or
    /// an entry a failed save put back on the form.
    public var holdsUnsavedWork: Bool {
        session.documentMissing || (session.lastSaveError != nil && editing?.isChanged == true)
    }

    /// The surveys to write to a recovery file when the app must stop at once: every record
    /// of a vanished document, or the one record (or New form) holding an entry whose save
    /// failed, with the typed text applied when it is valid. Empty when nothing is at risk.
    public var unsavedRecords: [Record] {
        var form = formRecord
        if let editing, editing.isChanged {
            let outline = self.outline
            let field = outline.field(editing.fieldIndex)
            let path = outline.path(editing.fieldIndex)
            if path.steps.isEmpty {
                _ = form.setText(editing.text, for: field)
            } else {
                var answer = Record(form.value(at: path).map { [field.key: $0] } ?? [:])
                if answer.setText(editing.text, for: field) == nil { _ = Self.store(answer[field.key], at: path, in: &form) }
            }
        }
        if session.documentMissing {
            var all = records
            if case .record(let i) = shown { all[i] = form }
            if self.form.showingDraft, !form.isBlank(in: questionnaire) { all.append(form) }
            return Array(all)
        }
        guard holdsUnsavedWork else { return [] }
        return [form]
    }

    /// SIGTERM, SIGHUP or a closed terminal: a valid field is saved as on any quit; whatever
    /// would still exist only in memory goes to a recovery file; then the app leaves without
    /// asking (there is no one left to answer).
    mutating func terminate() -> [Effect] {
        let effects = commitEditing() ?? []
        session.confirmLeaving()
        return effects + [.keepUnsavedWork, .quit]
    }

    /// Quitting found something only in memory: say what, and let a second quit leave.
    mutating func holdQuit() {
        session.confirmLeaving()
        if session.documentMissing {
            warn("“\(documentName)” is gone from the folder: save its records, or quit again to leave them unsaved")
        } else {
            warn("Your entry is not saved (\(session.lastSaveError ?? "the save failed")): press Enter to try again, or quit again to leave without it")
        }
    }

    /// A save succeeded: nothing typed is held back any more.
    mutating func saveSucceeded() {
        session.saveSucceeded()
    }

    mutating func draftSaveFailed(_ message: String) {
        // After a failed Add the draft fails the same way: keep that, more useful, message.
        let addFailed = status?.kind == .error && session.lastSaveError != nil
        session.saveFailed(message)
        if rollback != nil {
            restoreRollback()
            warn("Could not save the New form: \(message). Nothing was lost: your entry is still on the form.")
        } else if !addFailed {
            warn("Could not save the New form: \(message)")
        }
    }

    mutating func otherNewFormKept(title: String, file: String) {
        warn("Another survey window had saved a New form here (\(title)): kept it as \(file), offered at the next start")
    }

    /// Another program renamed the current file (`survey docs rename`, a file manager): the
    /// app follows it, so nothing is written under the old name.
    mutating func documentMovedOutside(to name: String) -> [Effect] {
        let old = documentName
        session.rename(to: name)
        tell("“\(old)” was renamed to “\(name)” outside survey: following it")
        return [.rememberSession]
    }

    // MARK: Recovered surveys

    mutating func recoveriesFound(_ list: [Recovery]) {
        guard let first = list.first else {
            if case .recovery = popover { popovers.dismiss() }
            return
        }
        switch popover {
        case nil, .recovery: popovers.present(.recovery(first))   // never over another popover)
        default: break
        }
    }

    /// After `committingField`.
    mutating func restoreRecovery() -> [Effect] {
        guard case .recovery(let recovery) = popover else { return [] }
        popovers.dismiss()
        return [.restoreRecovery(recovery)]
    }

    mutating func discardRecovery() -> [Effect] {
        guard case .recovery(let recovery) = popover else { return [] }
        popovers.dismiss()
        return [.discardRecovery(recovery)]
    }

    mutating func recoveryRestored(into name: String, count: Int) -> [Effect] {
        tell("Put \(counted(count, "recovered survey")) back into “\(name)”")
        return [.rememberSession, .openDocument(name), .lookForRecoveries]
    }

    mutating func recoveryDiscarded(count: Int) -> [Effect] {
        tell("Moved \(counted(count, "recovered survey")) to .trash in the document folder")
        return [.lookForRecoveries]
    }
}
