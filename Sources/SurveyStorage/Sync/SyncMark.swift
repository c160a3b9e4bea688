import FoundationEssentials
import SurveyValues
import SurveyForms

/// What a sync with nothing to do needs, in `.NAME.synced.plist` beside the document: the
/// three files as the last sync left them (their fingerprints), where its pull stands, and
/// whether anything was left to send. While the files are still those, nothing was keyed,
/// resolved or merged since, so a sync need not read 100,000 surveys and their ledger to
/// find nothing to send: it asks the server whether anything came and is done in a few
/// milliseconds (issue 28: a sync with nothing to do took 6.7 s at 100,000).
///
/// A cache, never the only record of anything: its cursor, own changes and time of sync are
/// the ledger's while its ledger fingerprint is the ledger file's (`syncLedger(for:)` reads
/// them over the file's), and any other write of the ledger, the document or its deleted
/// surveys leaves the mark behind, unused. One that cannot be read is ignored.
public struct SyncMark: Equatable, Sendable {
    public struct Files: Equatable, Sendable {
        public var document: FileFingerprint?
        public var ledger: FileFingerprint?
        /// The ledger's journal (`SyncLedgerJournal`): a commit that appends to it changes the
        /// ledger as much as one that writes the file.
        public var ledgerJournal: FileFingerprint?
        public var deleted: FileFingerprint?
        /// The form file and its kept id: they say which of the server's datasets the
        /// document's surveys are (its form's id), so a form attached or changed since makes
        /// a whole sync, which reads the form.
        public var form: FileFingerprint?
        public var formID: FileFingerprint?
    }

    public var files: Files
    /// The document's name when it was written: a renamed document (whose dataset may be its
    /// name) makes a whole sync first.
    public var document: String
    /// The server's name for the document's surveys (its form's id), and the newest version
    /// of that form the server had (nil: none published).
    public var dataset: String
    public var formVersion: String?
    public var pullCursor: Int64?
    public var ownChanges: [ClosedRange<Int64>]
    public var lastSync: Date?
    /// Surveys in conflict: what `survey sync` says after a sync.
    public var conflicts: [String]
    /// Whether the last sync left nothing to send (nothing refused, nothing unsendable).
    public var nothingToSend: Bool

    public init(files: Files, document: String, dataset: String, formVersion: String?, ledger: SyncLedger, nothingToSend: Bool) {
        self.files = files
        self.document = document
        self.dataset = dataset
        self.formVersion = formVersion
        pullCursor = ledger.pullCursor
        ownChanges = ledger.ownChanges
        lastSync = ledger.lastSync
        conflicts = ledger.conflicts.keys.sorted()
        self.nothingToSend = nothingToSend
    }

    /// The cursor moved on to `cursor` (own changes it passed drop out).
    public mutating func advance(to cursor: Int64) {
        pullCursor = max(pullCursor ?? cursor, cursor)
        ownChanges.removeAll { $0.upperBound <= cursor }
    }

    func overlay(on ledger: inout SyncLedger) {
        ledger.pullCursor = pullCursor
        ledger.ownChanges = ownChanges
        if let lastSync { ledger.lastSync = max(ledger.lastSync ?? lastSync, lastSync) }
    }
}

extension SyncMark {
    var propertyList: [String: PropertyValue] {
        func fingerprint(_ f: FileFingerprint?) -> PropertyValue {
            guard let f else { return .array([]) }
            return .array([.integer(Int(truncatingIfNeeded: f.inode)), .integer(Int(f.size)), .integer(f.modifiedSeconds),
                           .integer(f.modifiedNanoseconds)])
        }
        var entry: [String: PropertyValue] = [
            "syncMark": .integer(1), "document": fingerprint(files.document), "ledger": fingerprint(files.ledger),
            "ledgerJournal": fingerprint(files.ledgerJournal),
            "deleted": fingerprint(files.deleted), "dataset": .string(dataset), "nothingToSend": .bool(nothingToSend),
            "form": fingerprint(files.form), "formIDFile": fingerprint(files.formID),
            "name": .string(document),
            "ownChanges": SyncLedger.propertyList(of: ownChanges),
            "conflicts": .array(conflicts.map { .string($0) }),
        ]
        if let formVersion { entry["formVersion"] = .string(formVersion) }
        if let pullCursor { entry["pullCursor"] = .integer(Int(pullCursor)) }
        if let lastSync { entry["lastSync"] = .date(lastSync) }
        return entry
    }

    /// nil for anything but a mark this code wrote: it is then not used.
    init?(propertyList entry: [String: PropertyValue]) {
        guard case .integer(1)? = entry["syncMark"], case .string(let dataset)? = entry["dataset"],
              case .string(let document)? = entry["name"],
              case .bool(let nothing)? = entry["nothingToSend"],
              let ranges = entry["ownChanges"].flatMap(SyncLedger.changeRanges),
              case .array(let conflicted)? = entry["conflicts"] else { return nil }
        func fingerprint(_ value: PropertyValue?) -> FileFingerprint?? {
            guard case .array(let parts)? = value else { return .none }
            if parts.isEmpty { return .some(nil) }
            guard parts.count == 4, case .integer(let inode) = parts[0], case .integer(let size) = parts[1],
                  case .integer(let seconds) = parts[2], case .integer(let nanoseconds) = parts[3] else { return .none }
            return .some(FileFingerprint(inode: UInt64(bitPattern: Int64(inode)), size: Int64(size), modifiedSeconds: seconds,
                                         modifiedNanoseconds: nanoseconds))
        }
        // A mark written before the ledger had a journal names none (nor was there one).
        let ledgerJournal = entry["ledgerJournal"] == nil ? .some(nil) : fingerprint(entry["ledgerJournal"])
        guard let documentFile = fingerprint(entry["document"]), let ledger = fingerprint(entry["ledger"]), let ledgerJournal,
              let deleted = fingerprint(entry["deleted"]), let form = fingerprint(entry["form"]),
              let formID = fingerprint(entry["formIDFile"]) else { return nil }
        var ids: [String] = []
        for item in conflicted {
            guard case .string(let id) = item else { return nil }
            ids.append(id)
        }
        files = Files(document: documentFile, ledger: ledger, ledgerJournal: ledgerJournal, deleted: deleted, form: form, formID: formID)
        self.document = document
        self.dataset = dataset
        nothingToSend = nothing
        ownChanges = ranges
        conflicts = ids
        if case .string(let version)? = entry["formVersion"] { formVersion = version }
        if case .integer(let cursor)? = entry["pullCursor"] { pullCursor = Int64(cursor) }
        if case .date(let date)? = entry["lastSync"] { lastSync = date }
    }
}

extension DocumentStore {
    /// The document's mark as written, whatever the files are now (nil: none, or unreadable).
    func syncMark(for name: String) -> SyncMark? {
        guard case .success(let data) = readFile(companionURL(.syncMark, for: name)),
              let document = try? SurveyDocument(propertyListData: data), document.records.count == 1 else { return nil }
        return SyncMark(propertyList: document.records[0].values)
    }

    /// The mark, when the document, its ledger and its deleted surveys are still the files it
    /// was written of and no journal holds changes not yet in the document: then nothing
    /// happened here since that sync.
    public func currentSyncMark(for name: String) -> SyncMark? {
        guard let mark = syncMark(for: name), mark.document == name, mark.files == syncFiles(of: name),
              !DocumentJournal.holdsEntries(at: journalURL(for: name)) else { return nil }
        return mark
    }

    /// Writes `mark`, if its files are still the ones on disk (else removes any old mark: a
    /// mark is only ever of the files it names). Under the folder's lock, as saves are.
    public func writeSyncMark(_ mark: SyncMark, for name: String) throws {
        try withFolderLock {
            let url = companionURL(.syncMark, for: name)
            guard mark.files == syncFiles(of: name) else {
                _ = fileSystem.unlink(url.path)
                return
            }
            try write(to: url) { output in
                try SurveyDocument(records: [Record(mark.propertyList)]).writePropertyList(to: output)
            }
        }
    }
}
