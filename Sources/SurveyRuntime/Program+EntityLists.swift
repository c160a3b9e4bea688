import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// After a save: the entity lists beside the documents take what the surveys just stored
/// register or update (`DocumentStore.recordEntities`), so a follow-up form of another
/// document offers the new household at once. Whatever stored a survey (Add, Finish, an edit
/// committed, a copy, an undo, a merge of a change made elsewhere) is a save, so the lists
/// follow every path without the UI core naming them: the surveys are those that differ from
/// the document as last saved. The document is saved first and stays saved; a list that
/// cannot be written is said on the status line, and the survey's next save writes it.
extension Program {
    func recordEntities(of saved: SurveyDocument, since base: SurveyDocument?) -> [Outcome] {
        let questionnaire = state.questionnaire
        guard let form = questionnaire.form, !form.entities.isEmpty else { return [] }
        let changed = Self.surveysChanged(in: saved, since: base ?? SurveyDocument())
        guard !changed.isEmpty else { return [] }
        do {
            try store.recordEntities(changing: changed, questionnaire: questionnaire, clock: state.ruleClock)
            return []
        } catch {
            return [.documents(.operationFailed("Saved, but the entity list was not updated: \(Self.describe(error))"))]
        }
    }

    /// Before a save: each survey that updates an entity for the first time gets the entity
    /// as the list holds it now (`DocumentStore.stampEntityBases`, ODK's `baseVersion`), so
    /// wherever the update travels it is merged against what it changed. True when a survey
    /// was stamped (the UI core then takes the document as saved, as it takes new ids).
    func stampEntityBases(_ document: inout SurveyDocument, since base: SurveyDocument?) -> Bool {
        let questionnaire = state.questionnaire
        guard let form = questionnaire.form, !form.entities.isEmpty else { return false }
        let changed = Self.placesChanged(in: document, since: base ?? SurveyDocument())
        guard !changed.isEmpty else { return false }
        return !store.stampEntityBases(&document.records, changed: changed, questionnaire: questionnaire, clock: state.ruleClock).isEmpty
    }

    /// The surveys of `saved` that `base` does not hold as they are, each with what `base`
    /// held of it (nil: new): only what changed is written to an entity the list has.
    static func surveysChanged(in saved: SurveyDocument, since base: SurveyDocument) -> [(before: Record?, now: Record)] {
        placesChanged(in: saved, since: base).map { ($0.before, saved.records[$0.place]) }
    }

    /// Where those surveys are in `saved`. A survey at the same place and unchanged is passed
    /// over without a lookup.
    static func placesChanged(in saved: SurveyDocument, since base: SurveyDocument) -> [(place: Int, before: Record?)] {
        var byID: [String: Record]?
        var changed: [(place: Int, before: Record?)] = []
        for (i, record) in saved.records.enumerated() {
            if i < base.records.count, base.records[i].isSameStorage(as: record) || base.records[i] == record { continue }
            if byID == nil {
                byID = [:]
                for old in base.records { if let id = old.instanceID, byID?[id] == nil { byID?[id] = old } }
            }
            let before = record.instanceID.flatMap { byID?[$0] }
            if let before, before == record { continue }
            changed.append((i, before))
        }
        return changed
    }
}
