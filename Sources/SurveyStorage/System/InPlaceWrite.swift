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

/// Overwrites a file in place, behind a backup copy, as vim's `backupcopy=auto` does for a
/// file whose owner a replacement could not keep (another user's document in a shared
/// folder). The inode stays, so owner, group, mode, links and ACLs stay with it.
///
/// Crash safety comes from the order: the backup copy is synced, and its name in the folder
/// too, before the file is truncated; it is removed only after the new content is synced.
/// A crash in between leaves the backup, which nothing removes: loading a document that
/// then fails names it (`DocumentStore.backupNotice`). A failed write puts the old content
/// back from the backup.
enum InPlaceWrite {
    /// ".NAME.plist.backup-PID-RANDOM": hidden, never ending in ".plist", unique per writer,
    /// and not a temporary name (the clean-up of temporary files never removes it).
    static func backupName(for fileName: String) -> String {
        let base = fileName.hasPrefix(".") ? String(fileName.dropFirst()) : fileName
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return ".\(base)\(backupMarker)\(getpid())-\(random)"
    }

    static let backupMarker = ".backup-"

    static func write(_ data: Data, over target: String, keeping owner: FileOwner, in fs: FileSystem) throws {
        try write({ try $0.write(data) }, over: target, keeping: owner, in: fs)
    }

    /// Opened for reading too where the file allows it, so a debug build can read back what
    /// it wrote; a file we may only write is written all the same.
    static func write(_ contents: AtomicFile.Contents, over target: String, keeping owner: FileOwner,
                      in fs: FileSystem) throws {
        var fd = fs.open(target, O_RDWR | O_CLOEXEC | O_NOCTTY)
        if fd < 0, errno == EACCES { fd = fs.open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else {
            let code = errno
            guard code == EACCES || code == EPERM else { throw SystemError("open", code: code) }
            throw SystemError("open", code: code, explanation: ownerExplanation(owner)
                + " and cannot be written in place")
        }
        var isOpen = true
        defer { if isOpen { _ = fs.close(fd) } }

        let folder = target.pathRemovingLastComponent
        let backup = folder + "/" + backupName(for: target.pathLastComponent)
        do {
            try copy(from: target, to: backup, owner: owner, in: fs)
        } catch let error as SystemError {
            throw SystemError(error.operation, code: error.code,
                              explanation: ownerExplanation(owner) + " and no backup copy could be made to write it in place")
        }
        do {
            try AtomicFile.syncFolder(folder, in: fs)   // the backup's name is durable before the file changes
        } catch {
            unlink(backup)
            throw error
        }

        do {
            if fs.truncate(fd, 0) != 0 { throw SystemError("truncate") }
            try contents(FileOutput(fd: fd, fileSystem: fs))
            if fs.sync(fd) != 0 { throw SystemError("sync") }
        } catch let error as SystemError {
            throw restore(fd, from: backup, after: error)
        } catch {
            // Not the system's refusal (a debug build's read-back): the old content goes back all the same.
            guard restored(fd, from: backup) else { throw keptBackup(backup, after: SystemError("write", code: EIO)) }
            throw error
        }
        isOpen = false
        if fs.close(fd) != 0 { throw restoreAfterClose(target, from: backup, after: SystemError("close")) }
        unlink(backup)
        try? AtomicFile.syncFolder(folder, in: fs)
    }

    /// "it belongs to another user (uid 1000)": why the usual atomic replacement was not used.
    private static func ownerExplanation(_ owner: FileOwner) -> String {
        owner.user == geteuid()
            ? "its group (gid \(owner.group)) is not one of yours"
            : "it belongs to another user (uid \(owner.user))"
    }

    /// The backup, readable by whom the file is: same mode, in the file's group when we may
    /// choose it, else without the group's permissions (they would go to our own group).
    private static func copy(from source: String, to backup: String, owner: FileOwner, in fs: FileSystem) throws {
        let input = fs.open(source, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard input >= 0 else { throw SystemError("open") }
        defer { _ = fs.close(input) }
        let output = fs.open(backup, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw SystemError("create backup") }
        var done = false
        defer {
            _ = fs.close(output)
            if !done { unlink(backup) }
        }
        let groupKept = fchown(output, owner.user, owner.group) == 0 || fchown(output, uid_t.max, owner.group) == 0
        _ = fchmod(output, owner.mode & (groupKept ? 0o777 : 0o707))
        try pour(input, into: FileOutput(fd: output, fileSystem: fs))
        if fs.sync(output) != 0 { throw SystemError("sync backup") }
        done = true
    }

    /// Copies what is left to read in `input` to `output`, a megabyte at a time.
    private static func pour(_ input: Int32, into output: FileOutput) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(input, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError("read")
            }
            if count == 0 { return }
            try output.write(Data(chunk[0..<count]))
        }
    }

    /// After a failed in-place write: the old content back from the backup, which is then
    /// removed. When even that fails the backup stays, and the error says where it is.
    private static func restore(_ fd: Int32, from backup: String, after error: SystemError) -> SystemError {
        restored(fd, from: backup) ? error : keptBackup(backup, after: error)
    }

    // Putting the old content back is not made through the file system under test: a fault
    // picks the write being made, and the recovery from it must then run as it would.

    /// Whether the old content is back from the backup, which is then removed.
    private static func restored(_ fd: Int32, from backup: String) -> Bool {
        let input = open(backup, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0,
              (try? pour(input, into: FileOutput(fd: fd, fileSystem: .live))) != nil, fsync(fd) == 0 else {
            return false
        }
        unlink(backup)
        return true
    }

    private static func restoreAfterClose(_ target: String, from backup: String, after error: SystemError) -> SystemError {
        let fd = open(target, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return keptBackup(backup, after: error) }
        defer { close(fd) }
        return restore(fd, from: backup, after: error)
    }

    private static func keptBackup(_ backup: String, after error: SystemError) -> SystemError {
        SystemError(error.operation, code: error.code,
                    explanation: "the file may be damaged; its previous content is in \(backup.pathLastComponent)")
    }
}
