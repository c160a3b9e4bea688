import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// A form with a `public_key` (issue 31): every survey a save finishes (an Add of the New
/// form, [ Finish ] of an incomplete one, a copy) reaches the disk only encrypted, as ODK
/// Collect encrypts a form at finalizing (`SealedSurvey`). The save seals it before anything
/// is written, so the journal, the `.plist` and the ledger only ever see the encrypted survey;
/// the New form's file is removed by the `.saveDraft` after it, once the encrypted survey is
/// on disk (the core orders them so: a failed save puts the New form back and writes it
/// again). An incomplete survey stays as keyed, as Collect keeps a draft unencrypted.
///
/// Only the surveys this save changed are sealed: a survey finished before the form had its
/// key, or another role's pulled from the server, is left as it is (sealing it would be an
/// edit of it). A key that cannot be used refuses the save of a survey to be sealed, with the
/// reason; the state goes back as it was, the New form with it.
extension Program {
    /// Seals the finished, unsealed surveys of `document` that differ from `base` (all of
    /// them without a base). Returns the plaintext of each (its id removed) with its id, for
    /// `sealed(_:)` to keep once the save is written.
    func sealFinishedSurveys(in document: inout SurveyDocument, since base: SurveyDocument?) throws -> [(plain: Record, id: String)] {
        let questionnaire = state.questionnaire
        guard questionnaire.form?.publicKey != nil else { return [] }
        let old = base?.records
        // The surveys this save changed: those whose storage differs from the base's (whole
        // unchanged chunks skipped), and those after its end.
        let changed = old.map { old in
            document.records.differingIndices(from: old) + Array(min(old.count, document.records.count)..<document.records.count)
        } ?? Array(document.records.indices)
        var candidates: [Int] = []
        for i in changed where SealedSurvey.needsSealing(document.records[i]) {
            if let old, i < old.count, document.records[i] == old[i] { continue }
            candidates.append(i)
        }
        guard !candidates.isEmpty, let key = try SealedSurvey.publicKey(of: questionnaire) else { return [] }
        // A form with an `audit` row: each survey's log travels inside its submission as
        // `audit.csv.enc`, as Collect seals it; the lines kept beside the document for it and
        // those this very change brings (`pendingAudit`) go in, and leave the plain log.
        let settings = AuditSettings(form: questionnaire.form)
        let log = try settings.map { _ in try store.auditLog(for: state.documentName) }
        var sealed: [(plain: Record, id: String)] = []
        for i in candidates {
            let plain = document.records[i]
            let id = plain.instanceID ?? ""
            var anonymous = plain
            anonymous.removeValue(forKey: Record.instanceIDKey)
            // Its attachments (photos, files its answers name) first, as Collect encrypts the
            // instance's files; their plaintext leaves `NAME.media/` once the save is on disk.
            var media = try store.attachmentFiles(of: plain, questionnaire: questionnaire, for: state.documentName)
            if let settings, let log {
                var events = log.events.filter { $0.survey == id }
                for (added, pending) in pendingAudit {
                    if let added {
                        var new = added.record
                        new.removeValue(forKey: Record.instanceIDKey)
                        guard new == anonymous else { continue }
                        events += pending.map { event in
                            var event = event
                            if event.survey.isEmpty { event.survey = id }
                            return event
                        }
                    } else {
                        events += pending.filter { $0.survey == id }
                    }
                }
                if let text = AuditLog(events).collectFile(for: id, settings: settings) {
                    media.append(ODKSubmissionFile(name: "audit.csv", bytes: Array(text.utf8)))
                }
            }
            document.records[i] = try SealedSurvey.seal(plain, questionnaire: questionnaire, key: key, media: media)
            sealed.append((anonymous, id))
        }
        return sealed
    }

    /// After the save that sealed `surveys` into `document` is on disk: they are kept for the
    /// notes made after it (`id(of:)`, `unsealedAudit`), their attachments' plaintext leaves
    /// the media folder and their lines the plain audit log (they are inside each submission
    /// now). A file or log that cannot be removed or rewritten is said; the surveys are saved.
    /// A save that failed or was not made keeps none and removes nothing, so nothing is noted
    /// of a survey that is not on disk and no file is lost.
    mutating func sealed(_ surveys: [(plain: Record, id: String)], in document: SurveyDocument) -> [Outcome] {
        sealedAtSave = surveys
        guard !sealedAtSave.isEmpty else { return [] }
        // The form encrypts: its log goes inside each submission, never to the team's store in
        // clear, not even by a sync with nothing to do (`DocumentSync.syncAudit`).
        store.forgetAuditSync(for: state.documentName)
        let questionnaire = state.questionnaire
        var outcomes: [Outcome] = []
        let attachments = Set(surveys.flatMap { SealedSurvey.attachmentNames(of: $0.plain, questionnaire: questionnaire) })
        if let left = store.removeSealedAttachments(attachments, keepingThoseOf: document, questionnaire: questionnaire,
                                                    for: state.documentName) {
            outcomes.append(.documents(.operationFailed(left)))
        }
        guard AuditSettings(form: questionnaire.form) != nil else { return outcomes }
        do {
            try store.removeAudit(of: Set(sealedAtSave.map(\.id)), for: state.documentName)
        } catch {
            outcomes.append(.documents(.operationFailed("Saved encrypted, but the audit log kept beside the document could not be "
                + "rewritten without it: \(Self.describe(error))")))
        }
        return outcomes
    }

    /// `.noteAudit`'s events but those already sealed inside a survey's submission.
    func unsealedAudit(_ events: [AuditEvent]) -> [AuditEvent] {
        guard !sealedAtSave.isEmpty else { return events }
        let ids = Set(sealedAtSave.map(\.id))
        return events.filter { !ids.contains($0.survey) }
    }

    /// The audit events among `effects`, by the New form's survey they belong to (nil: each
    /// event names its own): what a save that seals them finds in `pendingAudit`.
    static func auditEvents(in effects: [Effect]) -> [(added: AddedSurvey?, events: [AuditEvent])] {
        guard effects.contains(.saveDocument) else { return [] }
        return effects.compactMap { effect in
            if case .noteAudit(_, let events, let added) = effect { return (added, events) }
            return nil
        }
    }

    /// The id of a survey the last save sealed, found by its plaintext (the encrypted survey
    /// no longer shows its answers to `locate`).
    func sealedID(of record: Record) -> String? {
        guard !sealedAtSave.isEmpty else { return nil }
        var anonymous = record
        anonymous.removeValue(forKey: Record.instanceIDKey)
        return sealedAtSave.first { $0.plain == anonymous }?.id
    }
}
