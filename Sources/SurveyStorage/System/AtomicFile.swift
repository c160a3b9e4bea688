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

/// Replaces a file so that a crash or power cut leaves either the old or the new content,
/// never a mix. Foundation's `.atomic` write does not sync the folder, resets permissions
/// and can leave temporary files behind, so this is done with system calls, made through
/// the caller's `FileSystem` so that each of them can be made to fail in a test.
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

    /// Writes a file's whole content at the start of an empty file.
    typealias Contents = (_ output: FileOutput) throws -> Void

    /// Keeps the replaced file's owner, group and mode. When the new file cannot be given
    /// them (another user's file in a shared folder: only root may give a file away), the
    /// rename would take the file from its owner, so it is written in place behind a backup
    /// copy instead (`InPlaceWrite`), or refused when it cannot be written in place either.
    static func write(_ data: Data, to url: URL, in fs: FileSystem) throws {
        try write(to: url, in: fs) { try $0.write(data) }
    }

    /// `write(_:to:)` with the content written by `contents` as it is made (a large
    /// document streams into the temporary file instead of being built in memory first).
    static func write(to url: URL, in fs: FileSystem, contents: Contents) throws {
        try write(to: url, in: fs, contents: contents) { install in try install() }
    }

    /// `write(to:contents:)` with its last step in the caller's hands. The content is written
    /// to the temporary file and synced first (the slow part, for a large document); then
    /// `commit` gets `install`, which puts it in place. Should `commit` return without calling
    /// it (the caller found the file changed meanwhile), the temporary file is removed and
    /// nothing is replaced. So a caller can check the file and install under a lock it does
    /// not hold while writing. `commit` runs a second time, in place of the first, when the
    /// file's owner turns out not to be keepable: the file is then written in place.
    static func write(to url: URL, in fs: FileSystem, contents: Contents,
                      commit: (_ install: () throws -> Void) throws -> Void) throws {
        let target = resolvedPath(url.path)
        var status = stat()
        let owner = stat(target, &status) == 0 ? FileOwner(status) : nil
        do {
            try place(contents, at: target, keeping: owner, in: fs) { temporary in
                var installed = false
                try commit {
                    // The owner or mode may have changed while the content was written.
                    try keepOwner(of: target, on: temporary, in: fs)
                    if fs.rename(temporary, target) != 0 { throw SystemError("replace") }
                    installed = true
                }
                return installed
            }
        } catch is FileOwner.CannotKeep {
            try withoutActuallyEscaping(contents) { contents in
                try commit {
                    var status = stat()
                    guard stat(target, &status) == 0 else { throw SystemError("replace", code: ENOENT) }
                    try InPlaceWrite.write(contents, over: target, keeping: FileOwner(status), in: fs)
                }
            }
        }
    }

    /// Like `write`, but for a file that must not exist yet: fails with `EEXIST` rather than
    /// replacing one that appeared since the caller looked (another `survey` creating the same
    /// document), and a crash never leaves a half-written file under the final name.
    static func create(_ data: Data, at url: URL, in fs: FileSystem) throws {
        try create(at: url, in: fs) { try $0.write(data) }
    }

    /// A copy of someone's file put in place under `url`, created with `mode` (the umask
    /// narrowing it further), whatever had that name replaced, never kept: not an older copy's
    /// owner or mode, and a link there is replaced, not written through (`CopiedFile`).
    static func replace(_ data: Data, at url: URL, mode: mode_t, in fs: FileSystem) throws {
        try place({ try $0.write(data) }, at: url.path, keeping: nil, mode: mode, in: fs) { temporary in
            if fs.rename(temporary, url.path) != 0 { throw SystemError("replace") }
            return true
        }
    }

    /// `create(_:at:in:)` with the content written by `contents`, and the file created with
    /// `mode` when given (a private key's 0600, even in a team's shared folder) rather than
    /// `NewFileMode.file(in:)`.
    static func create(at url: URL, mode: mode_t? = nil, in fs: FileSystem, contents: Contents) throws {
        let target = url.path
        try place(contents, at: target, keeping: nil, mode: mode, in: fs) { temporary in
            try FileMove.withoutReplacing(from: temporary, to: target, in: fs)
            return true
        }
    }

    /// Writes the content to a temporary file beside `target`, makes it durable, lets
    /// `install` move it into place (true when it did), then syncs the folder. The temporary
    /// file never outlives a failure or an install that did not happen. It is created with
    /// `mode`, less the umask; unless told, `NewFileMode.file(in:)`: the owner's alone, for
    /// what survey keeps holds respondents' answers (issue 31), or the group's too in a
    /// team's shared folder (a file that exists keeps its owner and mode, below). With `owner`, the
    /// temporary file gets its owner, group and mode first, or `FileOwner.CannotKeep` is
    /// thrown before anything is written. The temporary file is open for reading too, so a
    /// debug build can read back what it wrote (`SurveyDocument.writePropertyList(to:)`).
    private static func place(_ contents: Contents, at target: String, keeping owner: FileOwner?, mode given: mode_t? = nil,
                              in fs: FileSystem, install: (String) throws -> Bool) throws {
        let folder = target.pathRemovingLastComponent
        let fileName = target.pathLastComponent
        let mode = given ?? NewFileMode.file(in: folder)

        var tempPath = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            tempPath = folder + "/" + temporaryName(for: fileName)
            fd = fs.open(tempPath, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw SystemError("create temporary file") }

        var installed = false
        defer {
            if fd >= 0 { _ = fs.close(fd) }
            if !installed { unlink(tempPath) }   // the clean-up: not a call a fault picks
        }
        if let owner { try owner.apply(to: fd) }
        try contents(FileOutput(fd: fd, fileSystem: fs))
        if fs.sync(fd) != 0 { throw SystemError("sync") }
        let closed = fs.close(fd)
        fd = -1
        if closed != 0 { throw SystemError("close") }
        installed = try install(tempPath)
        guard installed else { return }
        // The new content is in place (and its data synced): a failure to sync the folder
        // now only leaves the rename less durable. Reporting it as a failed save would make
        // the app undo on screen a change that is on disk, and then add it twice.
        try? syncFolder(folder, in: fs)
    }

    /// Gives the written temporary file the owner, group and mode `target` has now, when
    /// they changed since it was created (nothing to do when `target` is gone).
    private static func keepOwner(of target: String, on temporary: String, in fs: FileSystem) throws {
        var now = stat(), written = stat()
        guard stat(target, &now) == 0, stat(temporary, &written) == 0,
              FileOwner(now) != FileOwner(written) else { return }
        let fd = fs.open(temporary, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SystemError("keep owner") }
        defer { _ = fs.close(fd) }
        try FileOwner(now).apply(to: fd)
        if fs.sync(fd) != 0 { throw SystemError("sync") }
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

    /// Makes the rename itself durable. File systems that cannot sync a directory say so
    /// with EINVAL; that is not a failure of the save.
    static func syncFolder(_ folder: String, in fs: FileSystem) throws {
        let fd = fs.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open folder") }
        defer { _ = fs.close(fd) }
        if fs.sync(fd) != 0, errno != EINVAL, errno != EROFS {
            throw SystemError("sync folder")
        }
    }
}
