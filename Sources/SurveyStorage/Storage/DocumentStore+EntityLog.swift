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

/// `.LIST.entities.log` beside an entity list: what happened to it here, in order
/// (`EntityLogEvent`: each survey's action applied, each supervisor's edit taken, each conflict
/// resolved by hand), added to at each write of the list, read only by `survey entities
/// --rebuild`, which replays it. Added before the list is written: a write cut off after
/// it leaves an event the list lacks, which a rebuild replays (the survey is in its
/// document, the resolution was asked for), never a change of the list the log lacks.
extension DocumentStore {
    /// folder/.LIST.entities.log
    public func entityLogURL(_ list: String) -> URL {
        folder.appendingPathComponent("." + list + ".entities.log")
    }

    /// The size a log may reach before it is first looked at for compaction (then each time
    /// its size doubles past it): a log is read whole only that often.
    static let entityLogCompactionFloor = 64 * 1024

    /// Adds `events` at the end of the list's log, synced, through the file-system seam. When
    /// the log's size passes the floor, or twice a size it passed before, it is read, and
    /// compacted (`compactEntityLog`; `edited`: the entities the list took a supervisor's edit
    /// of): a log grows with the surveys and their visits, not with a registration's saves.
    func appendEntityLog(_ events: [EntityLogEvent], to list: String, edited: Set<String> = []) throws {
        guard !events.isEmpty else { return }
        let url = entityLogURL(list)
        func failed(_ reason: String) -> DocumentError {
            DocumentError("\(list).csv was not changed: could not add to \(url.lastPathComponent) (\(reason))")
        }
        var text = events.map { $0.jsonLine + "\n" }.joined()
        let fd = fileSystem.open(url.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, NewFileMode.file(in: folder.path))
        guard fd >= 0 else { throw failed(SystemError("open").reason) }
        defer { _ = fileSystem.close(fd) }
        // A last line a crash cut short ends here first: the new lines are never glued onto it.
        var status = stat()
        var before = 0
        if fstat(fd, &status) == 0, status.st_size > 0 {
            before = Int(status.st_size)
            var last: UInt8 = 0
            if pread(fd, &last, 1, status.st_size - 1) == 1, last != 0x0A { text = "\n" + text }
        }
        do {
            try FileOutput(fd: fd, fileSystem: fileSystem).write(Data(text.utf8))
        } catch let error as SystemError {
            throw failed(error.reason)
        }
        if fileSystem.syncData(fd) != 0 { throw failed(SystemError("fsync").reason) }
        if Self.passesCompactionStep(from: before, to: before + text.utf8.count) { compactEntityLog(of: list, edited: edited) }
    }

    /// Whether a log growing from `before` to `after` bytes passed the floor or a doubling of it.
    static func passesCompactionStep(from before: Int, to after: Int) -> Bool {
        var step = entityLogCompactionFloor
        while step <= after {
            if before < step { return true }
            step *= 2
        }
        return false
    }

    /// The list's log rewritten (atomically) as `EntityLogEvent.compacted` gives it, which a
    /// rebuild replays to the same list, when that is at most three quarters of its lines (a
    /// log compacted is read again only once it has grown by a quarter). Never when any line
    /// is not one this version reads and writes back byte for byte (a line a crash cut short,
    /// one over 1 MB, a newer version's event or field): rewritten, it would be lost. Best
    /// effort: a log not compacted is only longer. True when it was rewritten.
    @discardableResult
    func compactEntityLog(of list: String, edited: Set<String>) -> Bool {
        guard let (events, unreadable, inexact) = try? readEntityLog(of: list, checking: true), unreadable == 0, inexact == 0 else { return false }
        let compacted = EntityLogEvent.compacted(events, edited: edited)
        guard compacted.count * 4 <= events.count * 3 else { return false }
        return (try? replaceEntityLog(compacted, of: list)) != nil
    }

    /// The events of the last 64 KiB of the list's log (what a write asks of the log's end).
    func entityLogTail(of list: String) -> [EntityLogEvent] {
        let fd = fileSystem.open(entityLogURL(list).path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        guard fd >= 0 else { return [] }
        defer { _ = fileSystem.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0 else { return [] }
        let start = max(0, Int(status.st_size) - 64 * 1024)
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) - start)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        guard count > 0 else { return [] }
        var lines = bytes.prefix(count).split(separator: 0x0A, omittingEmptySubsequences: true)
        if start > 0, !lines.isEmpty { lines.removeFirst() }     // begun before the tail: not whole
        return lines.compactMap { EntityLogEvent(jsonLine: Substring(String(decoding: $0, as: UTF8.self))) }
    }

    /// The list's log as written (this rebuild's replay), replacing the old one whole.
    func replaceEntityLog(_ events: [EntityLogEvent], of list: String) throws {
        let url = entityLogURL(list)
        do {
            try AtomicFile.write(Data(events.map { $0.jsonLine + "\n" }.joined().utf8), to: url, in: fileSystem)
        } catch let error as SystemError {
            throw DocumentError("Could not save \(url.lastPathComponent): \(error.reason)")
        }
    }

    /// The events of the list's log, oldest first, and how many lines could not be read (a
    /// line a crash cut short, one over 1 MB); none when there is no log.
    func entityLog(of list: String) throws -> (events: [EntityLogEvent], unreadable: Int) {
        let (events, unreadable, _) = try readEntityLog(of: list, checking: false)
        return (events, unreadable)
    }

    /// `entityLog`, and (`checking`) how many lines read are not what their event writes
    /// back (a newer version's field, an action read as its survey).
    private func readEntityLog(of list: String, checking: Bool) throws -> (events: [EntityLogEvent], unreadable: Int, inexact: Int) {
        let url = entityLogURL(list)
        guard isOccupied(url) else { return ([], 0, 0) }
        var events: [EntityLogEvent] = []
        var unreadable = 0
        var inexact = 0
        let read = DocumentFileReader.forEachLine(RawPath(url.path), overlong: { unreadable += 1 }) { line in
            if let event = EntityLogEvent(jsonLine: Substring(String(decoding: line, as: UTF8.self))) {
                events.append(event)
                if checking, !event.jsonLine.utf8.elementsEqual(line) { inexact += 1 }
            } else {
                unreadable += 1
            }
        }
        if case .failure(let failure) = read {
            throw DocumentError("\(url.lastPathComponent) cannot be read (\(Self.describe(failure, fileName: url.lastPathComponent)))")
        }
        return (events, unreadable, inexact)
    }
}

/// How far the team's edits of each list were taken, by the companion file it was read from
/// (`.entity-lists.mark`, beside the lists): a sync with nothing to do asks each list's
/// cursor, and the companion, which keeps every conflict and edit, is parsed only when it is
/// no longer the file the mark names. A cache, never the only record: a mark that cannot be
/// read, or names another file, is passed over and written again.
extension DocumentStore {
    var entityMarkURL: URL { folder.appendingPathComponent(".entity-lists.mark") }

    /// Each list's companion fingerprint and edit cursor, as marked.
    func entityMarks() -> [String: (FileFingerprint, Int64)] {
        guard let copy = try? CopiedFile.read(entityMarkURL.path, in: fileSystem, maximumBytes: 1 << 20),
              let members = try? PropertyValue.answers(jsonObject: [UInt8](copy.data)) else { return [:] }
        var marks: [String: (FileFingerprint, Int64)] = [:]
        for (list, value) in members {
            guard case .array(let parts) = value, parts.count == 5 else { continue }
            let numbers = parts.compactMap { part -> Int? in if case .integer(let n) = part { return n } else { return nil } }
            guard numbers.count == 5 else { continue }
            marks[list] = (FileFingerprint(inode: UInt64(bitPattern: Int64(numbers[0])), size: Int64(numbers[1]),
                                           modifiedSeconds: numbers[2], modifiedNanoseconds: numbers[3]), Int64(numbers[4]))
        }
        return marks
    }

    /// Marks `list`'s cursor as read from the companion file `fingerprint` names (best
    /// effort: a mark not written costs the next sync a parse).
    func markEntityCursor(_ cursor: Int64, of list: String, companion fingerprint: FileFingerprint) {
        var members: [String: PropertyValue] = [:]
        for (name, (f, c)) in entityMarks() where name != list && Self.entityListNameProblem(name) == nil {
            members[name] = Self.markEntry(f, c)
        }
        members[list] = Self.markEntry(fingerprint, cursor)
        try? AtomicFile.write(Data((PropertyValue.jsonObjectText(members) + "\n").utf8), to: entityMarkURL, in: fileSystem)
    }

    private static func markEntry(_ f: FileFingerprint, _ cursor: Int64) -> PropertyValue {
        .array([.integer(Int(truncatingIfNeeded: f.inode)), .integer(Int(f.size)), .integer(f.modifiedSeconds),
                .integer(f.modifiedNanoseconds), .integer(Int(cursor))])
    }
}

/// The lists a save read before it was written (a visit's base, `stampEntityBases`), held
/// for the write after it (`recordEntities`), which takes them instead of reading the files
/// again while they are still the files read: a visit's first save reads its list once, on
/// the main thread. Taken by the first write, or dropped by the next stamp: a list of
/// 100,000 households is not kept in memory between saves.
final class EntityListHold: @unchecked Sendable {
    struct Held {
        var list: EntityList
        var csv: FileFingerprint?
        var companion: FileFingerprint?
    }

    private let lock = Lock()
    private var held: [String: Held] = [:]

    func put(_ name: String, _ entry: Held) { lock.withLock { held[name] = entry } }

    func take(_ name: String) -> Held? { lock.withLock { held.removeValue(forKey: name) } }

    func drop() { lock.withLock { held = [:] } }
}
