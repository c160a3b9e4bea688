import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey export --format odk-csv|odk-xml --output FOLDER`: the files of ODK's CSV set, or
/// one ODK submission per survey in ODK Briefcase's storage layout, written by
/// `ExportFolder`: each whole or not at all, only inside FOLDER (a name from the form or a
/// survey is made a plain file name, never a path), and nothing when any file is already
/// there and `--force` was not given, so a second export never mixes with a first. A form
/// with a `public_key` makes each submission an encrypted one, as ODK Collect sends it: the
/// manifest as `submission.xml` and `submission.xml.enc` beside it, which ODK Briefcase,
/// Central and `survey decrypt` open with the private key, and nothing else can. A form with
/// an `audit` row adds each survey's `audit.csv` (ODK Collect's audit log, split from the
/// document's `.NAME.audit.csv`) beside its `submission.xml`, encrypted as `audit.csv.enc`
/// and listed in the manifest's media when the form has a key. A survey the document keeps
/// encrypted (`Record.isSealed`) is written as it was sealed, without any key.
struct ODKExport {
    let format: DataFormat
    let folder: String
    let force: Bool
    let groupNames: Bool
    /// CSV cells as they are, without the `'` before a formula (`SpreadsheetFormula`).
    var raw = false
    /// Incomplete surveys left out; else each is written with its mark (`incomplete`, a
    /// column of the main table or an element after the form's).
    var completeOnly = false

    /// How many surveys were exported, and how many were incomplete.
    func write(store: DocumentStore, name: String, questionnaire: Questionnaire) throws -> RecordOutput.Written {
        let reader = try RecordBatchReader(store: store, name: name)
        var records: [Record] = []
        while let batch = try reader.next() { records += batch }
        var written = RecordOutput.Written(incomplete: records.reduce(0) { $0 + ($1.isIncomplete ? 1 : 0) })
        if completeOnly { records.removeAll(where: \.isIncomplete) }
        written.surveys = records.count
        var files: [ExportFolder.File] = []
        if format == .odkCSV {
            let formID = questionnaire.form?.formID.flatMap { $0.isEmpty ? nil : $0 } ?? name
            files = try SurveyDocument(records: records)
                .odkCSVFiles(questionnaire: questionnaire, formID: formID, groupNames: groupNames, raw: raw)
                .map { ExportFolder.File(path: [$0.name], data: Data($0.text.utf8)) }
        } else {
            // Surveys already encrypted (finished under the form's key) leave as they are kept;
            // the key is needed only for the others (incomplete ones, or finished before the
            // form had its key).
            let key = records.allSatisfy(\.isSealed) ? nil : try questionnaire.form?.publicKey.map { text in
                do { return try RSAPublicKey(base64: text) } catch {
                    throw DocumentError("the form's public_key is not a usable RSA public key (\(error)): nothing was exported, "
                                        + "as the surveys would leave unencrypted (attach the form with its key corrected)")
                }
            }
            // A form with an `audit` row: each survey's `audit.csv` beside its submission
            // (Briefcase's layout), sealed with it when the form encrypts (a media file, as
            // Collect encrypts it).
            let audit = try AuditSettings(form: questionnaire.form).map { ($0, try store.auditLog(for: name)) }
            let auditKey = questionnaire.form?.questions.first { $0.kind == .metadata("audit") }?.name
            var taken: Set<String> = []
            for (i, record) in records.enumerated() {
                var path = ODKSubmission.briefcasePath(record, questionnaire: questionnaire, fallbackID: "survey\(i + 1)")
                // Two ids that make one folder name (`uuid:a/b`, `uuid:ab`) keep a folder each.
                let slot = path.count - 2
                let plain = path[slot]
                var number = 1
                while !taken.insert(path[slot].lowercased()).inserted {
                    number += 1
                    path[slot] = "\(plain)-\(number)"
                }
                if record.isSealed {
                    // Its encrypted submission, byte for byte as it was sealed: no key needed.
                    // One damaged (a teammate's, an edit by hand) is named and left out; the
                    // rest are written.
                    let sealed: ODKEncryptedSubmission
                    do { sealed = try SealedSurvey.submission(of: record) } catch {
                        written.refused.append("survey \(i + 1) (\(ShellOutput.printable(record.instanceID ?? "no id"))): \(error)")
                        written.surveys -= 1
                        continue
                    }
                    files.append(ExportFolder.File(path: path, data: Data(sealed.manifestXML)))
                    files += sealed.files.map { ExportFolder.File(path: path.dropLast() + [$0.name], data: Data($0.bytes)) }
                    continue
                }
                let auditCSV = audit.flatMap { settings, log in record.instanceID.flatMap { log.collectFile(for: $0, settings: settings) } }
                // The submission names its audit file, as Collect's does (`meta/audit`): ODK
                // Central keeps only the attachments a submission names.
                var named = record
                if auditCSV != nil, let key = auditKey { named[key] = .string("audit.csv") }
                let xml = try ODKSubmission.xml(named, questionnaire: questionnaire)
                let media = auditCSV.map { [ODKSubmissionFile(name: "audit.csv", bytes: Array($0.utf8))] } ?? []
                guard let key else {
                    files.append(ExportFolder.File(path: path, data: Data(xml.utf8)))
                    files += media.map { ExportFolder.File(path: path.dropLast() + [$0.name], data: Data($0.bytes)) }
                    continue
                }
                files += try Self.encrypted(xml, of: record, fallbackID: "survey\(i + 1)", questionnaire: questionnaire, key: key,
                                            at: path, media: media)
            }
        }
        try ExportFolder.write(files, into: URL(fileURLWithPath: folder), replacing: force)
        return written
    }

    /// One survey's encrypted submission at `path` (its `submission.xml`): the manifest
    /// there, the encrypted files beside it. A survey without an instanceID (an old file's)
    /// is sealed under the id its folder is named by, as the IVs need one.
    static func encrypted(_ xml: String, of record: Record, fallbackID: String, questionnaire: Questionnaire,
                          key: RSAPublicKey, at path: [String], media: [ODKSubmissionFile] = []) throws -> [ExportFolder.File] {
        let form = questionnaire.form
        let sealed = try ODKSubmissionCrypto.encrypt(formID: form?.formID ?? "", version: form?.version,
                                                     instanceID: record.instanceID ?? fallbackID,
                                                     submissionXML: Array(xml.utf8), media: media, for: key)
        let folder = path.dropLast()
        return [ExportFolder.File(path: path, data: Data(sealed.manifestXML))]
            + sealed.files.map { ExportFolder.File(path: folder + [$0.name], data: Data($0.bytes)) }
    }
}
