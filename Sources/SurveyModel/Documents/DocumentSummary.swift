import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A document as the manager (F3) and `survey docs` list it. A file that cannot be read is
/// still listed, with the reason, so it can be renamed or moved to the trash like any other.
public struct DocumentSummary: Equatable, Sendable {
    public let name: String
    /// nil when the file cannot be read.
    public let recordCount: Int?
    /// Why it cannot be read.
    public let problem: String?
    /// File modification time.
    public let modified: Date?
    public let byteSize: Int
    /// Something to know about a readable document: its file name is not valid UTF-8, so it
    /// must be renamed before changes can be saved.
    public let note: String?

    public init(name: String, recordCount: Int?, problem: String?, modified: Date?, byteSize: Int,
                note: String? = nil) {
        self.name = name
        self.recordCount = recordCount
        self.problem = problem
        self.modified = modified
        self.byteSize = byteSize
        self.note = note
    }
}

extension DocumentStore {
    /// Every document, sorted like `documentNames()`; none when the folder cannot be listed.
    public func summaries() -> [DocumentSummary] {
        listedNames().compactMap { summary(of: $0) }
    }

    /// nil when there is no such document. Reads the whole file to count records (a count
    /// that is right beats one that is fast), but only a file `load` would read: one over
    /// the size limit or not starting like a property list is refused before it is read, so
    /// listing a folder stays quick and its memory bounded by the limit.
    public func summary(of name: String) -> DocumentSummary? {
        guard exists(name) else { return nil }
        var status = stat()
        let path = filePath(for: name)
        let note = path == RawPath(url(for: name).path) ? nil : Self.rawNameNote
        let statted = path.withCString { stat($0, &status) } == 0
        let modified = statted ? Self.modificationDate(status) : nil
        let size = statted ? Int(status.st_size) : 0
        switch load(name) {
        case .success(let document):
            return DocumentSummary(name: name, recordCount: document.records.count, problem: nil,
                                   modified: modified, byteSize: size, note: note)
        case .failure(let error):
            return DocumentSummary(name: name, recordCount: nil, problem: error.message,
                                   modified: modified, byteSize: size, note: note)
        }
    }

    static func modificationDate(_ status: stat) -> Date {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
    }
}
