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
    /// written atomically as a one-record document. `storedAs` marks the file as holding the
    /// survey the document is being saved with under that id, exactly (`draftStoredAs`): a
    /// second element, which `loadDraft` (and any earlier version) leaves aside. Every other
    /// write leaves the mark out, so it never outlives the answers it was written with.
    public func saveDraft(_ record: Record, for name: String,
                          in questionnaire: Questionnaire, storedAs: String? = nil) throws {
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
        let mark = storedAs.map { [Record([Self.draftStoredAsKey: .string($0)])] } ?? []
        let data = try SurveyDocument(records: [record] + mark).propertyListData()
        try write(data, to: url)
    }

    static let draftStoredAsKey = "storedAs"

    /// The id the New form's file says its record was stored under (`saveDraft(storedAs:)`):
    /// the file holds that survey as the save that stored it had it. nil without a mark.
    public func draftStoredAs(for name: String) -> String? {
        guard DocumentName.isUsable(name),
              case .success(let data) = readFile(draftURL(for: name)),
              let document = try? SurveyDocument(propertyListData: data), document.records.count == 2,
              case .string(let id)? = document.records[1][Self.draftStoredAsKey] else { return nil }
        return id
    }
}
