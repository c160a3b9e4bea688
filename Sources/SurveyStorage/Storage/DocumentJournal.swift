import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues
import SurveyForms

/// One committed change, as the journal keeps it until the `.plist` has caught up: a survey
/// as it now is (put at its place, found again by its id), or a survey removed (by its id).
public enum JournalEntry: Equatable, Sendable {
    case put(index: Int, record: Record)
    case delete(index: Int, id: String)
}

/// The write-ahead journal of a large document, `.NAME.journal`: each committed change is
/// appended and synced (a millisecond), so it is on disk before the next key, and the whole
/// `.plist` is rewritten later, in the background. A crash or a kill before that loses
/// nothing: the next open replays the journal. The file is locked (`flock`) by the process
/// writing it, so a second copy of survey never replays, appends to or removes a journal
/// that is still in use.
///
/// Format: a first line `survey journal 1`, then per entry a line `put INDEX LENGTH` or
/// `delete INDEX LENGTH`, LENGTH bytes (a one-survey property list, or the id), and a line
/// break. An entry cut short by a crash (the last one) is ignored when read.
public final class DocumentJournal: @unchecked Sendable {
    public private(set) var url: URL
    private var descriptor: Int32
    private let fileSystem: FileSystem
    static let header = "survey journal 1\n"

    private init(url: URL, descriptor: Int32, fileSystem: FileSystem) {
        self.url = url
        self.descriptor = descriptor
        self.fileSystem = fileSystem
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Opens (creating) the journal for appending, locked for this process; nil when another
    /// process holds it.
    public static func open(at url: URL, in fs: FileSystem) throws -> DocumentJournal? {
        let existed = FileManager.default.fileExists(atPath: url.path)
        let fd = fs.open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, NewFileMode.file(in: url.deletingLastPathComponent().path))
        guard fd >= 0 else { throw DocumentError("Could not open \(url.lastPathComponent): \(SystemError("open").reason)") }
        guard fs.lock(fd, LOCK_EX | LOCK_NB) == 0 else {
            // Held by another copy of survey (or not lockable here): its saves go whole-file.
            close(fd)
            return nil
        }
        let journal = DocumentJournal(url: url, descriptor: fd, fileSystem: fs)
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size == 0 {
            do {
                try journal.write(Data(header.utf8))
                if fs.syncData(fd) != 0 { throw DocumentError("Could not sync \(url.lastPathComponent): \(SystemError("sync").reason)") }
            } catch {
                // Back to empty, so the next open writes the header again instead of appending
                // entries to a file the loader would not take for a journal.
                _ = ftruncate(fd, 0)
                throw error
            }
        }
        if !existed { try AtomicFile.syncFolder(url.deletingLastPathComponent().path, in: fs) }
        return journal
    }

    /// Whether another process holds the journal at `url` (a live copy of survey writing it).
    public static func isHeldElsewhere(at url: URL) -> Bool {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0
    }

    /// Appends the entries and syncs them: when this returns, they survive a crash.
    public func append(_ entries: [JournalEntry]) throws {
        guard !entries.isEmpty else { return }
        var data = Data()
        for entry in entries {
            let (word, index, payload): (String, Int, Data)
            switch entry {
            case .put(let i, let record):
                (word, index, payload) = ("put", i, try SurveyDocument(records: [record]).propertyListData())
            case .delete(let i, let id):
                (word, index, payload) = ("delete", i, Data(id.utf8))
            }
            data.append(Data("\(word) \(index) \(payload.count)\n".utf8))
            data.append(payload)
            data.append(0x0A)
        }
        // A write cut short (a full disk) is taken back, so no later entry follows a torn one.
        let end = lseek(descriptor, 0, SEEK_END)
        do {
            try write(data)
            if fileSystem.syncData(descriptor) != 0 {
                throw DocumentError("Could not sync \(url.lastPathComponent): \(SystemError("sync").reason)")
            }
        } catch {
            if end >= 0 { _ = ftruncate(descriptor, end) }
            throw error
        }
    }

    /// Moves the journal beside its document's new name (a rename made outside survey), so a
    /// crash still replays it into the right file. Appending goes on through the same file.
    public func move(to newURL: URL) {
        guard newURL != url, fileSystem.rename(url.path, newURL.path) == 0 else { return }
        url = newURL
    }

    /// The `.plist` holds every entry: the journal goes back to its header and stays open and
    /// locked, so the next commit costs one append and one `fdatasync` (about half a
    /// millisecond) where creating the file again cost a second sync, of the folder (two).
    /// Not synced: should a crash bring the entries back, they are what the `.plist` holds
    /// and replay to the same surveys; the next append's `fdatasync` makes the new length
    /// durable with it. False when the file could not be cut (it is then removed, as
    /// `remove()` does, and a later commit opens a new one).
    @discardableResult
    public func clear() -> Bool {
        guard descriptor >= 0 else { return false }
        if fileSystem.truncate(descriptor, off_t(Self.header.utf8.count)) == 0 { return true }
        remove()
        return false
    }

    /// Whether the journal at `url` holds a change its `.plist` may not have yet: there is
    /// more in it than its header. A live copy of survey keeps its journal, emptied, while
    /// it has the document open; that one holds nothing.
    public static func holdsEntries(at url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && Int(info.st_size) > header.utf8.count
    }

    /// Whether this journal's descriptor is still open (not removed after a failure).
    public var isOpen: Bool { descriptor >= 0 }

    /// The journal is no longer needed: the `.plist` holds every entry.
    public func remove() {
        guard descriptor >= 0 else { return }
        _ = fileSystem.unlink(url.path)
        close(descriptor)
        descriptor = -1
    }

    private func write(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = fileSystem.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw DocumentError("Could not write \(url.lastPathComponent): \(SystemError("write").reason)")
                }
                offset += n
            }
        }
    }

    /// The entries in a journal file, in order; an entry cut short at the end is left out.
    /// nil when the file is not a journal at all.
    public static func entries(at url: URL) -> [JournalEntry]? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let bytes = [UInt8](data)
        let head = Array(header.utf8)
        guard bytes.starts(with: head) else { return bytes.isEmpty ? [] : nil }
        var position = head.count
        var result: [JournalEntry] = []
        while position < bytes.count {
            guard let lineEnd = bytes[position...].firstIndex(of: 0x0A) else { break }
            let words = String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: " ")
            guard words.count == 3, let index = Int(words[1]), let length = Int(words[2]), length >= 0,
                  lineEnd + 1 + length + 1 <= bytes.count, bytes[lineEnd + 1 + length] == 0x0A else { break }
            let payload = Data(bytes[(lineEnd + 1)..<(lineEnd + 1 + length)])
            switch words[0] {
            case "put":
                guard let record = (try? SurveyDocument(propertyListData: payload))?.records.first else { return result }
                result.append(.put(index: index, record: record))
            case "delete":
                result.append(.delete(index: index, id: String(decoding: payload, as: UTF8.self)))
            default:
                return result
            }
            position = lineEnd + 1 + length + 1
        }
        return result
    }
}

extension SurveyDocument {
    /// Applies journal entries: a put replaces the survey with its id (else the one at its
    /// place, when that has no id, else it goes in at its place); a delete removes the survey
    /// with its id. Applying an entry the document already holds changes nothing, so a
    /// journal whose `.plist` was partly written before a crash replays safely.
    public mutating func replay(_ entries: [JournalEntry]) {
        var indexOfID: [String: Int] = [:]
        func reindex() {
            indexOfID = [:]
            for (i, r) in records.enumerated() { if let id = r.instanceID { indexOfID[id] = i } }
        }
        reindex()
        for entry in entries {
            switch entry {
            case .put(let index, let record):
                if let id = record.instanceID, let at = indexOfID[id] {
                    records[at] = record
                } else {
                    let at = min(max(0, index), records.count)
                    records.insert(record, at: at)
                    if at == records.count - 1, let id = record.instanceID { indexOfID[id] = at } else { reindex() }
                }
            case .delete(_, let id):
                if let at = indexOfID[id] {
                    records.remove(at: at)
                    reindex()
                }
            }
        }
    }

    /// The entries that turn `old` into `self`, found cheaply when surveys were only changed
    /// in place or added at the end (each unchanged survey shares its storage with `old`, so
    /// comparing it is one pointer check); by id otherwise. Surveys without an id should
    /// get one first (`assignMissingInstanceIDs(after:)`).
    public func journalEntries(since old: SurveyDocument) -> [JournalEntry] {
        let new = records
        if isInPlaceChange(since: old) {
            // Only the surveys that differ are looked at closely: at 100,000 surveys this is
            // about a millisecond, where reading every id took tens.
            var entries: [JournalEntry] = []
            var inPlace = true
            for i in changedIndices(since: old) {
                guard let id = new[i].instanceID, id == old.records[i].instanceID else { inPlace = false; break }
                entries.append(.put(index: i, record: new[i]))
            }
            if inPlace {
                for i in old.records.count..<new.count { entries.append(.put(index: i, record: new[i])) }
                return entries
            }
        }
        // Otherwise by id, over the stretch between what both versions share at the start and
        // at the end (a delete, an undo): not every survey's id.
        let (prefix, suffix) = new.changedStretch(from: old.records)
        let oldStretch = prefix..<(old.records.count - suffix)
        let newStretch = prefix..<(new.count - suffix)
        var before: [String: Record] = [:]
        for i in oldStretch { if let id = old.records[i].instanceID { before[id] = old.records[i] } }
        var entries: [JournalEntry] = []
        var kept = Set<String>()
        for i in newStretch {
            let r = new[i]
            guard let id = r.instanceID else { entries.append(.put(index: i, record: r)); continue }
            kept.insert(id)
            if before[id] != r { entries.append(.put(index: i, record: r)) }
        }
        for i in oldStretch {
            if let id = old.records[i].instanceID, !kept.contains(id) { entries.append(.delete(index: i, id: id)) }
        }
        // Deletes first, so the puts' places are those of the new order.
        return entries.filter { if case .delete = $0 { return true } else { return false } }
            + entries.filter { if case .put = $0 { return true } else { return false } }
    }
}

extension SurveyDocument {
    /// Gives new surveys (those not in `old`, or changed since it) without an id a random one:
    /// the journal's cheap form of `assignMissingInstanceIDs`, which reads every id.
    @discardableResult
    public mutating func assignMissingInstanceIDs(after old: SurveyDocument) -> Int {
        var assigned = 0
        let candidates: [Int]
        if isInPlaceChange(since: old) {
            candidates = changedIndices(since: old) + Array(old.records.count..<records.count)
        } else {
            // A delete, an insert: only the stretch that is not shared with `old` can be new.
            let (prefix, suffix) = records.changedStretch(from: old.records)
            candidates = Array(prefix..<(records.count - suffix))
        }
        for i in candidates {
            if records[i].instanceID == nil {
                records[i][Record.instanceIDKey] = .string(Record.newInstanceID())
                assigned += 1
            }
        }
        return assigned
    }
}

extension SurveyDocument {
    /// The places (below both counts) where a survey differs from `old`'s: chunks both
    /// versions share are skipped whole (see `RecordList`).
    func changedIndices(since old: SurveyDocument) -> [Int] {
        records.differingIndices(from: old.records)
    }

    /// Whether surveys were only changed in place or added at the end since `old`: then
    /// comparing place by place finds them. After a delete or an insert (an undo of a
    /// delete) every later survey is one place off, so place by place would compare them all.
    func isInPlaceChange(since old: SurveyDocument) -> Bool {
        records.count == old.records.count
            || (records.count > old.records.count && records.changedStretch(from: old.records).suffix == 0)
    }
}

extension DocumentStore {
    /// The document as its commits stand: the `.plist`, plus what its journal holds that the
    /// file does not yet (a copy of survey still catching up, or one that crashed). For the
    /// command line's `list` and `export`, which would otherwise show a version a moment (or
    /// a crash) behind. Without a journal this is `load(_:)` exactly.
    ///
    /// The file is read before the journal, and again if a new `.plist` was put in place
    /// between the two reads: a live copy empties its journal only once the file holds its
    /// entries, so a journal read after the file holds at least what that file lacks. (Read
    /// the other way round, a journal older than the file would replay old answers over it.)
    public func loadWithJournal(_ name: String) -> Result<SurveyDocument, DocumentError> {
        let url = journalURL(for: name)
        for attempt in 1...5 {
            let before = fingerprint(of: name)
            let loaded = load(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return loaded }
            let entries = DocumentJournal.entries(at: url)
            // A new file put in place meanwhile: both are read again (a few times at most).
            guard fingerprint(of: name) == before || attempt == 5 else { continue }
            guard let entries, !entries.isEmpty, case .success(var document) = loaded else { return loaded }
            document.identifyRecordsFoundWithoutIDs()
            document.replay(entries)
            return .success(document)
        }
        return load(name)
    }

    /// Waits, up to `timeout`, for a live copy of survey to bring the `.plist` up to its
    /// journal (it empties the journal then: a few milliseconds, a second or two at a million
    /// surveys). True when the journal holds nothing (or is gone).
    public func journalCaughtUp(of name: String, within timeout: Duration = .seconds(5)) -> Bool {
        let url = journalURL(for: name)
        let deadline = ContinuousClock.now + timeout
        while DocumentJournal.holdsEntries(at: url) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(5_000)
        }
        return true
    }

    /// Puts the changes a journal left behind (its writer gone: a crash, a kill) into the
    /// `.plist` and removes the journal. Returns how many changes were put back; nil when
    /// there was no such journal. Throws, leaving both files as they are, when the journal
    /// is not one survey wrote, the document cannot be read, or it cannot be saved.
    public func putBackJournal(of name: String) throws -> Int? {
        let url = journalURL(for: name)
        guard FileManager.default.fileExists(atPath: url.path), !DocumentJournal.isHeldElsewhere(at: url) else { return nil }
        guard let entries = DocumentJournal.entries(at: url) else {
            throw DocumentError("\(url.lastPathComponent) is not a journal survey wrote: it is left as it is")
        }
        // A session that ended without closing its (emptied) journal: nothing to put back.
        if entries.isEmpty {
            _ = fileSystem.unlink(url.path)
            return nil
        }
        try withFolderLock {
            guard case .success(let document) = loadWithJournal(name) else {
                throw DocumentError("\(url.lastPathComponent) holds changes to “\(name)”, which cannot be read: both are left as they are")
            }
            do {
                try save(document, as: name)
            } catch let error as DocumentError {
                throw DocumentError("Could not put back the changes in \(url.lastPathComponent): \(error.message). They stay there")
            }
            _ = fileSystem.unlink(url.path)
        }
        return entries.count
    }
}
