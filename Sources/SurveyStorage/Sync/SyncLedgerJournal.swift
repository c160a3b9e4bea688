import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues
import SurveyForms

/// `.NAME.sync-journal`, beside the ledger: the ledger's changes since its file was last
/// written whole, one chunk per commit, so that a sync of a few surveys appends their entries
/// (a few kilobytes, one `fdatasync`) instead of writing every survey's base again (55 MB at
/// 100,000 surveys, issue 28). Every reader of a ledger folds its journal in
/// (`DocumentStore.readLedger(at:)`); a whole write starts a new one.
///
/// Format: a first line `survey ledger journal 1 TOKEN SIZE DIGEST`, then per commit a line
/// `chunk LENGTH`, LENGTH bytes and a line break. A chunk is a small ledger file: the header
/// entry, whose fields replace the ledger's own (cursor, own changes, role, …), then an entry
/// per survey whose entry changed, each replacing that survey's whole entry (an entry with its
/// id alone: the survey's entry is gone). A chunk cut short at the end (a crash mid-append) is
/// left out, as is every chunk after one that cannot be read: each chunk is one commit, so a
/// first part of them is a ledger as an earlier commit left it. The next append cuts the
/// journal back to that part first, so what it adds is read.
///
/// The first line names the one ledger file the journal extends: TOKEN is the file's (its
/// header's `journal`, counted on at each whole write, so a journal left from the file before
/// never matches the next), SIZE its size and DIGEST a digest of its first and last 64 KB (so
/// two laptops' files of one token, from a folder copied to both, never take each other's
/// journal). Bound by content, not inode or time, so a copy of the folder (a USB stick) keeps
/// its journal. A journal whose first line is not its ledger's is stale, and is ignored.
enum SyncLedgerJournal {
    static let firstWords = "survey ledger journal 1 "
    static let chunkWord = "chunk "

    /// The first line of a journal extending the ledger file at `ledger` whose token is
    /// `token` (nil when the file cannot be read).
    static func firstLine(token: String, ledger: URL) -> String? {
        let fd = Glibc.open(ledger.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        let span = 64 << 10
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        // The whole file up to 128 KB, else its first and last 64 KB.
        let pieces = size <= 2 * span ? [(0, size)] : [(0, span), (size - span, span)]
        var buffer = [UInt8](repeating: 0, count: pieces.map(\.1).max() ?? 0)
        for (start, want) in pieces {
            var got = 0
            while got < want {
                let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, want - got, off_t(start + got)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return nil }
                got += n
            }
            for byte in buffer[..<want] { digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return firstWords + token + " \(size) " + String(digest, radix: 16)
    }

    /// The chunks of the journal at `url` whose first line is `first`, in order, each with the
    /// offset just past it; none when there is no journal or it extends another file.
    static func chunks(at url: URL, first: String) -> (chunks: [Data], ends: [Int], headerEnd: Int) {
        // No larger than a ledger may be (a journal is kept to an eighth of its ledger).
        var info = stat()
        // Its own file, never one a link points at.
        guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= SyncLedger.maximumFileBytes,
              let data = FileManager.default.contents(atPath: url.path) else { return ([], [], 0) }
        let bytes = [UInt8](data)
        guard let header = line(in: bytes, from: 0), header.text == first else { return ([], [], 0) }
        var position = header.next
        var chunks: [Data] = [], ends: [Int] = []
        while let line = line(in: bytes, from: position), line.text.hasPrefix(chunkWord),
              let length = Int(line.text.dropFirst(chunkWord.count)), length >= 0,
              length <= bytes.count - line.next - 1, bytes[line.next + length] == 0x0A {
            chunks.append(Data(bytes[line.next..<(line.next + length)]))
            position = line.next + length + 1
            ends.append(position)
        }
        return (chunks, ends, header.next)
    }

    /// The first line of the journal at `url` (nil: none, or not a journal).
    static func firstLine(ofJournalAt url: URL) -> String? {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 200)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        guard count > 0, let first = line(in: Array(buffer[..<count]), from: 0), first.text.hasPrefix(firstWords) else { return nil }
        return first.text
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

    /// Appends `chunk` to the journal at `url` and syncs it: when this returns, the chunk
    /// survives a crash. The journal is first cut back to `readEnd`, the end of what the ledger
    /// being committed was read with (a chunk torn by a crash, or one that could not be read,
    /// goes: nothing after it would ever be read), or started anew, its first line `first`,
    /// when it is missing, of another file, or was not read. Returns the journal's new end. On
    /// a failure the journal is as it was (a chunk half written is cut off), or gone if this
    /// call started it.
    static func append(_ chunk: [UInt8], to url: URL, first: String, readEnd: Int?, in fs: FileSystem) throws -> Int {
        let existed = FileManager.default.fileExists(atPath: url.path)
        // Appending: after the journal is cut back, each write lands at its end.
        // A link in its place is refused (ELOOP), never followed to a file elsewhere.
        let fd = fs.open(url.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
                         NewFileMode.file(in: url.deletingLastPathComponent().path))
        guard fd >= 0 else { throw failure("open", url) }
        defer { _ = fs.close(fd) }
        let before = lseek(fd, 0, SEEK_END)
        // Started anew, too, when what the ledger was read with is no longer all there (never
        // padded with zeros a reader would stop at).
        let fresh = !existed || readEnd == nil || firstLine(ofJournalAt: url) != first || before < 0 || off_t(readEnd!) > before
        let end = fresh ? 0 : off_t(readEnd!)
        var data: [UInt8] = []
        if fresh { data += Array((first + "\n").utf8) }
        data += Array((chunkWord + "\(chunk.count)\n").utf8)
        data += chunk
        data.append(0x0A)
        do {
            if before != end, fs.truncate(fd, end) != 0 { throw failure("truncate", url) }
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = fs.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else { throw failure("write", url) }
                    offset += n
                }
            }
            if fs.syncData(fd) != 0 { throw failure("sync", url) }
            if !existed { try AtomicFile.syncFolder(url.deletingLastPathComponent().path, in: fs) }
        } catch {
            if !existed || fresh {
                _ = fs.unlink(url.path)
            } else if before >= 0 {
                // The cut-off tail is not put back: nothing ever read it.
                _ = ftruncate(fd, min(before, end))
            }
            throw error
        }
        return Int(end) + data.count
    }

    private static func failure(_ call: String, _ url: URL) -> DocumentError {
        DocumentError("Could not write \(url.lastPathComponent): \(SystemError(call).reason)")
    }
}
