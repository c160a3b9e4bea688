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

/// The I/O around `SyncPlan`: a document's sync state read in one go, and the result
/// written as one change across its three files (the deleted surveys, the document, the
/// ledger), under the folder's lock. Written in that order, so a crash part-way leaves a
/// document already merged with a ledger that has not heard of it, and applying the same
/// versions again finds nothing new to do; a write that fails puts back the files already
/// written, byte for byte, so the document and ledger are as they were.
extension DocumentStore {
    /// folder/.NAME.sync.plist
    public func syncURL(for name: String) -> URL {
        companionURL(.sync, for: name)
    }

    /// The document's ledger; empty when it has none. One that cannot be read is refused
    /// (it may hold the only record of a conflict), never replaced.
    ///
    /// A sync with nothing to do writes only its mark (`SyncMark`): while the mark is of this
    /// very ledger file, its cursor, own changes and time of sync are the ledger's.
    ///
    /// `inPart`: read in part when it can be (`PartialLedger`), for a sync about to touch a few
    /// surveys.
    public func syncLedger(for name: String, inPart: Bool = false) throws -> SyncLedger {
        let fingerprint = self.fingerprint(atPath: RawPath(syncURL(for: name).path))
        let journal = self.fingerprint(atPath: RawPath(companionURL(.syncJournal, for: name).path))
        var ledger = try (inPart ? SyncLedger.readInPart(at: syncURL(for: name)) : nil) ?? Self.readLedger(at: syncURL(for: name))
        if let mark = syncMark(for: name), mark.files.ledger == fingerprint, mark.files.ledgerJournal == journal {
            mark.overlay(on: &ledger)
        }
        return ledger
    }

    /// A ledger file anywhere (another laptop's, beside its document on a USB stick), with its
    /// journal. Read again when a whole write replaced the file while it was read (its journal
    /// then goes): read the other way round, the old file would come without its journal's
    /// changes (a few times at most).
    public static func readLedger(at url: URL, limit: Int = SyncLedger.maximumFileBytes) throws -> SyncLedger {
        var ledger = SyncLedger()
        for _ in 1...5 {
            let before = fileIdentity(url)
            ledger = try readLedgerOnce(at: url, limit: limit)
            if fileIdentity(url) == before { break }
        }
        return ledger
    }

    private static func readLedgerOnce(at url: URL, limit: Int) throws -> SyncLedger {
        let fileName = url.lastPathComponent
        // A window at a time where the scanner reads the file (every ledger survey writes), each
        // batch of entries taken into the ledger as it comes: neither the 60 MB file nor its
        // entries are ever in memory whole beside the ledger made of them.
        var status = stat()
        let fileBytes = stat(url.path, &status) == 0 ? Int(status.st_size) : nil
        var reader = SyncLedger.EntryReader(fileBytes: fileBytes)
        let scanned: Result<Bool, DocumentFileReader.Failure>
        do {
            scanned = try DocumentFileReader.scanRecords(RawPath(url.path), limit: limit) { batch in
                for entry in batch { try reader.take(entry) }
            }
        } catch let error as DocumentError {
            throw unreadableLedger("\(fileName): \(error.message)")
        }
        switch scanned {
        case .success(true):
            do {
                return withJournal(try reader.finished(), beside: url)
            } catch let error as DocumentError {
                throw unreadableLedger("\(fileName): \(error.message)")
            }
        case .success(false): reader = SyncLedger.EntryReader(fileBytes: fileBytes)     // read again whole, below
        case .failure(.system(_, let code)) where code == ENOENT: return SyncLedger()
        case .failure(let failure): throw unreadableLedger(describe(failure, fileName: fileName))
        }
        let data: Data
        switch DocumentFileReader.read(RawPath(url.path), limit: limit) {
        case .success(let contents): data = contents
        case .failure(.system(_, let code)) where code == ENOENT: return SyncLedger()
        case .failure(let failure): throw unreadableLedger(describe(failure, fileName: fileName))
        }
        do {
            let records = try SurveyDocument(propertyListData: data).records
            return withJournal(try SyncLedger(propertyListEntries: records.count) { records[records.startIndex + $0] }, beside: url)
        } catch let error as DocumentError {
            throw unreadableLedger("\(fileName): \(error.message)")
        }
    }

    /// `ledger`, read from the file at `url`, with the chunks of its journal folded in
    /// (`SyncLedgerJournal`): what every reader of a ledger reads. The chunks are taken in
    /// order up to the first that cannot be read (the ledger as that commit found it), and the
    /// ledger notes how far that was (`FileToken.journalEnd`). What changes from here is noted
    /// afresh (`LedgerTable`).
    static func withJournal(_ ledger: SyncLedger, beside url: URL) -> SyncLedger {
        var ledger = ledger
        ledger.fileToken.journalEnd = nil
        // The digest of the ledger's ends is worked out only when there is a journal to bind:
        // most ledgers have none, and every sync, F4 and `survey conflicts` reads one.
        var info = stat()
        if let token = ledger.fileToken.value, let journal = ledgerJournalURL(beside: url),
           lstat(journal.path, &info) == 0, let first = SyncLedgerJournal.firstLine(token: token, ledger: url) {
            let read = SyncLedgerJournal.chunks(at: journal, first: first)
            if read.headerEnd > 0 { ledger.fileToken.journalEnd = read.headerEnd }
            for (chunk, end) in zip(read.chunks, read.ends) {
                guard let records = try? SurveyDocument(propertyListData: chunk).records,
                      (try? ledger.fold(chunk: Array(records))) != nil else { break }
                ledger.fileToken.journalEnd = end
            }
        }
        ledger.forgetChanges()
        return ledger
    }

    /// `.STEM.sync-journal` beside the ledger `.STEM.sync.plist` (nil for a file named
    /// otherwise, which has no journal).
    static func ledgerJournalURL(beside ledger: URL) -> URL? {
        let name = ledger.lastPathComponent
        let suffix = DocumentCompanion.sync.marker + DocumentName.fileSuffix
        guard name.hasPrefix("."), name.hasSuffix(suffix), name.count > suffix.count + 1 else { return nil }
        let stem = String(name.dropFirst().dropLast(suffix.count))
        return ledger.deletingLastPathComponent().appendingPathComponent(DocumentCompanion.syncJournal.fileName(stem: stem))
    }

    private static func unreadableLedger(_ reason: String) -> DocumentError {
        DocumentError("\(reason); it holds what this document's sync knows, so survey does not write over it "
            + "(repair it or move it away)")
    }

    /// What a sync starts from, and the files' fingerprints as it read them.
    public struct SyncSnapshot: Sendable {
        public let name: String
        public private(set) var state: SyncState
        /// The ledger was lent out (`lendLedger`): a commit over this snapshot is told whether
        /// it changed instead of comparing it with this one.
        public private(set) var ledgerLent = false
        public let fingerprint: FileFingerprint?
        /// The three files as this snapshot knows them: what a `SyncMark` is of.
        public internal(set) var files: SyncMark.Files
        /// Surveys found without ids were given them in `state` only: the document must be
        /// written with them before a ledger names them.
        let assignedIDs: Bool
        /// The token of the ledger file read (`SyncLedgerJournal`): a commit over this snapshot
        /// appends to the journal only with the ledger of that very file.
        var ledgerToken: String?

        /// The ledger, taken out so that changing it copies nothing: kept here too, the
        /// first change to each of its tables copied the whole table (21 MB at 100,000
        /// surveys). `takeBack` returns it if nothing is committed.
        public mutating func lendLedger() -> SyncLedger {
            precondition(!ledgerLent, "the ledger is lent out already")
            let ledger = state.ledger
            state.ledger = SyncLedger()
            ledgerLent = true
            return ledger
        }

        /// The ledger made whole when it was read in part (`PartialLedger.whole`): before
        /// anything asks it of every survey. The file is read again then, with its journal as
        /// it is now: when another program changed the files since this snapshot (a `survey
        /// resolve` appending to the journal), that ledger would not be of this snapshot's
        /// document, and a look over the two would send what the other program took back. The
        /// snapshot is then taken again, whole, as a commit refused by such a change takes it.
        public mutating func makeLedgerWhole(in store: DocumentStore) throws {
            precondition(!ledgerLent, "the ledger is lent out")
            guard state.ledger.isPartial else { return }
            if store.isCurrent(self), let whole = try? state.ledger.whole(), store.isCurrent(self) {
                state.ledger = whole
            } else {
                self = try store.syncSnapshot(of: name)
            }
        }

        /// Where a look for changes here must look (`SyncPlan.outgoing`), its bases read, when
        /// the ledger was read in part; nil when it is whole (made so when the document's file
        /// cannot be read by its lines, or is no longer the one this snapshot read, or reading
        /// more bases than a part holds).
        public mutating func lookForChangesHere(in store: DocumentStore) throws -> ChangesLook? {
            guard state.ledger.isPartial else { return nil }
            let path = store.filePath(for: name)
            if store.isCurrent(self), let digests = DocumentDigests.read(path), store.isCurrent(self),
               let look = state.ledger.changesLook(state.records, digests: digests) {
                var ledger = state.ledger
                try ledger.load(look.places.compactMap { state.records[$0].instanceID } + look.gone)
                // Made whole past a part's size: the journal read now must still be this snapshot's.
                if ledger.isPartial || store.isCurrent(self) {
                    state.ledger = ledger
                    return ledger.isPartial ? look : nil
                }
            }
            try makeLedgerWhole(in: store)
            return nil
        }

        /// The ledger lent out, back unchanged (nothing was committed).
        public mutating func takeBack(_ ledger: SyncLedger) {
            state.ledger = ledger
            ledgerLent = false
        }
    }

    func syncFiles(of name: String) -> SyncMark.Files {
        SyncMark.Files(document: fingerprint(of: name), ledger: fingerprint(atPath: RawPath(syncURL(for: name).path)),
                       ledgerJournal: fingerprint(atPath: RawPath(companionURL(.syncJournal, for: name).path)),
                       deleted: fingerprint(atPath: RawPath(deletedURL(for: name).path)),
                       form: formURL(for: name).flatMap { fingerprint(atPath: RawPath($0.path)) },
                       formID: fingerprint(atPath: RawPath(companionURL(.formID, for: name).path)))
    }

    /// Whether the three files are still as `snapshot` read them (else a commit over it refuses).
    public func isCurrent(_ snapshot: SyncSnapshot) -> Bool { Self.sameSyncFiles(syncFiles(of: snapshot.name), snapshot.files) }

    /// The three files a sync commit writes are as a snapshot read them (a `survey resolve`
    /// writes only the ledger, a delete only the deleted surveys: either refuses a commit
    /// built on the files before). The form is not one of them: a sync takes a new version.
    static func sameSyncFiles(_ a: SyncMark.Files, _ b: SyncMark.Files) -> Bool {
        a.document == b.document && a.ledger == b.ledger && a.ledgerJournal == b.ledgerJournal && a.deleted == b.deleted
    }

    /// Reads the document (every survey given its id, as the app gives it), its deleted
    /// surveys and its ledger. A journal a crashed session left is put back into the file
    /// first; one still holding changes after a moment (the app has the document open and
    /// its file is not caught up) refuses, as its changes are not in the file yet.
    /// `readOnly` (a dry run) writes nothing: the journal's changes are read on top of the
    /// file instead.
    ///
    /// `ledgerInPart`: the ledger read in part when it can be (`PartialLedger`), for a sync;
    /// its caller reads the entries it needs before touching them.
    public func syncSnapshot(of name: String, readOnly: Bool = false, ledgerInPart: Bool = false) throws -> SyncSnapshot {
        try checkDeletedName(name)
        var document: SurveyDocument
        let fingerprint: FileFingerprint?
        if !readOnly {
            _ = try? putBackJournal(of: name)
            // A copy of survey open on it keeps its journal (empty once the file caught up):
            // only changes not yet in the file refuse, after a moment's wait for them.
            if !journalCaughtUp(of: name) {
                throw DocumentError("“\(name)” has changes in \(journalURL(for: name).lastPathComponent) not yet in its file "
                    + "(is survey open on it?): close it, then run this again")
            }
        }
        // The files as they are before any is read: one written after this makes the commit
        // over this snapshot refuse, whichever read it raced.
        fingerprint = self.fingerprint(of: name)
        var files = syncFiles(of: name)
        files.document = fingerprint
        // A large ledger is read on a second thread while the document is read here: each was
        // a fifth of a sync of 100 edits at 100,000 surveys, one after the other.
        // Read in part only from a size where reading it whole costs more than a few milliseconds.
        let inPart = ledgerInPart && (files.ledger?.size ?? 0) >= Self.ledgerReadInPartFrom
        let beside = (files.ledger?.size ?? 0) >= Self.ledgerReadBesideFrom
            ? BesideRead.start { try self.syncLedger(for: name, inPart: inPart) } : nil
        do {
            document = try readOnly ? loadWithJournal(name).get() : load(name).get()
        } catch {
            _ = try? beside?.result()
            throw error
        }
        let assigned = document.identifyRecordsFoundWithoutIDs() > 0
        _ = try deletedEntries(for: name)          // an unreadable list stops here, before anything is written
        let ledger = try beside?.result() ?? syncLedger(for: name, inPart: inPart)
        return SyncSnapshot(name: name, state: SyncState(records: Array(document.records), deleted: deletedRecords(for: name),
                                                         ledger: ledger),
                            fingerprint: fingerprint, files: files, assignedIDs: assigned, ledgerToken: ledger.fileToken.value)
    }

    /// Writes `state` over `snapshot`: only the files that change. `movedToDeleted` join the
    /// deleted surveys (with `date`), `broughtBack` leave them. Refused, with nothing
    /// written, when the document changed since the snapshot was taken. Returns whether
    /// anything was written.
    @discardableResult
    public func commitSync(_ state: SyncState, over snapshot: SyncSnapshot, movedToDeleted: [Record] = [],
                           broughtBack: Set<String> = [], at date: Date) throws -> Bool {
        try committed(state, over: snapshot, movedToDeleted: movedToDeleted, broughtBack: broughtBack, at: date) != nil
    }

    /// `commitSync`, returning the snapshot of what is now on disk (nil: nothing needed
    /// writing, `snapshot` still is): built from `state` and the files' new fingerprints, not
    /// read again, so a sync of 100,000 surveys reads its document once.
    /// `ledgerChanged` is the caller's word for it, required when the snapshot's ledger was
    /// lent out; otherwise the ledgers are compared.
    public func committed(_ state: SyncState, over snapshot: SyncSnapshot, movedToDeleted: [Record] = [],
                          broughtBack: Set<String> = [], ledgerChanged: Bool? = nil, at date: Date) throws -> SyncSnapshot? {
        var state = state
        let name = snapshot.name
        let documentChanged = state.records != snapshot.state.records
        let deletedChanged = !movedToDeleted.isEmpty || !broughtBack.isEmpty
        precondition(ledgerChanged != nil || !snapshot.ledgerLent, "a lent ledger is compared with nothing")
        let ledgerChanged = ledgerChanged ?? (state.ledger != snapshot.state.ledger)
        guard documentChanged || deletedChanged || ledgerChanged else { return nil }
        return try withFolderLock {
            guard Self.sameSyncFiles(syncFiles(of: name), snapshot.files) else {
                throw DocumentError("“\(name)” was changed by another program meanwhile: nothing was written; run this again")
            }
            // Each file is linked aside before it is replaced and put back from there if a later
            // one fails: no copy of a 30 MB document is held in memory for it.
            var written: [(URL, SetAside)] = []
            // A large ledger is written beside the other two files, on a second thread, and put
            // in place after them (`SideWrite`). A small one is not worth a thread, and keeps the
            // calls through the file-system seam in one order for the tests that fail each in turn.
            // A few surveys' entries are appended to the ledger's journal; otherwise the ledger is
            // written whole, with a new token, which leaves any journal behind.
            let journaled = ledgerChanged ? ledgerJournalIDs(state.ledger, over: snapshot) : nil
            // A ledger read in part is written whole only once made whole (its changes put on
            // the file read again).
            if ledgerChanged, journaled == nil, state.ledger.isPartial { state.ledger = try state.ledger.whole() }
            if ledgerChanged, journaled == nil { state.ledger.fileToken = state.ledger.fileToken.next() }   // no journal read
            var sideLedger: SideWrite?
            if ledgerChanged, journaled == nil, !state.ledger.isEmpty, state.ledger.bases.count >= Self.ledgerWrittenBesideFrom {
                sideLedger = SideWrite.start(self, syncURL(for: name),
                                             contents: Self.ledgerContents(state.ledger, fileName: syncURL(for: name).lastPathComponent))
            }
            do {
                if deletedChanged {
                    var entries = try deletedEntries(for: name)
                    for id in broughtBack {
                        if let last = entries.lastIndex(where: { DeletedRecord(entry: $0)?.record.instanceID == id }) {
                            entries.remove(at: last)
                        }
                    }
                    entries += movedToDeleted.map { DeletedRecord(record: $0, deletedAt: date).entry }
                    written.append((deletedURL(for: name), try linkAside(deletedURL(for: name))))
                    try writeDeletedEntries(entries, for: name)
                }
                if documentChanged || snapshot.assignedIDs {
                    written.append((url(for: name), try linkAside(url(for: name))))
                    try save(SurveyDocument(records: state.records), as: name)
                }
                if ledgerChanged, let ids = journaled, let token = state.ledger.fileToken.value {
                    // Last, as the whole file would be; a failed append leaves the journal as it was.
                    guard let first = SyncLedgerJournal.firstLine(token: token, ledger: syncURL(for: name)) else {
                        throw DocumentError("Could not read \(syncURL(for: name).lastPathComponent): \(SystemError("read").reason)")
                    }
                    state.ledger.fileToken.journalEnd = try SyncLedgerJournal.append(
                        SyncLedgerJournal.chunk(of: state.ledger, ids: ids), to: companionURL(.syncJournal, for: name), first: first,
                        readEnd: state.ledger.fileToken.journalEnd, in: fileSystem)
                } else if ledgerChanged {
                    written.append((syncURL(for: name), try linkAside(syncURL(for: name))))
                    if let side = sideLedger {
                        sideLedger = nil
                        try side.install()
                    } else {
                        try writeLedger(state.ledger, for: name)
                    }
                }
            } catch {
                sideLedger?.abandon()
                for (url, old) in written.reversed() { putBack(old, at: url) }
                throw error
            }
            for (_, old) in written { if case .linked(let aside) = old { _ = fileSystem.unlink(aside.path) } }
            // The whole ledger holds what its journal did: the journal goes (one left behind,
            // of the old file's token, would be ignored).
            if ledgerChanged, journaled == nil { _ = fileSystem.unlink(companionURL(.syncJournal, for: name).path) }
            state.ledger.forgetChanges()
            // Fresh fingerprints for the files written; the others as the snapshot knew them.
            let now = syncFiles(of: name)
            var files = snapshot.files
            files.form = now.form
            files.formID = now.formID
            if documentChanged || snapshot.assignedIDs { files.document = now.document }
            if deletedChanged { files.deleted = now.deleted }
            if ledgerChanged {
                files.ledger = now.ledger
                files.ledgerJournal = now.ledgerJournal
            }
            return SyncSnapshot(name: name, state: state, fingerprint: files.document, files: files, assignedIDs: false,
                                ledgerToken: ledgerChanged ? state.ledger.fileToken.value : snapshot.ledgerToken)
        }
    }

    /// The surveys whose entries a commit appends to the ledger's journal, or nil when it
    /// writes the ledger whole: a few surveys' change to a large ledger read from the file now
    /// there, while the journal is small beside it (an eighth of the file, or a megabyte). Past
    /// that the next commit writes the ledger whole, so a reader never folds more than that.
    func ledgerJournalIDs(_ ledger: SyncLedger, over snapshot: SyncSnapshot) -> Set<String>? {
        guard let token = ledger.fileToken.value, token == snapshot.ledgerToken, !ledger.isEmpty, let ids = ledger.changedIDs,
              let file = fingerprint(atPath: RawPath(syncURL(for: snapshot.name).path)),
              file.size >= Self.ledgerJournaledFrom else { return nil }
        // Something else in the journal's place (a link, a folder) is never written through:
        // the whole write removes it.
        var info = stat()
        let journal = companionURL(.syncJournal, for: snapshot.name).path
        if lstat(journal, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { return nil }
        // What an append keeps of the journal: as much as this ledger was read with.
        let journalBytes = Int64(ledger.fileToken.journalEnd ?? 0)
        return journalBytes <= max(file.size / 8, Self.ledgerJournalFloor) ? ids : nil
    }

    /// The size a journal may reach whatever its ledger's (a test lowers it).
    nonisolated(unsafe) static var ledgerJournalFloor: Int64 = 1 << 20

    /// The size of ledger file from which a commit of a few surveys appends to its journal
    /// instead (a test lowers it, to run every sync of a small folder through the journal).
    /// Below it, writing the whole file costs a few milliseconds.
    nonisolated(unsafe) static var ledgerJournaledFrom: Int64 = 1 << 20

    /// The size of ledger file from which a snapshot reads it on a second thread, beside the
    /// document (about 15,000 surveys: below, a thread is not worth it). Tried before the
    /// ledger's journal, it took a sync's peak past 100 MB at 100,000 surveys; a sync of a few
    /// surveys no longer writes the whole ledger beside it, and peaks at 92–94 MB.
    nonisolated(unsafe) static var ledgerReadBesideFrom: Int64 = 8 << 20

    /// The size of ledger file from which a sync reads it in part (`PartialLedger`; a test
    /// lowers it, to run every sync of a small folder so).
    nonisolated(unsafe) static var ledgerReadInPartFrom: Int64 = 1 << 20

    /// The number of surveys from which a commit writes the ledger on a second thread (a
    /// test lowers it to run the second thread's failures on a small folder).
    nonisolated(unsafe) static var ledgerWrittenBesideFrom = 20_000

    /// A file as it was before a commit replaced it.
    private enum SetAside {
        case absent
        /// `.FILE.before-sync`, a second name for the old file (no copy of it in memory).
        case linked(URL)
        /// Its bytes, where the folder's file system has no hard links (a FAT USB stick).
        case bytes(Data)
    }

    private func linkAside(_ url: URL) throws -> SetAside {
        let aside = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".before-sync")
        _ = fileSystem.unlink(aside.path)
        if fileSystem.link(RawPath(url.path), RawPath(aside.path)) == 0 { return .linked(aside) }
        if errno == ENOENT { return .absent }
        switch readFile(url) {
        case .success(let data): return .bytes(data)
        case .failure:
            throw DocumentError("Could not keep \(url.lastPathComponent) aside while it is replaced: \(SystemError("link").reason)")
        }
    }

    /// Atomically; an empty ledger removes the file.
    func writeLedger(_ ledger: SyncLedger, for name: String, limit: Int = SyncLedger.maximumFileBytes) throws {
        let url = syncURL(for: name)
        guard !ledger.isEmpty else {
            if fileSystem.unlink(url.path) != 0, errno != ENOENT {
                throw DocumentError("Could not remove \(url.lastPathComponent): \(SystemError("unlink").reason)")
            }
            return
        }
        // Every file has a token, so a later commit can journal over it (`SyncLedgerJournal`).
        var ledger = ledger
        if ledger.fileToken.value == nil { ledger.fileToken = ledger.fileToken.next() }
        try write(to: url, contents: Self.ledgerContents(ledger, fileName: url.lastPathComponent, limit: limit))
    }

    /// What `writeLedger` writes (a ledger that is not empty), streamed an entry at a time.
    static func ledgerContents(_ ledger: SyncLedger, fileName: String,
                               limit: Int = SyncLedger.maximumFileBytes) -> @Sendable (FileOutput) throws -> Void {
        { output in
            var writer = PropertyListWriter.surveys()
            var written = 0
            func drain(_ writer: inout PropertyListWriter) throws {
                written += writer.pending
                // Never a ledger the next sync could not read: the old one stays, and the sync says why.
                guard written <= limit else {
                    throw DocumentError("\(fileName) would be more than \(DocumentFileReader.sizeText(limit)), "
                        + "more than survey reads back: nothing was written (split the document: survey has no room for its sync)")
                }
                try writer.drain { try output.write($0) }
            }
            try ledger.writeEntries(into: &writer) { writer in
                if writer.pending >= PropertyListWriter.streamBufferSize { try drain(&writer) }
            }
            writer.endSurveys()
            try drain(&writer)
        }
    }

    /// A file as it was before a sync that failed part-way.
    private func putBack(_ old: SetAside, at url: URL) {
        switch old {
        case .absent: _ = fileSystem.unlink(url.path)
        case .linked(let aside):
            // The file whose write failed is still the old one: only its second name goes. One
            // already replaced gets the old back; if even that fails the second name stays, the
            // only copy of what was there.
            if let now = fingerprint(atPath: RawPath(url.path)), now.inode == fingerprint(atPath: RawPath(aside.path))?.inode {
                _ = fileSystem.unlink(aside.path)
            } else {
                _ = fileSystem.rename(aside.path, url.path)
            }
        case .bytes(let data): try? write(data, to: url)
        }
    }
}
