import SurveyValues
import SurveyForms

/// The New form's survey carries its id from the first write of its file (`Program+Drafts`),
/// and [ Add ] keeps it: a file the Add could not remove (a crash, a failed unlink between the
/// save and the removal) is then known for a survey the document already holds. It is dropped
/// when the document is read, never offered again: offered, it would be the interview in
/// clear beside its encrypted copy (issue 31), and a second Add would key it twice.
///
/// An id alone never drops anything: the New form goes only when the runner finds it holds
/// nothing the stored survey lacks (`Program.newFormIsStored`: its answers inside a survey
/// kept in clear; for an encrypted one, the file's own mark written with the save, or the
/// kept surveys put back made from the file as it is). Otherwise it stays, under an id of its
/// own, and that is said: answers typed after the survey was stored are never lost.
extension AppState {
    /// The runner wrote the New form's file with `id`: its survey is added under it (a New
    /// form emptied meanwhile is left alone). An id the file had from elsewhere (another window,
    /// an earlier session) is replaced by this one (`Program.identifiedDraft`).
    mutating func identifyDraft(_ id: String) {
        guard draft.instanceID != id, !draft.isBlank(in: draftQuestionnaire) else { return }
        var identified = draft
        identified[Record.instanceIDKey] = .string(id)
        form.setDraft(identified)
    }

    /// The New form read with its document, when the document (whole) already holds a survey
    /// with its id: the runner is asked whether it is that survey (`settleStoredDraft`). Asked
    /// when a document is opened, when a large one is read to its end, and when kept surveys
    /// are put back into it (`putBack`; the New form a failed save kept is among them).
    func checkDraftAlreadyStored(putBack: Recovery? = nil) -> [Effect] {
        guard session.loading == nil, let id = draft.instanceID,
              records.contains(where: { $0.instanceID == id }) else { return [] }
        return [.checkStoredDraft(putBack: putBack)]
    }

    /// The runner's answer: the New form that is the survey at `place` is emptied and its file
    /// removed; one that may hold more loses the id (the runner gives it one of its own at the
    /// `.saveDraft`), and stays. After a put back, said after what the merge said.
    mutating func settleStoredDraft(id: String, place: Int, same: Bool, putBack: Bool) -> [Effect] {
        guard draft.instanceID == id else { return [] }
        let text: String
        if same {
            if shown == .draft { form.stopEditing() }
            form.emptyDraft()
            audit.dropDraft()
            text = putBack ? "The New form was survey \(place + 1): emptied"
                : "The New form was already added as survey \(place + 1) (survey stopped before removing its file): "
                    + "it was removed, not offered again"
        } else {
            var own = draft
            own.removeValue(forKey: Record.instanceIDKey)
            form.setDraft(own)
            text = "The New form has the id of survey \(place + 1) but may hold answers it lacks: "
                + "it stays, as a survey of its own (clear it if it is the same interview)"
        }
        if putBack, let said = status {
            if said.kind == .error { warn(said.text + ". " + text) } else { tell(said.text + ". " + text) }
        } else {
            tell(text)
        }
        return [.saveDraft]
    }
}
