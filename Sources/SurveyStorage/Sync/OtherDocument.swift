import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues
import SurveyForms

/// Another laptop's copy of a document, brought on a USB stick: its surveys, and, when its
/// companions are beside it, the surveys deleted there (`.NAME.deleted.plist`, its
/// tombstones) and its ledger (`.NAME.sync.plist`, its bases). Only ever read: a file that
/// is not a survey document (damaged, a folder, a FIFO, too large, a ledger that cannot be
/// read) is refused whole with the reason, before anything here is written.
/// It is what a sync sees of any document (`SyncState`: surveys, deleted surveys, ledger),
/// read from the stick instead of the folder.
public typealias OtherDocument = SyncState

extension OtherDocument {
    /// Reads `url` and its companions. Its surveys without ids get the ids derived from
    /// their place and answers, the ones the app would give them, so two copies of one
    /// file agree which survey is which.
    public static func read(_ url: URL) throws -> OtherDocument {
        let fileName = url.lastPathComponent
        let data: Data
        switch DocumentFileReader.read(RawPath(url.path)) {
        case .success(let contents): data = contents
        case .failure(.system(_, let code)) where code == ENOENT: throw DocumentError("\(url.path) does not exist")
        case .failure(let failure): throw DocumentError(DocumentStore.describe(failure, fileName: url.path))
        }
        var document: SurveyDocument
        do {
            document = try SurveyDocument(propertyListData: data)
        } catch let error as DocumentError {
            throw DocumentError("\(fileName): \(error.message)")
        }
        document.identifyRecordsFoundWithoutIDs()
        var other = OtherDocument(records: Array(document.records))
        let suffix = DocumentName.fileSuffix
        guard fileName.hasSuffix(suffix), fileName.count > suffix.count else { return other }
        let stem = String(fileName.dropLast(suffix.count))
        let beside = DocumentStore(folder: url.deletingLastPathComponent())
        guard DocumentName.isUsable(stem) else { return other }
        do {
            other.deleted = try beside.deletedEntries(for: stem).compactMap(DeletedRecord.init(entry:))
        } catch let error as DocumentError {
            throw DocumentError("beside \(fileName): \(error.message)")
        }
        other.ledger = try DocumentStore.readLedger(at: beside.syncURL(for: stem))
        return other
    }
}

extension SyncPlan {
    /// The other copy's surveys as incoming versions, and `ledger` given the other copy's
    /// bases where they are a better common version than ours: a base of theirs whose
    /// answers are what this document holds now says "they built on this very version",
    /// so what they have is taken as a fast-forward (ours may be older, or missing).
    ///
    /// A survey's revision is its base's when it is unchanged since (a server's revision
    /// keeps travelling), else the digest of its answers. A survey deleted there (in its
    /// deleted surveys, or a base that is now absent from the file) comes as a tombstone.
    public static func incoming(from other: OtherDocument, adoptingBasesInto state: inout SyncState) -> [IncomingVersion] {
        var mine: [String: [String: PropertyValue]] = [:]
        for record in state.records { if let id = record.instanceID, mine[id] == nil { mine[id] = record.answers } }
        var versions: [IncomingVersion] = []
        var seen = Set<String>()
        for record in other.records {
            guard let id = record.instanceID, seen.insert(id).inserted else { continue }
            let answers = record.answers
            let theirBase = other.ledger.bases[id]
            let revision = theirBase.flatMap { !$0.deleted && $0.answers == answers ? $0.revision : nil }
            versions.append(IncomingVersion(id: id, answers: answers, revision: revision, review: other.ledger.reviews[id]))
        }
        var tombstones: [String: [String: PropertyValue]] = [:]
        for entry in other.deleted {
            if let id = entry.record.instanceID, !seen.contains(id) { tombstones[id] = entry.record.answers }
        }
        for (id, base) in other.ledger.bases where !seen.contains(id) && tombstones[id] == nil {
            tombstones[id] = base.answers
        }
        for id in tombstones.keys.sorted() {
            let answers = tombstones[id]!
            let theirBase = other.ledger.bases[id]
            let revision = theirBase.flatMap { $0.deleted && $0.answers == answers ? $0.revision : nil }
            versions.append(IncomingVersion(id: id, answers: answers, revision: revision, deleted: true,
                                            review: other.ledger.reviews[id]))
        }
        for (id, theirBase) in other.ledger.bases where !theirBase.deleted {
            guard let current = mine[id], current == theirBase.answers else { continue }
            let ours = state.ledger.bases[id]
            if ours == nil || ours!.deleted || ours!.answers != current { state.ledger.bases[id] = theirBase }
        }
        return versions
    }
}
