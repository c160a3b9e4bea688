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

/// A document's edit history, `.NAME.history.jsonl` beside it (`DocumentCompanion`): one JSON
/// object a line (`EditHistoryEntry`), oldest first, added at the end (`O_APPEND`), so a
/// change costs a line, not a rewrite of the history. A line cut short by a crash is passed
/// over when read (the change itself is in the document). It moves with the document through
/// rename, trash and restore.
extension DocumentStore {
    public func historyURL(for name: String) -> URL {
        companionURL(.history, for: name)
    }

    /// Adds `entries` at the end, through the file-system seam.
    public func appendHistory(_ entries: [EditHistoryEntry], for name: String) throws {
        try checkDeletedName(name)
        guard !entries.isEmpty else { return }
        let url = historyURL(for: name)
        var text = entries.map { $0.jsonLine + "\n" }.joined()
        let fd = fileSystem.open(url.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, NewFileMode.file(in: folder.path))
        guard fd >= 0 else {
            throw DocumentError("Could not add to \(url.lastPathComponent): \(SystemError("open").reason)")
        }
        defer { _ = fileSystem.close(fd) }
        // A last line a crash cut short ends here first: the new lines are never glued onto it.
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, status.st_size - 1) == 1, last != 0x0A { text = "\n" + text }
        }
        do {
            try FileOutput(fd: fd, fileSystem: fileSystem).write(Data(text.utf8))
        } catch let error as SystemError {
            throw DocumentError("Could not add to \(url.lastPathComponent): \(error.reason)")
        }
    }

    /// The entries of survey `id` (every survey's when nil), oldest first, and how many lines
    /// could not be read.
    public func editHistory(for name: String, survey id: String? = nil) throws -> (entries: [EditHistoryEntry], unreadable: Int) {
        try checkDeletedName(name)
        let url = historyURL(for: name)
        var entries: [EditHistoryEntry] = []
        var unreadable = 0
        let needle = id.map(PropertyValue.jsonString)
        let read = DocumentFileReader.forEachLine(RawPath(url.path), overlong: { unreadable += 1 }) { line in
            let text = String(decoding: line, as: UTF8.self)
            // A survey's id is matched before the line is read whole.
            if let id, !text.contains(needle ?? "") { return }
            if let entry = EditHistoryEntry(jsonLine: Substring(text)) {
                if id == nil || entry.survey == id { entries.append(entry) }
            } else {
                unreadable += 1
            }
        }
        switch read {
        case .success: break
        case .failure(.system(_, let code)) where code == ENOENT: return ([], 0)
        case .failure(let failure): throw DocumentError(Self.describe(failure, fileName: url.lastPathComponent))
        }
        return (entries, unreadable)
    }
}
