import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// The New form's file carries the id its survey will be added under, from its first write:
/// an Add writes the survey (encrypted, for a form with a `public_key`) before it removes the
/// file, and a file left between the two is then known for a survey the document holds and
/// dropped when the document is next read (`AppState+StoredDraft`), never offered again in
/// clear. The id is given here, not in the UI core, which draws no random numbers.
///
/// An id is one window's: a New form read from the file with an id this program did not give
/// (a second window on the document wrote it, or an earlier session) gets one of its own at
/// its first write here, so two windows never add two interviews under one id (a merge would
/// take the second for the first). And an id alone never drops a New form: only evidence that
/// it holds nothing its stored survey lacks (`newFormIsStored`).
extension Program {
    /// `draft` as its file is written: given a new id when it holds answers and has none, or
    /// one this program did not give (returned too, for `.saving(.draftIdentified)`).
    mutating func identifiedDraft(_ draft: Record, in questionnaire: Questionnaire) -> (Record, String?) {
        guard !draft.isBlank(in: questionnaire) else { return (draft, nil) }
        if let id = draft.instanceID, draftIDsGiven.contains(id) { return (draft, nil) }
        var identified = draft
        let id = Record.newInstanceID()
        identified[Record.instanceIDKey] = .string(id)
        draftIDsGiven.insert(id)
        return (identified, id)
    }

    /// Before a save that stores the New form's survey encrypted (an Add: the New form has
    /// moved on, the document holds the survey under the id this program wrote its file with,
    /// and the file is still that write): the file is written again with the survey exactly
    /// as the save stores it and marked so (`DocumentStore.saveDraft(storedAs:)`). A crash
    /// before the file's removal then leaves the proof that it holds nothing the encrypted
    /// survey lacks, which cannot be read back to compare. Not written, nothing is dropped.
    mutating func markDraftStored(in document: SurveyDocument, as name: String) {
        guard state.questionnaire.form?.publicKey != nil, let written = writtenDraft, let id = written.instanceID,
              state.draft.instanceID != id, store.draftFingerprint(for: name) == files.knownDraft,
              let survey = document.records.first(where: { $0.instanceID == id }), !survey.isSealed else { return }
        writtenDraft = nil
        guard (try? store.saveDraft(survey, for: name, in: state.draftQuestionnaire, storedAs: id)) != nil else { return }
        files.knownDraft = store.draftFingerprint(for: name)
    }

    /// Whether the New form (with the id of `stored`) holds nothing `stored` lacks, so emptying
    /// it loses nothing: an answer being typed on it is more. A survey in clear is compared
    /// answer by answer (each of the New form's is the survey's); an encrypted one cannot be
    /// read, so the New form must be its file as written, and that file marked as stored with
    /// the survey (`markDraftStored`) or, for kept surveys put back (`putBack`), not written
    /// since they were kept (they were kept from it, or from it and the answer being typed).
    func newFormIsStored(_ stored: Record, putBack recovery: Recovery?) -> Bool {
        guard let id = stored.instanceID, state.draft.instanceID == id else { return false }
        if state.form.showingDraft, state.editing?.isChanged == true { return false }
        if !stored.isSealed {
            // An empty answer holds nothing typed.
            return state.draft.values.allSatisfy { key, value in
                key == Record.instanceIDKey || value == .string("") || stored[key] == value
            }
        }
        let name = state.documentName
        guard store.loadDraft(for: name) == state.draft else { return false }
        if store.draftStoredAs(for: name) == id { return true }
        guard let recovery, recovery.records.contains(where: { $0.instanceID == id }),
              let file = store.draftFingerprint(for: name) else { return false }
        let kept = recovery.date.timeIntervalSince1970
        return Double(file.modifiedSeconds) + Double(file.modifiedNanoseconds) / 1e9 <= kept + 1e-6
    }
}
