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

/// Drafts keep an unsent New form across quits and crashes, one per document, so field
/// workers never retype an interview. The leading "." keeps them out of the document list.
extension DocumentStore {
    /// folder/.NAME.draft.plist
    public func draftURL(for name: String) -> URL {
        companionURL(.draft, for: name)
    }

    /// The saved draft; a missing or unreadable draft is an empty record (a draft is a
    /// convenience, never a reason to stop work).
    public func loadDraft(for name: String) -> Record {
        guard DocumentName.isUsable(name),
              case .success(let data) = readFile(draftURL(for: name)),
              let document = try? SurveyDocument(propertyListData: data) else { return Record() }
        return document.records.first ?? Record()
    }

    /// A blank record (judged by `questionnaire`) removes the draft file; otherwise it is
    /// written atomically as a one-record document.
    public func saveDraft(_ record: Record, for name: String,
                          in questionnaire: Questionnaire) throws {
        guard DocumentName.isUsable(name) else {
            throw DocumentError("\"\(name)\" is not a usable document name")
        }
        let url = draftURL(for: name)
        if record.isBlank(in: questionnaire) {
            if fileSystem.unlink(url.path) != 0, errno != ENOENT {
                throw DocumentError("Could not remove \(url.lastPathComponent): \(SystemError("unlink").reason)")
            }
            return
        }
        let data = try SurveyDocument(records: [record]).propertyListData()
        try write(data, to: url)
    }
}
