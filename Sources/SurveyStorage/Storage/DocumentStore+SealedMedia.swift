import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// A finished survey of a form with a `public_key` takes its attachments inside its encrypted
/// submission (issue 31), as ODK Collect encrypts every file of a finalized instance: the
/// files are read from `NAME.media/` when it is sealed, and their plaintext leaves the folder
/// only once the sealed survey is on disk, so a failure before that leaves every file as it
/// was. A file another survey still kept in plaintext names (an incomplete one; the same
/// photo attached twice is one file, `copyAttachment`) stays for it.
extension DocumentStore {
    /// The most bytes of attachments one encrypted survey takes inside the document.
    public static let maximumSealedAttachmentBytes: Int64 = 32 << 20

    /// The attachments `record`'s answers name, read from the document's media folder, for
    /// `SealedSurvey.seal`. A name that is no plain file name of the folder, or whose file is
    /// not there, is passed over (nothing of it is kept here; its name stays the answer, as
    /// Collect seals only the files the instance has); a file that cannot be read (a link, no
    /// permission) throws, so the survey is not finished rather than sealed without it.
    public func attachmentFiles(of record: Record, questionnaire: Questionnaire, for name: String) throws -> [ODKSubmissionFile] {
        let names = SealedSurvey.attachmentNames(of: record, questionnaire: questionnaire)
        guard !names.isEmpty, let folder = mediaFolderToRead(for: name) else { return [] }
        var files: [ODKSubmissionFile] = []
        var total: Int64 = 0
        for file in names where MediaFolder.problem(withName: file) == nil {
            let url = folder.appendingPathComponent(file)
            var status = stat()
            guard lstat(url.path, &status) == 0 else {
                if errno == ENOENT { continue }
                throw DocumentError("The attachment \(file) could not be read to be encrypted: \(SystemError("lstat").reason)")
            }
            // Sealed, the files live inside the document, which survey reads up to 512 MB: a few
            // videos would make it one survey cannot open. Refused before anything is read.
            total += Int64(status.st_size)
            guard total <= Self.maximumSealedAttachmentBytes else {
                throw DocumentError("The attachments of this survey are more than "
                    + "\(DocumentFileReader.sizeText(Int(Self.maximumSealedAttachmentBytes))), more than an encrypted survey keeps "
                    + "inside the document (which survey opens up to \(DocumentFileReader.sizeText(DocumentFileReader.maximumBytes))): "
                    + "the survey was not finished; attach smaller files")
            }
            do {
                files.append(ODKSubmissionFile(name: file, bytes: Array(try CopiedFile.read(url.path, in: fileSystem).data)))
            } catch let error as DocumentError {
                throw DocumentError("The attachment \(file) could not be encrypted with the survey (\(error.message)); the survey was not finished")
            }
        }
        return files
    }

    /// The finished surveys of `document` at `indices` sealed for the form's key, each with
    /// its attachments (`attachmentFiles`). Returns the names of the files sealed, for
    /// `removeSealedAttachments` once the document is saved.
    func sealFinishedSurveys(in document: inout SurveyDocument, at indices: Range<Int>, questionnaire: Questionnaire,
                             name: String) throws -> Set<String> {
        let sealed = try document.sealFinishedSurveys(at: indices, questionnaire: questionnaire) { record in
            try attachmentFiles(of: record, questionnaire: questionnaire, for: name)
        }
        return Set(sealed.flatMap { SealedSurvey.attachmentNames(of: $0, questionnaire: questionnaire) })
    }

    /// After a save that sealed surveys naming `files`: their plaintext removed from the
    /// media folder, but those a survey of `document` still kept in plaintext names. Through
    /// the store's `FileSystem`. Returns a message naming the files left and why, or nil:
    /// the surveys are saved either way, and a file left stays as it was (nothing is lost; the
    /// message says to remove it).
    public func removeSealedAttachments(_ files: Set<String>, keepingThoseOf document: SurveyDocument,
                                        alsoKeeping more: [Record] = [],
                                        questionnaire: Questionnaire, for name: String) -> String? {
        // A file is one per content (`copyAttachment` gives identical bytes the name already
        // there): kept while a survey still in clear names it, in the document, among its
        // deleted surveys (`survey undelete` brings one back), or `more` (the New form).
        let deleted = deletedRecords(for: name).map(\.record)
        let kept = SealedSurvey.plaintextAttachmentNames(in: document.records + deleted + more, questionnaire: questionnaire)
        let removable = files.subtracting(kept).filter { MediaFolder.problem(withName: $0) == nil }.sorted()
        guard !removable.isEmpty, let folder = mediaFolderToRead(for: name) else { return nil }
        var left: [String] = []
        var reason = ""
        for file in removable where fileSystem.unlink(folder.appendingPathComponent(file).path) != 0 && errno != ENOENT {
            reason = SystemError("unlink").reason
            left.append(file)
        }
        guard !left.isEmpty else { return nil }
        return "Saved encrypted, but \(left.joined(separator: ", ")) could not be removed from \(folder.lastPathComponent) "
            + "(\(reason)): the file is left there in plaintext; remove it once the encrypted survey is safe"
    }
}
