import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file so that a crash or power cut leaves either the old or the new content,
/// never a mix. Foundation's `.atomic` write does not sync the folder, resets permissions
/// and can leave temporary files behind, so this is done with system calls.
enum AtomicFile {
    /// Temporary names start with "." and end in ".tmp-PID-RANDOM", so they are never
    /// listed as documents nor mistaken for one.
    static func temporaryName(for fileName: String) -> String {
        let base = fileName.hasPrefix(".") ? String(fileName.dropFirst()) : fileName
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return ".\(base).tmp-\(getpid())-\(random)"
    }

    /// Parked names, for a file moved out of the way during a rename, end in
    /// ".rename-PID-RANDOM": unlike temporary files they may hold the only copy of a
    /// document, so the clean-up of temporary files never matches them.
    static func parkingName(for fileName: String) -> String {
        let base = fileName.hasPrefix(".") ? String(fileName.dropFirst()) : fileName
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return ".\(base).rename-\(getpid())-\(random)"
    }

    /// Keeps the replaced file's owner, group and mode. When the new file cannot be given
    /// them (another user's file in a shared folder: only root may give a file away), the
    /// rename would take the file from its owner, so it is written in place behind a backup
    /// copy instead (`InPlaceWrite`), or refused when it cannot be written in place either.
    static func write(_ data: Data, to url: URL) throws {
        let target = resolvedPath(url.path)
        var status = stat()
        guard stat(target, &status) == 0 else {
            return try place(data, at: target, keeping: nil) { temporary in
                if rename(temporary, target) != 0 { throw SystemError("replace") }
            }
        }
        let owner = FileOwner(status)
        do {
            try place(data, at: target, keeping: owner) { temporary in
                if rename(temporary, target) != 0 { throw SystemError("replace") }
            }
        } catch is FileOwner.CannotKeep {
            try InPlaceWrite.write(data, over: target, keeping: owner)
        }
    }

    /// Like `write`, but for a file that must not exist yet: fails with `EEXIST` rather than
    /// replacing one that appeared since the caller looked (another `survey` creating the same
    /// document), and a crash never leaves a half-written file under the final name.
    static func create(_ data: Data, at url: URL) throws {
        let target = url.path
        try place(data, at: target, keeping: nil) { temporary in
            try FileMove.withoutReplacing(from: temporary, to: target)
        }
    }

    /// Writes `data` to a temporary file beside `target`, makes it durable, lets `install`
    /// move it into place, then syncs the folder. The temporary file never outlives a failure.
    /// With `owner`, the temporary file gets its owner, group and mode first, or
    /// `FileOwner.CannotKeep` is thrown before anything is written.
    private static func place(_ data: Data, at target: String, keeping owner: FileOwner?,
                              install: (String) throws -> Void) throws {
        let folder = (target as NSString).deletingLastPathComponent
        let fileName = (target as NSString).lastPathComponent

        var tempPath = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            tempPath = folder + "/" + temporaryName(for: fileName)
            fd = open(tempPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw SystemError("create temporary file") }

        var installed = false
        defer {
            if fd >= 0 { close(fd) }
            if !installed { unlink(tempPath) }
        }
        if let owner { try owner.apply(to: fd) }
        try writeAll(data, to: fd)
        if fsync(fd) != 0 { throw SystemError("sync") }
        let closed = close(fd)
        fd = -1
        if closed != 0 { throw SystemError("close") }
        try install(tempPath)
        installed = true
        // The new content is in place (and its data synced): a failure to sync the folder
        // now only leaves the rename less durable. Reporting it as a failed save would make
        // the app undo on screen a change that is on disk, and then add it twice.
        try? syncFolder(folder)
    }

    /// Writing through a symbolic link updates the file it points to instead of replacing
    /// the link with a plain file.
    private static func resolvedPath(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK,
              let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func writeAll(_ data: Data, to fd: Int32) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard var pointer = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = systemWrite(fd, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw SystemError("write")
                }
                pointer += written
                remaining -= written
            }
        }
    }

    /// Makes the rename itself durable. File systems that cannot sync a directory say so
    /// with EINVAL; that is not a failure of the save.
    static func syncFolder(_ folder: String) throws {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open folder") }
        defer { close(fd) }
        if fsync(fd) != 0, errno != EINVAL, errno != EROFS {
            throw SystemError("sync folder")
        }
    }
}
