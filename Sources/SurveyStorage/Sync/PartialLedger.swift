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

/// A ledger read in part (issue 28: a sync of a few changes should cost only them). Reading a
/// 100,000-survey ledger whole (55 MB) was half of a sync that pulled 100 surveys; read in
/// part, its file's bytes are kept and indexed by their lines (`LedgerIndex`), and only the
/// header, every survey in conflict and the journal's surveys are parsed. A sync then reads
/// the entries of the surveys it is about to touch (`load`), each batch of a pull before it
/// is applied.
///
/// Its tables refuse, by stopping the program, any survey not read and any question about
/// all of them (`LedgerTable`): a missing entry must never read as "no base" or "no owner".
/// What needs every survey first makes the ledger whole (`whole()`): the file read again,
/// with the changes made to the part put on it, the changed surveys still noted so the
/// commit still appends only them to the journal.
extension SyncLedger {
    /// The file a partial ledger came from; nil for a whole ledger.
    struct PartialFile: Equatable, Sendable {
        var file: LedgerFile?
        /// Every survey asked for (`load`): the most a sync can have changed.
        var asked = Set<String>()
        /// The header's count of bases, written again in the journal's chunks (only room
        /// made by a reader).
        var basesHint: Int? { file.map { $0.index.entries.count } }
        static func == (_: Self, _: Self) -> Bool { true }
    }

    /// A ledger file held open, and the index of its entries: an entry is read from the file
    /// (the same file, even once another is renamed into its place) when it is asked for.
    final class LedgerFile: @unchecked Sendable {
        let url: URL
        let index: LedgerIndex
        /// The file's inode, size and time as read.
        let identity: [Int]
        private let fd: Int32

        /// The file at `url` streamed through an index; nil when it is not there, cannot be
        /// read, or is not laid out as survey writes it.
        init?(url: URL, limit: Int) {
            guard case .success(let (fd, _)) = DocumentFileReader.openChecked(RawPath(url.path), limit: limit) else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                return nil
            }
            var index = LedgerIndex()
            guard index.takeLines(of: fd, limit: limit), let done = index.finish() else {
                close(fd)
                return nil
            }
            self.url = url
            self.index = done
            self.fd = fd
            self.identity = [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        }

        deinit { close(fd) }

        /// The bytes at `range` of the file as it was read (nil: it was cut short since).
        func bytes(_ range: Range<Int>) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: range.count)
            var done = 0
            while done < range.count {
                let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, range.count - done, off_t(range.lowerBound + done)) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                done += count
            }
            return bytes
        }
    }

    /// How many ledgers this process read in part, and made whole after: what the tests ask
    /// of a sync (counted, as nothing else tells the two reads apart).
    nonisolated(unsafe) static var timesReadInPart = 0
    nonisolated(unsafe) static var timesMadeWhole = 0

    /// Whether the ledger was read in part.
    public var isPartial: Bool { partialFile.file != nil }

    /// At most this many surveys asked of a partial ledger (`load`): past it, it is made
    /// whole. A sync changes only surveys it asked for, so its changes are always noted
    /// (`LedgerTable.mostNoted`), and `whole()` can put them on the file read again.
    static var mostReadInPart: Int { 2_000 }

    /// The ledger at `url` read in part, with its journal; nil when it cannot be (no file,
    /// or one not laid out as survey writes it): the caller reads it whole.
    static func readInPart(at url: URL, limit: Int = SyncLedger.maximumFileBytes) throws -> SyncLedger? {
        for _ in 1...3 {
            let before = DocumentStore.fileIdentity(url)
            guard !before.isEmpty, let file = LedgerFile(url: url, limit: limit) else { return nil }
            let conflicted = file.index.entries.indices.filter { file.index.entries[$0].conflict }
            var ledger = try file.parse(conflicted)
            let read = Set(ledger.conflicts.keys)
            ledger.bases.becomePartial(known: read)
            ledger.owners.becomePartial(known: read)
            ledger.reviews.becomePartial(known: read)
            ledger.conflicts.becomePartial(known: read, complete: true)
            ledger.partialFile.file = file
            ledger = DocumentStore.withJournal(ledger, beside: url)
            guard DocumentStore.fileIdentity(url) == before, file.identity == before else { continue }
            timesReadInPart += 1
            return ledger
        }
        return nil
    }

    /// Reads the entries of `ids` not read yet (a survey the file has no entry for is read as
    /// having none). Past `mostReadInPart` the ledger is made whole instead.
    public mutating func load(_ ids: some Sequence<String>) throws {
        guard let file = partialFile.file else { return }
        var wanted: [String] = []
        var plain = true
        for id in ids where partialFile.asked.insert(id).inserted && !bases.holds(id) {
            wanted.append(id)
            var text = id
            if !text.withUTF8(PropertyListLine.isPlainID) { plain = false }
        }
        // An id not plain ASCII is found by its bytes in the file, but a `String` equals
        // another spelling of it ("é" two ways, the Kelvin sign and K): read whole.
        if !plain || partialFile.asked.count > Self.mostReadInPart {
            self = try whole()
            return
        }
        guard !wanted.isEmpty else { return }
        let places = wanted.compactMap { file.index.find($0) }
        let read = places.isEmpty ? SyncLedger() : try file.parse(places)
        for id in wanted { takeRead(id, from: read) }
    }

    /// Survey `id`'s entry, as `read` has it, taken as read.
    mutating func takeRead(_ id: String, from read: SyncLedger) {
        bases.take(read: id, read.bases[id])
        owners.take(read: id, read.owners[id])
        reviews.take(read: id, read.reviews[id])
        conflicts.take(read: id, read.conflicts[id])
    }

    /// This ledger whole: its file read again (with its journal), and what changed here since
    /// it was read put on it, noted as changed. Refused when the file was written meanwhile
    /// (the sync is then run again by the caller, as for a document written meanwhile).
    public func whole() throws -> SyncLedger {
        guard let file = partialFile.file else { return self }
        Self.timesMadeWhole += 1
        var whole = try DocumentStore.readLedger(at: file.url)
        guard DocumentStore.fileIdentity(file.url) == file.identity else {
            throw DocumentError("\(file.url.lastPathComponent) was changed by another program meanwhile: nothing was written; run this again")
        }
        guard let b = bases.changes, let o = owners.changes, let c = conflicts.changes, let r = reviews.changes else {
            preconditionFailure("a ledger read in part changed more surveys than it notes: that is a bug")
        }
        for (id, value) in b { whole.bases[id] = value }
        for (id, value) in o { whole.owners[id] = value }
        for (id, value) in c { whole.conflicts[id] = value }
        for (id, value) in r { whole.reviews[id] = value }
        whole.pullDataset = pullDataset
        whole.role = role
        whole.lastSync = lastSync
        whole.pendingReasons = pendingReasons
        whole.historyEntriesRead = historyEntriesRead
        whole.setAside = setAside
        whole.pullCursor = pullCursor
        whole.ownChanges = ownChanges
        return whole
    }
}

extension SyncLedger.LedgerFile {
    /// The header and the entries at `places` of the index, parsed as a ledger file of their
    /// own (the header, those entries, the closing tags) by the reader of every ledger.
    func parse(_ places: [Int]) throws -> SyncLedger {
        var part = index.header
        for place in places {
            guard let entry = bytes(index.entries[place].whole) else {
                throw DocumentError("\(url.lastPathComponent) was cut short by another program meanwhile: nothing was written; run this again")
            }
            part += entry
        }
        part += UnsafeBufferPointer(start: LedgerIndex.closing.utf8Start, count: LedgerIndex.closing.utf8CodeUnitCount)
        do {
            let records = try SurveyDocument(propertyListData: Data(part)).records
            let ledger = try SyncLedger(propertyListEntries: records.count) { records[records.startIndex + $0] }
            // Each entry read is the survey the index named (a file changed under it is refused).
            for place in places {
                let id = index.ids.id(at: place)
                guard ledger.bases[id] != nil || ledger.owners[id] != nil || ledger.conflicts[id] != nil || ledger.reviews[id] != nil else {
                    throw DocumentError("its entry of \(id) is not where it was")
                }
            }
            return ledger
        } catch let error as DocumentError {
            throw DocumentError("\(url.lastPathComponent): \(error.message); it holds what this document's sync knows, "
                + "so survey does not write over it (repair it or move it away)")
        }
    }
}

extension DocumentStore {
    /// A file's inode, size and modification time; empty when it is not there.
    static func fileIdentity(_ url: URL) -> [Int] {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }
}

/// The surveys a look for changes here must read the bases of, found without reading the
/// others': every survey whose answers' digest in the document is not its base's in the
/// ledger's index (`DocumentDigests`, `LedgerIndex`), every survey read already (the journal's,
/// those in conflict), and every survey with a base that the document no longer holds.
public struct ChangesLook: Sendable {
    /// Places in the records the look was made of.
    let places: [Int]
    /// The surveys with a base here that the document no longer holds.
    let gone: [String]
}

extension SyncLedger {
    /// The look at `records`, which are what the document file `digests` were read from holds.
    func changesLook(_ records: [Record], digests: DocumentDigests) -> ChangesLook? {
        guard let file = partialFile.file, let read = bases.known else { return nil }
        let index = file.index
        var places: [Int] = []
        // The file's live bases the document holds, each once: when they are all of them, no
        // survey of the file is gone from the document, and none is looked up again.
        var held = 0
        for (place, record) in records.enumerated() {
            guard let id = record.instanceID else { continue }
            // Every survey here must be one the file's lines named: else what the lines say is
            // gone, or unchanged, cannot be trusted (an id given at reading, a line misread).
            let digest: AnswersDigest.Value?
            if let found = digests.digest(of: id) {
                digest = found
            } else if digests.holdsRepeated(id) {
                digest = nil        // twice in the file: looked at
            } else {
                return nil
            }
            let at = index.find(id)
            if let at, index.entries[at].answers != nil, !index.entries[at].baseDeleted { held += 1 }
            guard conflicts[id] == nil else { continue }
            if !read.contains(id), let at, let answers = index.entries[at].answers, !index.entries[at].baseDeleted,
               digest == answers {
                continue        // its base's answers
            }
            places.append(place)
        }
        var gone: [String] = []
        let live = index.entries.lazy.filter { $0.answers != nil && !$0.baseDeleted }.count
        if held != live || digests.hasRepeats {
            for at in index.entries.indices where index.entries[at].answers != nil && !index.entries[at].baseDeleted {
                guard !index.ids.withID(at: at, { digests.holds($0) }) else { continue }
                let id = index.ids.id(at: at)
                if !read.contains(id) { gone.append(id) }
            }
        }
        for id in read where bases[id].map({ !$0.deleted }) == true {
            var text = id
            if !text.withUTF8({ digests.holds($0) }) { gone.append(id) }
        }
        return ChangesLook(places: places, gone: gone)
    }
}
