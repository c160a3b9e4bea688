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

