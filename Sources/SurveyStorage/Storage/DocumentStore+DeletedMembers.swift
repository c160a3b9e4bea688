import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension DocumentStore {
    /// Adds a deleted member at the end of the document's deleted surveys, in one atomic
    /// write (earlier entries kept as they are). Call it before saving the survey without
    /// the member: if it throws, nothing is deleted yet.
    public func appendDeletedMember(_ member: DeletedMemberEntry, for name: String) throws {
        try checkDeletedName(name)
        var entries = try deletedEntries(for: name)
        entries.append(member.entry)
        try writeDeletedEntries(entries, for: name)
    }

    /// The members deleted from the document's surveys, oldest first.
    public func deletedMembers(for name: String) -> [DeletedMemberEntry] {
        guard DocumentName.isUsable(name), let entries = try? deletedEntries(for: name) else { return [] }
        return entries.compactMap(DeletedMemberEntry.init(entry:))
    }
}
