import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// The New form's file and an Add of an encrypted form (issue 31). [ Add ] saves the
/// document, which stores the survey encrypted, then removes the New form's file, which holds
/// it in clear: a crash between the two would leave the finished interview in clear, and offer
/// it again as the New form (a second Add would key it twice). So just before that save the
/// file is written again with the survey and a mark, "being stored as X", X being the id the
/// save gives it (`DocumentStore.saveDraft(beingStoredAs:)`). When the document is next read,
/// a marked file whose X the document holds is removed (its bytes overwritten first) and the
/// New form starts empty; one whose X it does not hold (the crash came before the save landed)
/// is the New form, whole, as any file left by a crash. Any ordinary write of the file drops
/// the mark (a failed save puts the survey back on the New form, whose write follows).
///
/// The survey stays in the marked file (not only the mark): until the save has landed the
/// file is its only copy on disk, and the New form's file is in clear by design anyway.
/// No id is given to the New form before its save: an Add's survey gets its id from the save,
/// as every new survey does, so a retry, two windows, or an undone Add behave as they always did.
extension Program {
    /// Before a save of `identified` (ids given) that stores the survey an Add took from the
    /// New form, for a form with a `public_key`: the New form's file, still this program's own
    /// write, is written again with that survey and its id as the mark. Not written, nothing
    /// changes (the save goes on; the file is removed after it as always).
    mutating func markNewFormBeingStored(in identified: SurveyDocument, as name: String) {
        guard state.questionnaire.form?.publicKey != nil, let added = pendingAdded.last,
              let current = state.document, current.records.count == identified.records.count,
              let fingerprint = store.draftFingerprint(for: name), fingerprint == files.knownDraft else { return }
        var wanted = added.record
        wanted.removeValue(forKey: Record.instanceIDKey)
        // Every unidentified record equal to the survey, from where the Add put it on (a merge
        // may have moved it before that place); none found, a mark an earlier attempt left
        // would name an id this save does not give: the file is written again without it.
        let count = current.records.count
        let start = min(max(added.near, 0), count)
        let isIt = { (at: Int) in current.records[at].instanceID == nil && current.records[at] == wanted }
        let place = (start..<count).first(where: isIt) ?? (0..<start).first(where: isIt)
        guard let place, let id = identified.records[place].instanceID, !current.records[place].isSealed else {
            if store.draftBeingStoredAs(for: name) != nil,
               (try? store.saveDraft(store.loadDraft(for: name), for: name, in: state.draftQuestionnaire)) != nil {
                files.knownDraft = store.draftFingerprint(for: name)
            }
            return
        }
        guard (try? store.saveDraft(wanted, for: name, in: state.draftQuestionnaire, beingStoredAs: id)) != nil else { return }
        files.knownDraft = store.draftFingerprint(for: name)
    }

    /// Whether the New form's file (written by another window) is one an Add left behind, its
    /// survey stored: marked, and the document (here, on disk or in its journal) holds the
    /// marked id. Not another window's New form then, kept aside as one: the copy of a stored
    /// survey, which this window's write replaces.
    func newFormFileIsAStoredSurvey(of name: String) -> Bool {
        guard let id = store.draftBeingStoredAs(for: name) else { return false }
        return state.records.contains { $0.instanceID == id } || store.documentBytesHold(id, in: name)
    }

    /// The New form's file of `name` when it carries the mark and the document (as `loaded`,
    /// or its bytes while the rest is still read) holds the survey under the marked id: it is
    /// removed, its bytes overwritten first, and what to say is returned (the New form then
    /// starts empty, even when the removal failed: it is a stored survey's copy, and the next
    /// write of the New form replaces the file). nil: the file is the New form as it is.
    static func settleNewFormLeftByAnAdd(of name: String, in store: DocumentStore,
                                         loaded: Result<SurveyDocument, DocumentError>, streaming: Bool) -> String? {
        guard case .success(let document) = loaded else { return nil }
        var place: Int?
        let holds = { (id: String) -> Bool in
            place = document.records.firstIndex { $0.instanceID == id }
            return place != nil || (streaming && store.documentBytesHold(id, in: name))
        }
        // One opening of the file decides and removes: a file another window puts in its
        // place meanwhile is its New form, left whole.
        let survey = { place.map { "survey \($0 + 1)" } ?? "the document" }
        do {
            guard try store.removeMarkedDraftSecurely(for: name, ifStored: holds) != nil else { return nil }
            return "An Add stopped before removing the New form's file: the survey is in \(survey()), the file removed"
        } catch {
            return "An Add stopped before removing the New form's file: the survey is in \(survey()); the file could not be "
                + "removed (\(describe(error))), it is replaced at the New form's next write"
        }
    }
}
