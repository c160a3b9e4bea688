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

/// Deleted surveys are never gone for good: each document keeps the surveys deleted from it
/// in a hidden `.NAME.deleted.plist` beside it (an XML property list plistlib reads: an
/// array of `{deletedAt, record}` dictionaries, oldest first), which follows the document
/// through rename, trash and restore as its draft does (`DocumentCompanion`). Beside the
/// document rather than in `.trash/` so a copy of the folder carries it, and one file per
/// document so `survey deleted` reads only what it lists.
///
/// The file is only ever rewritten whole, atomically, by the store's `write`; one that is
/// there but cannot be read is never written over (it may be the only copy of what was
/// deleted): every change refuses with the reason until it is repaired or moved away.
extension DocumentStore {
    /// folder/.NAME.deleted.plist
    public func deletedURL(for name: String) -> URL {
        companionURL(.deleted, for: name)
    }

    /// Adds `records` at the end of the document's deleted surveys, all with `date`, in one
    /// atomic write; earlier entries are kept as they are, even ones this code cannot read.
    /// A record without an `instanceID` is given one here, so that it can be brought back
    /// by id (a caller that wants to undo the delete by id gives ids first). Call it before
    /// saving the document without them: if it throws, nothing is deleted yet.
    public func appendDeleted(_ records: [Record], for name: String, at date: Date) throws {
        try checkDeletedName(name)
        guard !records.isEmpty else { return }
        var entries = try deletedEntries(for: name)
        var kept = SurveyDocument(records: records)
        kept.assignMissingInstanceIDs()
        entries += kept.records.map { DeletedRecord(record: $0, deletedAt: date).entry }
        try writeDeletedEntries(entries, for: name)
    }

    /// The document's deleted surveys, in the order they were deleted (most recent last).
    /// Empty when there are none, or when the file cannot be read (a listing is no reason to
    /// stop; a change to the file reports why). Entries not shaped as this code writes
    /// them are skipped.
    public func deletedRecords(for name: String) -> [DeletedRecord] {
        guard DocumentName.isUsable(name), let entries = try? deletedEntries(for: name) else { return [] }
        return entries.compactMap(DeletedRecord.init(entry:))
    }

    /// Puts the most recently deleted survey with `id` back at the end of document `name`
    /// and removes it from the deleted surveys. Refused, with nothing changed, when no
    /// deleted survey has that id, when the document cannot be read, or when a survey with
    /// that id is in the document already (it was brought back, or imported, before).
    ///
    /// The document is saved first, then the deleted surveys: if that second write fails,
    /// the survey is in the document and still listed as deleted, and the error says so;
    /// bringing it back again is then refused (its id is in the document), so it can never
    /// be doubled, and `removeFromDeleted` can tidy the list. Returns the record as put back.
    @discardableResult
    public func undelete(id: String, from name: String) throws -> Record {
        try checkDeletedName(name)
        var entries = try deletedEntries(for: name)
        guard let index = entries.lastIndex(where: { DeletedRecord(entry: $0)?.record.instanceID == id }),
              let deleted = DeletedRecord(entry: entries[index]) else {
            let none = entries.compactMap(DeletedRecord.init(entry:)).isEmpty
            throw DocumentError(none ? "“\(name)” has no deleted surveys"
                                     : "No deleted survey of “\(name)” has the id \(id)")
        }
        // Another role deleted it on the server: bringing it back here is a change only that
        // role may make (issue 28). An unreadable ledger stops nothing here: the sync says why.
        if let ledger = try? syncLedger(for: name), let owner = ledger.othersOwner(of: id), ledger.bases[id]?.deleted == true {
            throw DocumentError("\(id) is not brought back: \(SurveyOwner.reason(owner)), and it is deleted on the server")
        }
        var document = try load(name).get()
        if let place = document.records.firstIndex(where: { $0.instanceID == id }) {
            throw DocumentError("\(id) is already in “\(name)” (record \(place + 1), "
                + "\(title(of: document.records[place], in: name, document))): nothing brought back")
        }
        document.records.append(deleted.record)
        document.assignMissingInstanceIDs()
        try save(document, as: name)
        entries.remove(at: index)
        do {
            try writeDeletedEntries(entries, for: name)
        } catch let error as DocumentError {
            throw DocumentError("Put \(title(of: deleted.record, in: name, document)) back into “\(name)”, but it is still listed "
                + "as deleted: \(error.message)")
        }
        return deleted.record
    }

    /// A survey named as its document's questionnaire names it (read only when a message
    /// needs it).
    private func title(of record: Record, in name: String, _ document: SurveyDocument) -> String {
        documentForm(for: name, firstSurveys: Array(document.records.prefix(Self.formCheckSurveys))).questionnaire.title(of: record)
    }

    /// Removes, for each id, its most recently deleted survey from the list (the UI's undo
    /// of a delete, once the surveys are back in the document). Ids not listed are ignored;
    /// nothing is written when nothing changes, and the file goes when it empties.
    public func removeFromDeleted(ids: Set<String>, for name: String) throws {
        try checkDeletedName(name)
        guard !ids.isEmpty, isOccupied(deletedURL(for: name)) else { return }
        var entries = try deletedEntries(for: name)
        var left = ids
        for index in entries.indices.reversed() {
            guard let id = DeletedRecord(entry: entries[index])?.record.instanceID, left.contains(id) else { continue }
            entries.remove(at: index)
            left.remove(id)
        }
        guard left.count < ids.count else { return }
        try writeDeletedEntries(entries, for: name)
    }

    // MARK: - The file

    func checkDeletedName(_ name: String) throws {
        guard DocumentName.isUsable(name) else {
            throw DocumentError("\"\(name)\" is not a usable document name")
        }
        if let refusal = rawNameRefusal(for: name) { throw refusal }
    }

    /// Every entry as found ([] when there is no file), each a dictionary; read through
    /// `SurveyDocument`, whose array-of-dictionaries shape the file shares, with its checks.
    func deletedEntries(for name: String) throws -> [[String: PropertyValue]] {
        let fileName = deletedURL(for: name).lastPathComponent
        let data: Data
        switch readFile(deletedURL(for: name)) {
        case .success(let contents): data = contents
        case .failure(.system(_, let code)) where code == ENOENT: return []
        case .failure(let failure): throw Self.unreadableDeleted(Self.describe(failure, fileName: fileName))
        }
        do {
            return try SurveyDocument(propertyListData: data).records.map(\.values)
        } catch let error as DocumentError {
            throw Self.unreadableDeleted("\(fileName): \(error.message)")
        }
    }

    private static func unreadableDeleted(_ reason: String) -> DocumentError {
        DocumentError("\(reason); it holds deleted surveys, so survey does not write over it "
            + "(repair it or move it away)")
    }

    /// Atomically; an empty list removes the file.
    func writeDeletedEntries(_ entries: [[String: PropertyValue]], for name: String) throws {
        let url = deletedURL(for: name)
        guard !entries.isEmpty else {
            if fileSystem.unlink(url.path) != 0, errno != ENOENT {
                throw DocumentError("Could not remove \(url.lastPathComponent): \(SystemError("unlink").reason)")
            }
            return
        }
        let data = try SurveyDocument(records: entries.map(Record.init)).propertyListData()
        try write(data, to: url)
    }
}
