import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Surveys kept in a recovery file (what only the screen held when a save failed and survey
/// had to stop; another window's New form) are put back as surveys: a form with a
/// `public_key` has them encrypted when they are (`DocumentStore.restore`, the save after an
/// in-app merge). They are encrypted before the file is written instead, as the save that
/// failed would have written them, so neither the file nor the `.trash` it goes to once put
/// back or discarded holds them in clear. Only what a save would seal is sealed (finished,
/// changed since the file was last read, not another role's: `sealFinishedSurveys`). Nothing
/// is lost for its encryption: surveys that cannot be sealed (a key that cannot be used, an
/// attachment that cannot be read) are kept as keyed, and that is said.
extension Program {
    /// Writes `records` to a new recovery file of `name`, sealed where a save would seal them;
    /// then, as after a save, the plaintext of their attachments and their audit lines beside
    /// the document go (they are inside). Returns what to say.
    mutating func keepForRecovery(_ records: [Record], for name: String) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        _ = try keepForRecovery(records, for: name, saying: &outcomes)
        return outcomes
    }

    /// The same, returning the recovery file's name; what to say is added to `outcomes`.
    /// `removingPlaintext` false leaves the attachments and audit lines beside the document
    /// as they are: another window's New form (`.saveDraft`) is sealed from its file, but that
    /// window still holds it, names its photos and goes on logging it; they leave when that
    /// window adds it (its save seals it again, with them).
    mutating func keepForRecovery(_ records: [Record], for name: String, saying outcomes: inout [Outcome],
                                  removingPlaintext: Bool = true) throws -> String {
        guard state.questionnaire.form?.publicKey != nil else { return try store.saveRecovery(records, for: name, at: state.environment.clock.now) }
        var document = SurveyDocument(records: records)
        document.assignMissingInstanceIDs()
        let sealed: [(plain: Record, id: String)]
        do {
            sealed = try sealFinishedSurveys(in: &document, since: lastSeen ?? files.persisted)
        } catch {
            let file = try store.saveRecovery(records, for: name, at: state.environment.clock.now)
            outcomes.append(.documents(.operationFailed("Kept in \(file) as keyed, not encrypted: \(Self.describe(error))")))
            return file
        }
        let file = try store.saveRecovery(Array(document.records), for: name, at: state.environment.clock.now)
        guard removingPlaintext else {
            auditUnread = nil
            return file
        }
        // The last save's surveys stay what its notes look for.
        let notes = sealedAtSave
        outcomes += self.sealed(sealed, in: SurveyDocument(records: Array(state.records) + Array(document.records)))
        sealedAtSave = notes
        return file
    }
}
