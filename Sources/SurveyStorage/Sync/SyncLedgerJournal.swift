import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues
import SurveyForms

/// `.NAME.sync.journal`, beside the ledger: the ledger's changes since its file was last
/// written whole, one chunk per commit, so that a sync of a few surveys appends their entries
/// (a few kilobytes, one `fdatasync`) instead of writing every survey's base again (55 MB at
/// 100,000 surveys, issue 28). Every reader of a ledger folds its journal in
/// (`DocumentStore.readLedger(at:)`); a whole write starts a new one.
///
/// Format: a first line `survey ledger journal 1 TOKEN`, then per commit a line `chunk
/// LENGTH`, LENGTH bytes and a line break. A chunk is a small ledger file: the header entry,
/// whose fields replace the ledger's own (cursor, own changes, role, …), then an entry per
/// survey whose entry changed, each replacing that survey's whole entry (an entry with its id
/// alone: the survey's entry is gone). A chunk cut short at the end (a crash mid-append) is
/// left out, as is every chunk after one that cannot be read: each chunk is one commit, so a
/// first part of them is a ledger as an earlier commit left it.
///
/// TOKEN is the ledger file's (its header's `journal`, new at each whole write): a journal
/// extends only the file it was started on. Bound by content, not by inode or time, so a copy
/// of the folder (a USB stick) keeps its journal, and a ledger put back from a backup never
/// takes a later journal. A journal of another token is stale, and is ignored.
enum SyncLedgerJournal {
    static let firstLine = "survey ledger journal 1 "
    static let chunkWord = "chunk "

    /// The chunks of the journal at `url` if it extends the ledger file whose token is
    /// `token`, in order; none when there is no journal or it is another file's.
    static func chunks(at url: URL, token: String) -> [Data] {
        // No larger than a ledger may be (a journal is kept to an eighth of its ledger).
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= SyncLedger.maximumFileBytes,
              let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let bytes = [UInt8](data)
        guard let header = line(in: bytes, from: 0), header.text == firstLine + token else { return [] }
        var position = header.next
        var chunks: [Data] = []
        while let line = line(in: bytes, from: position), line.text.hasPrefix(chunkWord),
              let length = Int(line.text.dropFirst(chunkWord.count)), length >= 0,
              length <= bytes.count - line.next - 1, bytes[line.next + length] == 0x0A {
            chunks.append(Data(bytes[line.next..<(line.next + length)]))
            position = line.next + length + 1
        }
        return chunks
    }

    /// The token a journal's first line names (nil: not a journal).
    static func token(ofJournalAt url: URL) -> String? {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 160)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        guard count > 0, let first = line(in: Array(buffer[..<count]), from: 0), first.text.hasPrefix(firstLine) else { return nil }
        return String(first.text.dropFirst(firstLine.count))
    }

    /// A line of text from `start` (nil when no line break follows within a line's reach).
    private static func line(in bytes: [UInt8], from start: Int) -> (text: String, next: Int)? {
        guard start < bytes.count else { return nil }
        let end = min(bytes.count, start + 200)
        guard let lineEnd = bytes[start..<end].firstIndex(of: 0x0A) else { return nil }
        return (String(decoding: bytes[start..<lineEnd], as: UTF8.self), lineEnd + 1)
    }

    /// One chunk: the header and the entries of `ids` as `ledger` has them.
    static func chunk(of ledger: SyncLedger, ids: Set<String>) -> [UInt8] {
        var writer = PropertyListWriter.surveys()
        writer.appendEntry(ledger.headerEntry)
        for id in SyncLedger.sortedByBytes(Array(ids)) {
            writer.appendLedgerEntry(id: id, owner: ledger.owners[id],
                                     base: ledger.bases[id].map { ($0.packed, $0.deleted, $0.revision?.text) },
                                     conflict: ledger.conflicts[id].map(\.propertyList), review: ledger.reviews[id].map(\.propertyList))
        }
        writer.endSurveys()
        var bytes: [UInt8] = []
        writer.drain { bytes.append(contentsOf: $0.bindMemory(to: UInt8.self)) }
        return bytes
    }

    /// Appends `chunk` to the journal at `url`, started anew (its first line naming `token`)
    /// when it is missing or of another file, and syncs it: when this returns, the chunk
    /// survives a crash. On a failure the journal is as it was (a chunk half written is cut
    /// off, so none follows a torn one), or gone if this call made it.
    static func append(_ chunk: [UInt8], to url: URL, token: String, in fs: FileSystem) throws {
        let existed = FileManager.default.fileExists(atPath: url.path)
        let fd = fs.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, NewFileMode.file(in: url.deletingLastPathComponent().path))
        guard fd >= 0 else { throw failure("open", url) }
        defer { _ = fs.close(fd) }
        let fresh = !existed || Self.token(ofJournalAt: url) != token
        var data: [UInt8] = []
        if fresh {
            if fs.truncate(fd, 0) != 0 { throw failure("truncate", url) }
            data += Array((firstLine + token + "\n").utf8)
        }
        data += Array((chunkWord + "\(chunk.count)\n").utf8)
        data += chunk
        data.append(0x0A)
        let end = lseek(fd, 0, SEEK_END)
        do {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = fs.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw failure("write", url)
                    }
                    offset += n
                }
            }
            if fs.syncData(fd) != 0 { throw failure("sync", url) }
            if !existed { try AtomicFile.syncFolder(url.deletingLastPathComponent().path, in: fs) }
        } catch {
            if !existed || fresh {
                _ = fs.unlink(url.path)
            } else if end >= 0 {
                _ = ftruncate(fd, end)
            }
            throw error
        }
    }

    private static func failure(_ call: String, _ url: URL) -> DocumentError {
        DocumentError("Could not write \(url.lastPathComponent): \(SystemError(call).reason)")
    }
}
