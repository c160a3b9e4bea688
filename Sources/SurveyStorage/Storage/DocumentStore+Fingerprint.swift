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

/// What a document file looked like when the app last read or wrote it. If it differs at
/// the next save, another program (a second survey, `survey add`, a sync tool) changed the
/// file, and writing the app's copy would throw that change away.
public struct FileFingerprint: Equatable, Sendable {
    public let inode: UInt64
    public let size: Int64
    public let modifiedSeconds: Int
    public let modifiedNanoseconds: Int
}

extension DocumentStore {
    /// nil when the file does not exist (or is not a regular file).
    public func fingerprint(of name: String) -> FileFingerprint? {
        fingerprint(atPath: filePath(for: name))
    }

    /// The New form's file, so a change by a second window is noticed before it is replaced.
    public func draftFingerprint(for name: String) -> FileFingerprint? {
        fingerprint(atPath: RawPath(draftURL(for: name).path))
    }

    func fingerprint(atPath path: RawPath) -> FileFingerprint? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileFingerprint(inode: UInt64(info.st_ino), size: Int64(info.st_size),
                               modifiedSeconds: Int(info.st_mtim.tv_sec),
                               modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// The document that is now the file we knew (same inode): where a rename made outside
    /// the app took it. nil when no document is that file.
    public func documentName(sameFileAs known: FileFingerprint) -> String? {
        (try? documentNames())?.first { fingerprint(of: $0)?.inode == known.inode }
    }
}

extension DocumentStore {
    /// Any file's fingerprint by path: for tests that check a file was not written.
    public func fingerprint(atPathForTests path: String) -> FileFingerprint? { fingerprint(atPath: RawPath(path)) }
}
