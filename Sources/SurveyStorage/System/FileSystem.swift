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

/// The system calls that change files, in one place, with a way to make any of them fail.
///
/// SQLite drives every I/O error path in every build through its test VFS; this is the same
/// seam. Saves, the journal, the trash, drafts, the deleted-surveys file and imports all call
/// through a `FileSystem`: `.live` makes the real calls; `.failing(…)` first asks a `Fault`
/// whether this call should fail and with which `errno` (a full disk on the 3rd write, EIO on
/// the 2nd sync), so a plain `swift test`, without root or a tmpfs, runs every failure path.
/// Reads are not here, a read failure changes nothing on disk, but for the copies survey
/// makes of a user's files (`CopiedFile`: a list file, a photo), which a test fails midway.
public struct FileSystem: Sendable {
    /// What a call does, for a fault to pick by.
    public enum Operation: String, CaseIterable, Sendable {
        case open, read, write, sync, close, rename, link, unlink, lock, truncate, makeFolder
    }

    /// Asked before each call with what it is and the path (nil for calls on a descriptor):
    /// an `errno` makes the call fail with it, without being made; nil lets it through.
    public typealias Fault = @Sendable (_ operation: Operation, _ path: String?) -> Int32?

    private let fault: Fault?

    private init(fault: Fault?) { self.fault = fault }

    /// The real system calls.
    public static let live = FileSystem(fault: nil)

    /// The real calls, each first put to `fault`.
    public static func failing(_ fault: @escaping Fault) -> FileSystem { FileSystem(fault: fault) }

    /// Whether `fault` fails this call; sets `errno` when it does.
    private func fails(_ operation: Operation, _ path: String?) -> Bool {
        guard let fault, let code = fault(operation, path) else { return false }
        errno = code
        return true
    }

    func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        if fails(.open, path) { return -1 }
        return systemOpen(path, flags, mode)
    }

    func read(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        if fails(.read, nil) { return -1 }
        return systemRead(fd, pointer, count)
    }

    func write(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        if fails(.write, nil) { return -1 }
        return systemWrite(fd, pointer, count)
    }

    /// `fsync`, the data and the metadata both.
    func sync(_ fd: Int32) -> Int32 {
        if fails(.sync, nil) { return -1 }
        return fsync(fd)
    }

    /// `fdatasync`: the data, and the metadata needed to read it back (an append's size).
    func syncData(_ fd: Int32) -> Int32 {
        if fails(.sync, nil) { return -1 }
        return fdatasync(fd)
    }

    /// A failed close still releases the descriptor, as `close` itself does on Linux.
    func close(_ fd: Int32) -> Int32 {
        let result = systemClose(fd)
        if fails(.close, nil) { return -1 }
        return result
    }

    func rename(_ from: String, _ to: String) -> Int32 {
        if fails(.rename, to) { return -1 }
        return from.withCString { f in to.withCString { t in systemRename(f, t) } }
    }

    /// `rename` for names that may not be UTF-8 (see `RawPath`).
    func rename(_ from: RawPath, _ to: RawPath) -> Int32 {
        if fails(.rename, to.text) { return -1 }
        return from.withCString { f in to.withCString { t in systemRename(f, t) } }
    }

    /// `renameat2(RENAME_NOREPLACE)` where the C library has it (see `FileMove`).
    func renameWithoutReplacing(_ from: RawPath, _ to: RawPath,
                                _ call: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32) -> Int32 {
        if fails(.rename, to.text) { return -1 }
        return from.withCString { f in to.withCString { t in call(f, t) } }
    }

    func link(_ from: RawPath, _ to: RawPath) -> Int32 {
        if fails(.link, to.text) { return -1 }
        return from.withCString { f in to.withCString { t in systemLink(f, t) } }
    }

    func unlink(_ path: String) -> Int32 {
        if fails(.unlink, path) { return -1 }
        return path.withCString { systemUnlink($0) }
    }

    func unlink(_ path: RawPath) -> Int32 {
        if fails(.unlink, path.text) { return -1 }
        return path.withCString { systemUnlink($0) }
    }

    func lock(_ fd: Int32, _ operation: Int32) -> Int32 {
        if fails(.lock, nil) { return -1 }
        return flock(fd, operation)
    }

    func truncate(_ fd: Int32, _ length: off_t) -> Int32 {
        if fails(.truncate, nil) { return -1 }
        return ftruncate(fd, length)
    }

    func makeFolder(_ path: String, _ mode: mode_t) -> Int32 {
        if fails(.makeFolder, path) { return -1 }
        return mkdir(path, mode)
    }
}

/// Where a file's content is written: the descriptor, through the file system that opened it,
/// so a fault can fail the content's writes too (a full disk half-way through a document).
public struct FileOutput {
    public let fd: Int32
    let fileSystem: FileSystem

    init(fd: Int32, fileSystem: FileSystem) {
        self.fd = fd
        self.fileSystem = fileSystem
    }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// All of `buffer`, retrying an interrupted or short write.
    func write(_ buffer: UnsafeRawBufferPointer) throws {
        guard var pointer = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = fileSystem.write(fd, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError("write")
            }
            pointer += written
            remaining -= written
        }
    }
}
