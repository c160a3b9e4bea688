import SurveyValues
import SurveyForms

/// The New form's survey carries its id from the first write of its file (`Program+Drafts`),
/// and [ Add ] keeps it: a file the Add could not remove (a crash, a failed unlink between the
/// save and the removal) is then known for a survey the document already holds. It is dropped
/// when the document is read, never offered again: offered, it would be the interview in
/// clear beside its encrypted copy (issue 31), and a second Add would key it twice.
extension AppState {
    /// The runner wrote the New form's file with `id` for the first time: its survey is added
    /// under it (a New form emptied or replaced meanwhile is left alone).
    mutating func identifyDraft(_ id: String) {
        guard draft.instanceID == nil, !draft.isBlank(in: draftQuestionnaire) else { return }
        var identified = draft
        identified[Record.instanceIDKey] = .string(id)
        form.setDraft(identified)
    }

    /// The New form read with its document, when the document (whole) already holds a survey
    /// with its id: emptied, and its file removed (`.saveDraft` of the empty form). Asked when
    /// a document is opened, when a large one is read to its end, and when kept surveys are
    /// merged into it (the New form a failed save kept is among them); `saying` false leaves
    /// the status line to the caller. Returns the survey's place, with the effects.
    @discardableResult
    mutating func dropDraftAlreadyStored(saying: Bool = true) -> (effects: [Effect], place: Int?) {
        guard session.loading == nil, let id = draft.instanceID,
              let index = records.firstIndex(where: { $0.instanceID == id }) else { return ([], nil) }
        if shown == .draft { form.stopEditing() }
        form.emptyDraft()
        audit.dropDraft()
        if saying {
            tell("The New form was already added as survey \(index + 1) (survey stopped before removing its file): "
                 + "it was removed, not offered again")
        }
        return ([.saveDraft], index)
    }
}
