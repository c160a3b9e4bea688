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

/// A New form's file opened once, its mark ("being stored as X", `saveDraft(beingStoredAs:)`)
/// read from that descriptor, its bytes zeroed through it, its name removed only while the
/// name still leads to it (issue 31). Another window may replace the file by name at any
/// moment (its next New form, written atomically): what was checked is what is zeroed, and a
/// file put in its place is never zeroed nor removed.
struct OpenedDraft {
    let fd: Int32
    let device: dev_t
    let inode: ino_t
    let size: Int
    /// X of the mark; nil for a file without it.
    let mark: String?
    /// Whether the descriptor may write (false: the file could only be opened to read).
    let writable: Bool

    /// The regular file at `path`, not followed through a link; nil when there is none (or it
    /// cannot be opened or read: nothing is then zeroed or removed through it).
    static func open(_ path: String, through fileSystem: FileSystem) -> OpenedDraft? {
        let flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY
        var writable = true
        var fd = fileSystem.open(path, O_RDWR | flags)
        if fd < 0, errno == EACCES || errno == EROFS {
            writable = false
            fd = fileSystem.open(path, O_RDONLY | flags)
        }
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              Int(info.st_size) <= DocumentFileReader.maximumBytes else {
            _ = fileSystem.close(fd)
            return nil
        }
        guard let data = read(fd, size: Int(info.st_size), through: fileSystem) else {
            _ = fileSystem.close(fd)
            return nil
        }
        return OpenedDraft(fd: fd, device: info.st_dev, inode: info.st_ino, size: data.count,
                           mark: mark(in: data), writable: writable)
    }

    /// The file's bytes from its start, through the descriptor.
    private static func read(_ fd: Int32, size: Int, through fileSystem: FileSystem) -> Data? {
        var data = Data(capacity: size)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fileSystem.read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
            if data.count > DocumentFileReader.maximumBytes { return nil }
        }
    }

    /// X of a two-record draft document whose second record is the mark; nil otherwise. The
    /// key's bytes are looked for first: an unmarked draft is not parsed twice.
    static func mark(in data: Data) -> String? {
        guard data.firstRange(of: Data(DocumentStore.beingStoredAsKey.utf8)) != nil,
              PropertyListStart.isPlausible(data),
              let document = try? SurveyDocument(propertyListData: data), document.records.count == 2,
              case .string(let id)? = document.records[1][DocumentStore.beingStoredAsKey], !id.isEmpty else { return nil }
        return id
    }

    /// Overwrites the bytes read with zeros and syncs them; false when it could not. Best
    /// effort: a journaling or copy-on-write file system, or a flash disk, may keep the old
    /// blocks elsewhere.
    func zero(through fileSystem: FileSystem) -> Bool {
        guard writable, size > 0, lseek(fd, 0, SEEK_SET) == 0 else { return false }
        let zeros = [UInt8](repeating: 0, count: size)
        guard (try? zeros.withUnsafeBytes({ try FileOutput(fd: fd, fileSystem: fileSystem).write($0) })) != nil else {
            return false
        }
        return fileSystem.sync(fd) == 0
    }

    /// Whether `path` still names this file (the same device and inode).
    func isStill(at path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_dev == device && info.st_ino == inode
    }

    /// Removes `path` when it still names this file; a file put in its place stays. The name
    /// is first moved to a private one, which no other window writes, and checked there: a file
    /// put in place between the check and the move is moved back (never over a newer one).
    /// Throws when the file could not be removed (a file already gone is fine).
    ///
    /// The private name is a temporary file's (`AtomicFile.temporaryName`): as short as every
    /// other name survey makes of a document's (a name of 200 bytes still fits the file
    /// system's 255), and one a crash leaves behind is removed at a later start, as any
    /// temporary file of a save that was killed.
    func removeName(_ path: String, through fileSystem: FileSystem) throws {
        guard isStill(at: path) else { return }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let aside = (folder.isEmpty ? "" : folder + "/") + AtomicFile.temporaryName(for: name)
        if fileSystem.rename(path, aside) != 0 {
            if errno == ENOENT { return }
            throw DocumentError("Could not remove \(name): \(SystemError("rename").reason)")
        }
        if !isStill(at: aside) {
            // Another window's file, put in place just now: back under its name, unless it
            // wrote again meanwhile (then this older one of its files goes).
            guard fileSystem.link(RawPath(aside), RawPath(path)) == 0 || errno == EEXIST else {
                // No hard links here (a FAT stick): moved back only while nothing took the
                // name; else it is the older of that window's files, and goes.
                var info = stat()
                if lstat(path, &info) != 0, errno == ENOENT, fileSystem.rename(aside, path) == 0 { return }
                _ = fileSystem.unlink(aside)
                return
            }
        }
        if fileSystem.unlink(aside) != 0, errno != ENOENT {
            throw DocumentError("Could not remove \(name): \(SystemError("unlink").reason)")
        }
    }

    func close(through fileSystem: FileSystem) {
        _ = fileSystem.close(fd)
    }
}
