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

/// Files that hold secrets or plaintext answers (`survey keys new`'s private key, `survey
/// decrypt`'s submissions): created 0600 in folders created 0700, whatever the umask and
/// even in a team's shared folder, written whole or not at all, and never over an existing
/// file. Every call that changes the disk goes through a `FileSystem`, as a document's save
/// does (`AtomicFile`, `FileMove`), so a test fails each of them in turn.
package enum PrivateFiles {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// `bytes` at `path`, which must not exist: written to a temporary file beside it,
    /// synced, then moved into place without replacing (`AtomicFile.create`), so a reader
    /// never sees half a file and a file that appeared meanwhile is never replaced.
    package static func createNew(_ path: String, _ bytes: [UInt8], in fs: FileSystem = .live) throws {
        do {
            try AtomicFile.create(at: URL(fileURLWithPath: path), mode: 0o600, in: fs) { output in
                try bytes.withUnsafeBytes { try output.write($0) }
            }
        } catch let error as SystemError {
            throw Failure(description: error.code == EEXIST ? "\(path) already exists: nothing was written"
                          : "\(path) cannot be written (\(error.reason))")
        }
    }

    /// A new folder `path` (0700) holding `files` (each 0600; plain names, as the caller
    /// checked): written into a hidden folder beside it, every file and the folder synced,
    /// then moved into place in one rename that never replaces (`FileMove`). On any failure
    /// nothing is left: not the folder, not the hidden one.
    package static func createFolder(_ path: String, holding files: [ODKSubmissionFile], in fs: FileSystem = .live) throws {
        let parent = parent(of: path)
        let staging = parent + "/" + AtomicFile.temporaryName(for: path.pathLastComponent)
        var installed = false
        do {
            if fs.makeFolder(staging, 0o700) != 0 { throw SystemError("create folder") }
            defer {
                if !installed {   // the clean-up: not calls a fault picks
                    for file in files { _ = unlink(staging + "/" + file.name) }
                    _ = rmdir(staging)
                }
            }
            for file in files {
                try writeNew(staging + "/" + file.name, file.bytes, in: fs)
            }
            try AtomicFile.syncFolder(staging, in: fs)
            do {
                try FileMove.withoutReplacing(from: staging, to: path, in: fs)
            } catch let error as SystemError where error.code == EEXIST || error.code == ENOTEMPTY {
                throw Failure(description: "\(path) cannot be written (it appeared meanwhile)")
            }
            installed = true
        } catch let error as SystemError {
            throw Failure(description: "\(path) cannot be written (\(error.reason))")
        }
        // In place, each file synced: a failed sync of the folder above only leaves the
        // rename less durable (as `AtomicFile` reasons).
        try? AtomicFile.syncFolder(parent, in: fs)
    }

    /// A new file, 0600, written and synced, in a folder nobody else sees yet.
    private static func writeNew(_ path: String, _ bytes: [UInt8], in fs: FileSystem) throws {
        let fd = fs.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError("create") }
        var isOpen = true
        defer { if isOpen { _ = fs.close(fd) } }
        try bytes.withUnsafeBytes { try FileOutput(fd: fd, fileSystem: fs).write($0) }
        if fs.sync(fd) != 0 { throw SystemError("sync") }
        isOpen = false
        if fs.close(fd) != 0 { throw SystemError("close") }
    }

    /// `path` and any folders above it that are missing, each created 0700.
    package static func makeFolders(_ path: String, in fs: FileSystem = .live) throws {
        var missing: [String] = []
        var current = path
        while !isFolder(current) {
            if exists(current) { throw Failure(description: "\(current) is a file, not a folder") }
            missing.append(current)
            let up = parent(of: current)
            guard up != current else { break }
            current = up
        }
        for folder in missing.reversed() where fs.makeFolder(folder, 0o700) != 0 && errno != EEXIST {
            throw Failure(description: "the folder \(folder) cannot be created (\(reason(errno)))")
        }
    }

    /// The folder holding `path` ("." for a bare name, "/" for a top-level one).
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    package static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
