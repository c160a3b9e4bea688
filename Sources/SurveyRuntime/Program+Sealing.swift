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
    /// Seals the finished, unsealed surveys of `document` that `base` does not hold as they
    /// are (all of them without a base), matched by instance id as the entity lists match
    /// them (`placesChanged`): a delete that moves the surveys after it changes none of them.
    /// `base` is what this save changes: the file as just read back when it changed on disk
    /// (`lastSeen`), so a teammate's surveys a merge brought are not this save's. Another
    /// role's survey (the ledger's owners) is never sealed here. Returns the plaintext of
    /// each (its id removed) with its id, for `sealed(_:)` to keep once the save is written.
    /// `held` is the document as the UI core holds it, survey for survey (this save's copy
    /// before ids and stamps): each survey is kept as it holds it, so the notes after the save
    /// find it (`sealedID`); nil keeps the sealed copy's plaintext.
    mutating func sealFinishedSurveys(in document: inout SurveyDocument, since base: SurveyDocument?,
                                      held: SurveyDocument? = nil) throws -> [(plain: Record, id: String)] {
        auditUnread = nil
        let questionnaire = state.questionnaire
        guard questionnaire.form?.publicKey != nil else { return [] }
        let others = state.session.sync?.othersSurveys ?? [:]
        var candidates: [Int] = []
        for (i, _) in Self.placesChanged(in: document, since: base ?? SurveyDocument())
        where SealedSurvey.needsSealing(document.records[i]) && document.records[i].instanceID.flatMap({ others[$0] }) == nil {
            candidates.append(i)
        }
        guard !candidates.isEmpty, let key = try SealedSurvey.publicKey(of: questionnaire) else { return [] }
        // A form with an `audit` row: each survey's log travels inside its submission as
        // `audit.csv.enc`, as Collect seals it; the lines kept beside the document for it and
        // those this very change brings (`pendingAudit`) go in, and leave the plain log.
        // A log that cannot be read never stops the finish (the keyer would be stuck): the
        // survey is sealed with the lines this change brings, the older ones stay beside it.
        let settings = AuditSettings(form: questionnaire.form)
        var log: AuditLog?
        if settings != nil {
            do { log = try store.auditLog(for: state.documentName) } catch {
                log = AuditLog()
                auditUnread = Self.describe(error)
            }
        }
        var sealed: [(plain: Record, id: String)] = []
        for i in candidates {
            let plain = document.records[i]
            let id = plain.instanceID ?? ""
            // An entity base stamped on the save's copy would hide it from the notes (`held`).
            var anonymous = held.flatMap { $0.records.indices.contains(i) ? $0.records[i] : nil } ?? plain
            anonymous.removeValue(forKey: Record.instanceIDKey)
            // Its attachments (photos, files its answers name) first, as Collect encrypts the
            // instance's files; their plaintext leaves `NAME.media/` once the save is on disk.
            var media = try store.attachmentFiles(of: plain, questionnaire: questionnaire, for: state.documentName)
            if let settings, let log {
                var events = log.events.filter { $0.survey == id }
                for (added, pending) in pendingAudit {
                    if let added {
                        guard self.id(ofAdded: added, in: document) == id else { continue }
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

    /// The id the survey just added from the New form has in `document` (the save's copy,
    /// ids given and entity stamps made): its own, or that of the survey with its answers at or
    /// after its place in the document before the save (a stamp or an id changes the answers,
    /// so the save's copy is not compared with it).
    private func id(ofAdded added: AddedSurvey, in document: SurveyDocument) -> String? {
        if let id = added.record.instanceID { return id }
        guard let current = state.document, let found = current.locate(added.record, near: added.near),
              found >= added.near, document.records.indices.contains(found) else { return nil }
        return document.records[found].instanceID
    }

    /// After the save that sealed `surveys` into `document` is on disk: they are kept for the
    /// notes made after it (`id(of:)`, `unsealedAudit`), their attachments' plaintext leaves
    /// the media folder and their lines the plain audit log (they are inside each submission
    /// now). A file that cannot be removed is said; a log that cannot be rewritten is said,
    /// and tried again at the next save; the surveys are saved. Surveys sealed without the
    /// plain lines (the log unreadable) keep them there, and that is said. A save that failed
    /// or was not made keeps none and removes nothing, so nothing is noted of a survey that is
    /// not on disk and no file is lost.
    mutating func sealed(_ surveys: [(plain: Record, id: String)], in document: SurveyDocument) -> [Outcome] {
        sealedAtSave = surveys
        var outcomes: [Outcome] = []
        let name = state.documentName
        let questionnaire = state.questionnaire
        if !surveys.isEmpty {
            // The form encrypts: its log goes inside each submission, never to the team's store
            // in clear, not even by a sync with nothing to do (`DocumentSync.syncAudit`).
            store.forgetAuditSync(for: name)
            let attachments = Set(surveys.flatMap { SealedSurvey.attachmentNames(of: $0.plain, questionnaire: questionnaire) })
            // The New form may name a file a sealed survey shared (the same photo attached again).
            let newForm = [state.draft]
            if let left = store.removeSealedAttachments(attachments, keepingThoseOf: document, alsoKeeping: newForm,
                                                        questionnaire: questionnaire,
                                                        for: name) {
                outcomes.append(.documents(.operationFailed(left)))
            }
        }
        if let unread = auditUnread {
            auditUnread = nil
            outcomes.append(.documents(.operationFailed("Saved encrypted without the audit lines kept beside the document, "
                + "which could not be read (\(unread)): they stay there")))
        } else if AuditSettings(form: questionnaire.form) != nil, !surveys.isEmpty {
            auditToRemove[name, default: []].formUnion(surveys.map(\.id))
        }
        for (document, ids) in auditToRemove where document == name || store.exists(document) {
            do {
                try store.removeAudit(of: ids, for: document)
                auditToRemove[document] = nil
            } catch {
                outcomes.append(.documents(.operationFailed("Saved encrypted, but the audit log kept beside the document could not be "
                    + "rewritten without it (tried again at the next save): \(Self.describe(error))")))
            }
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
