import SurveyModel

/// Adding, clearing and starting records, and what happens when saving them succeeds or fails.
extension AppState {
    /// Ctrl-N: the New form, editing First name.
    mutating func startNewRecord() -> [Effect] {
        guard document != nil, let effects = commitEditing() else { return [] }
        popover = nil
        focus = .form
        shown = .draft
        formItem = .field(0)
        beginEditing(inserting: nil)
        return effects
    }

    /// [Clear]: an empty New form. A shown record is left alone.
    mutating func clearForm() -> [Effect] {
        guard document != nil, let effects = commitEditing() else { return [] }
        let hadDraft = !draft.isBlank(in: questionnaire)
        shown = .draft
        draft = Record()
        status = .init("The form is empty")
        return hadDraft ? effects + [.saveDraft] : effects
    }

    /// [Add]: appends what the form shows as a new record (from a record, a copy, as the
    /// original app did) and selects it. Adding from the New form empties it; adding a copy
    /// leaves the New form's text alone, so no half-entered survey is thrown away.
    mutating func addRecord() -> [Effect] {
        guard document != nil, var effects = commitEditing() else { return [] }
        let fromDraft = shown == .draft
        let record = formRecord.withEmptyTextAnswers(in: questionnaire)
        if record.isBlank(in: questionnaire) {
            status = .init("Nothing to add: the form is empty", kind: .error)
            return effects
        }
        rollback = captureRollback()
        document?.records.append(record)
        showRecord(recordCount - 1)
        effects.append(.saveDocument)
        if fromDraft {
            draft = Record()
            effects.append(.saveDraft)
        }
        status = .init("Added survey \(recordCount): \(record.listTitle)")
        return effects
    }

    mutating func documentWasSaved(replacedCharacters: Int) -> [Effect] {
        rollback = nil
        if replacedCharacters > 0 {
            document?.replaceForbiddenCharacters()
            let noun = replacedCharacters == 1 ? "character" : "characters"
            status = .init("Replaced \(replacedCharacters) control \(noun) XML cannot hold with U+FFFD")
        }
        // The info view shows the file's size and time: read them again.
        return detail == .info ? [.listDocuments] : []
    }

    /// Puts back the document and form as they were before the change, with the typed text,
    /// so a failed save loses nothing the user entered.
    mutating func restoreAfterFailedSave(_ message: String) {
        guard let saved = rollback else {
            status = .init("Could not save \(documentName): \(message)", kind: .error)
            return
        }
        rollback = nil
        document = saved.document
        draft = saved.draft
        shown = saved.shown
        listCursor = saved.listCursor
        editing = saved.editing
        formItem = saved.formItem
        ensureListCursorVisible()
        status = .init("Could not save \(documentName): \(message). Nothing was lost: your entry is still on the form.",
                       kind: .error)
    }

    /// The file changed under us (another survey, `survey add`, a sync tool). Writing our
    /// copy would drop that change, so nothing is written: the form gets back what the user
    /// typed (as after a failed save), the records are re-read, and saving again applies the
    /// entry on top of the new version.
    mutating func reloadAfterOutsideChange(_ reloaded: Result<SurveyDocument, DocumentError>) {
        if let saved = rollback {
            rollback = nil
            draft = saved.draft
            shown = saved.shown
            listCursor = saved.listCursor
            editing = saved.editing
            formItem = saved.formItem
        }
        switch reloaded {
        case .success(let doc):
            document = doc
            if case .record(let i) = shown, !doc.records.indices.contains(i) {
                shown = doc.records.isEmpty ? .draft : .record(doc.records.count - 1)
                editing = nil
            }
            listCursor = min(listCursor, max(0, doc.records.count - 1))
            ensureListCursorVisible()
            status = .init("“\(documentName)” was changed by another program: survey re-read it instead of overwriting it. Your entry is still on the form: save it again.",
                           kind: .error)
        case .failure(let error):
            document = nil
            loadError = error.message
            editing = nil
            status = .init("“\(documentName)” was changed by another program and can no longer be read; it is left as it is.",
                           kind: .error)
        }
    }
}
