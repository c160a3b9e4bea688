import FoundationEssentials
import SurveyValues

/// A finished survey of a form with a `public_key` made the record survey keeps of it
/// (`Record.Sealed`): ODK's encrypted submission, exactly as `survey export --format odk-xml`
/// writes it and ODK Collect sends it, beside what the team reads without the key. Pure: the
/// callers (the app's save, `survey add`, an import) put the result in place of the survey.
public enum SealedSurvey {
    /// The form's public key, or why a survey cannot be sealed for it; nil when the form
    /// has no `public_key` (its surveys stay as keyed).
    public static func publicKey(of questionnaire: Questionnaire) throws -> RSAPublicKey? {
        guard let text = questionnaire.form?.publicKey else { return nil }
        do {
            return try RSAPublicKey(base64: text)
        } catch {
            throw CryptoError("the form's public_key is not a usable RSA public key (\(error)), so the survey cannot be "
                + "encrypted for the data manager: it was not finished, and its answers are kept as they were "
                + "(attach the form with its public_key corrected, then finish it)")
        }
    }

    /// Whether `record` is one to seal under this form: finished (not incomplete), not
    /// sealed yet, with its id. A survey of the original five never is (they have no form).
    public static func needsSealing(_ record: Record) -> Bool {
        !record.isIncomplete && !record.isSealed && record.hasInstanceID
    }

    /// The keys that stay readable: the survey's id, the form's id and version, the times
    /// and the keyer the form records (`start`, `end`, `today`, `username`), and the
    /// top-level answers the form marks `publishable`.
    public static func readableKeys(in questionnaire: Questionnaire) -> Set<String> {
        var keys = Set(Questionnaire.identityKeys)
        for field in questionnaire.recordFields {
            switch field.kind {
            case .metadata(let kind) where ["start", "end", "today", "username"].contains(kind): keys.insert(field.key)
            default: if field.isPublishable { keys.insert(field.key) }
            }
        }
        return keys
    }

    /// The survey sealed for `key`: its `submission.xml` (as the export writes it) and
    /// `media` (its attachments' files, by the names its answers give, and its `audit.csv`) encrypted as ODK Collect encrypts a finished form, the
    /// readable keys kept. The manifest's form id is the form's `form_id` (else the
    /// instance's root name, as the submission's `id`), its version the one the survey was
    /// keyed with.
    public static func seal(_ record: Record, questionnaire: Questionnaire, key: RSAPublicKey,
                            media: [ODKSubmissionFile] = []) throws -> Record {
        guard let id = record.instanceID else { throw CryptoError("a survey is encrypted under its instanceID, and this one has none") }
        var named = record
        if media.contains(where: { $0.name == "audit.csv" }),
           let auditKey = questionnaire.form?.questions.first(where: { $0.kind == .metadata("audit") })?.name {
            // The submission names its audit file, as Collect's does (`meta/audit`).
            named[auditKey] = .string("audit.csv")
        }
        let xml = try ODKSubmission.xml(named, questionnaire: questionnaire)
        let form = questionnaire.form
        let formID = [form?.formID, form?.rootName].compactMap { $0 }.first { !$0.isEmpty } ?? "data"
        let keyed = record.text(forKey: Questionnaire.formVersionKey)
        let version: String? = !keyed.isEmpty ? keyed : form?.version.flatMap { $0.isEmpty ? nil : $0 }
        let sealed = try ODKSubmissionCrypto.encrypt(formID: formID, version: version, instanceID: id,
                                                     submissionXML: Array(xml.utf8), media: media, for: key)
        var out = Record()
        for key in readableKeys(in: questionnaire) {
            if let value = record[key] { out[key] = value }
        }
        out[Record.Sealed.formIDKey] = .string(formID)
        out[Record.Sealed.versionKey] = version.map { PropertyValue.string($0) }
        out[Record.Sealed.encryptedKeyKey] = .string(sealed.manifest.base64EncryptedKey)
        let files = sealed.files
        if files.count > 1 {
            out[Record.Sealed.mediaNamesKey] = .array(files.dropLast().map { PropertyValue.string($0.name) })
            out[Record.Sealed.mediaKey] = .array(files.dropLast().map { PropertyValue.data(Data($0.bytes)) })
        }
        out[Record.Sealed.submissionKey] = .data(Data(files.last!.bytes))
        out[Record.Sealed.signatureKey] = sealed.manifest.base64EncryptedElementSignature.map { PropertyValue.string($0) }
        return out
    }

    /// The encrypted submission a sealed survey holds, as its folder holds it: the manifest
    /// (`submission.xml`) and the encrypted files, rebuilt from the stored fields without
    /// the key. Throws, naming what is missing, for a survey whose fields were damaged.
    public static func submission(of record: Record) throws -> ODKEncryptedSubmission {
        func text(_ key: String) throws -> String {
            guard case .string(let value)? = record[key], !value.isEmpty else {
                throw CryptoError("the encrypted survey \(record.instanceID ?? "without an id") has no \(key.dropFirst()): it is damaged")
            }
            return value
        }
        guard let id = record.instanceID else { throw CryptoError("an encrypted survey has no instanceID: it is damaged") }
        guard case .data(let submission)? = record[Record.Sealed.submissionKey] else {
            throw CryptoError("the encrypted survey \(id) has no submission.xml.enc: it is damaged")
        }
        var files: [ODKSubmissionFile] = []
        switch (record[Record.Sealed.mediaNamesKey], record[Record.Sealed.mediaKey]) {
        case (nil, nil):
            break
        case (.array(let names)?, .array(let bytes)?) where names.count == bytes.count:
            for (name, data) in zip(names, bytes) {
                guard case .string(let name) = name, case .data(let data) = data else {
                    throw CryptoError("the encrypted survey \(id)'s media are damaged")
                }
                _ = try ODKFileName.plaintextName(of: name, what: "media file")   // the whole name, `.enc` and all
                files.append(ODKSubmissionFile(name: name, bytes: Array(data)))
            }
        default:
            throw CryptoError("the encrypted survey \(id)'s media are damaged")
        }
        files.append(ODKSubmissionFile(name: "submission.xml.enc", bytes: Array(submission)))
        let version: String?
        if case .string(let stored)? = record[Record.Sealed.versionKey] { version = stored } else { version = nil }
        let signature: String?
        if case .string(let stored)? = record[Record.Sealed.signatureKey] { signature = stored } else { signature = nil }
        let manifest = ODKManifest(formID: try text(Record.Sealed.formIDKey), version: version, instanceID: id,
                                   base64EncryptedKey: try text(Record.Sealed.encryptedKeyKey),
                                   mediaFiles: files.dropLast().map(\.name), encryptedXMLFile: "submission.xml.enc",
                                   base64EncryptedElementSignature: signature)
        return ODKEncryptedSubmission(manifest: manifest, manifestXML: manifest.xml, files: files)
    }

    /// A sealed survey opened with the private key (`survey decrypt` of a document).
    public static func open(_ record: Record, with privateKey: RSAPrivateKey) throws -> ODKDecryptedSubmission {
        let submission = try submission(of: record)
        let files = Dictionary(submission.files.map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        return try ODKSubmissionCrypto.decrypt(manifestXML: submission.manifestXML, file: { name in
            guard let bytes = files[name] else { throw CryptoError("\(name) is not in the survey") }
            return bytes
        }, with: privateKey)
    }
}

extension SurveyDocument {
    /// Seals the finished, unsealed surveys at `indices` for the form's `public_key`
    /// (`SealedSurvey`), each with the files `media` reads for it (its attachments, by the
    /// names its answers give); a form without one changes nothing. Throws, changing
    /// nothing, when the key cannot be used or a file cannot be read and a survey there is
    /// to be sealed. Returns the surveys sealed, as they were before.
    @discardableResult
    public mutating func sealFinishedSurveys(at indices: Range<Int>, questionnaire: Questionnaire,
                                             media: (Record) throws -> [ODKSubmissionFile] = { _ in [] }) throws -> [Record] {
        guard questionnaire.form?.publicKey != nil else { return [] }
        let candidates = indices.filter { SealedSurvey.needsSealing(records[$0]) }
        guard !candidates.isEmpty, let key = try SealedSurvey.publicKey(of: questionnaire) else { return [] }
        var sealed = records
        for i in candidates {
            sealed[i] = try SealedSurvey.seal(records[i], questionnaire: questionnaire, key: key, media: try media(records[i]))
        }
        let plain = candidates.map { records[$0] }
        records = sealed
        return plain
    }
}
