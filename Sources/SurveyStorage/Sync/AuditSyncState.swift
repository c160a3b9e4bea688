import FoundationEssentials
import SurveyValues
import SurveyForms

/// How far a document's audit log (`.NAME.audit.csv`) went to the team's store and came from
/// it, kept in `.NAME.audit-sync.plist` (a one-entry property list plistlib reads): the
/// dataset it is of, how many of the log's events were sent (the log is only ever added to,
/// so a count is a place in it), the server's number of the last line taken, and the log's
/// size when last looked at, so a sync whose log did not grow reads nothing of it.
///
/// Written only after what it says is done: a sync cut off before sends the same lines
/// again, which the server keeps once, and takes lines it already took, which the log keeps
/// once.
public struct AuditSyncState: Equatable, Sendable {
    public var dataset: String
    public var sent: Int
    public var cursor: Int64
    public var size: Int64

    public init(dataset: String, sent: Int = 0, cursor: Int64 = 0, size: Int64 = -1) {
        self.dataset = dataset
        self.sent = sent
        self.cursor = cursor
        self.size = size
    }

    var propertyList: [String: PropertyValue] {
        ["dataset": .string(dataset), "sent": .integer(sent), "cursor": .integer(Int(cursor)), "size": .integer(Int(size))]
    }

    /// nil when the entry is not one (a file written by hand, a newer survey's): the sync then
    /// starts again from nothing, which sends and takes nothing twice.
    init?(propertyList entry: [String: PropertyValue]) {
        guard case .string(let dataset)? = entry["dataset"], case .integer(let sent)? = entry["sent"], sent >= 0,
              case .integer(let cursor)? = entry["cursor"], cursor >= 0, case .integer(let size)? = entry["size"] else { return nil }
        self.init(dataset: dataset, sent: sent, cursor: Int64(cursor), size: Int64(size))
    }
}

extension DocumentStore {
    /// The audit log's sync state; nil when there is none (or it cannot be read).
    public func auditSyncState(for name: String) -> AuditSyncState? {
        guard case .success(let data) = readFile(companionURL(.auditSync, for: name)),
              let document = try? SurveyDocument(propertyListData: data), document.records.count == 1 else { return nil }
        return AuditSyncState(propertyList: document.records[0].values)
    }

    public func writeAuditSyncState(_ state: AuditSyncState, for name: String) throws {
        try write(to: companionURL(.auditSync, for: name)) { output in
            try SurveyDocument(records: [Record(state.propertyList)]).writePropertyList(to: output)
        }
    }

    /// No more audit sync for this document (its form encrypts: the log goes inside each
    /// submission), so a sync with nothing to do does not take it up again either.
    public func forgetAuditSync(for name: String) {
        _ = fileSystem.unlink(companionURL(.auditSync, for: name).path)
    }

    /// The audit log's size in bytes; nil when there is none.
    public func auditLogSize(for name: String) -> Int64? {
        fingerprint(atPath: RawPath(auditURL(for: name).path))?.size
    }
}
