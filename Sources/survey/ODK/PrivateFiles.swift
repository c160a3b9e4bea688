import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files that hold secrets or plaintext answers (a private key, a decrypted submission):
/// created 0600 in folders created 0700, whatever the umask, written whole or not at all,
/// and never over an existing file.
enum PrivateFiles {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `bytes` at `path`, which must not exist: written to a temporary file beside it,
    /// flushed, then linked into place (`link` fails if `path` appeared meanwhile), so a
    /// reader never sees half a file and an existing one is never replaced.
    static func createNew(_ path: String, _ bytes: [UInt8]) throws {
        let folder = parent(of: path)
        let temporary = folder + "/.survey-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try writeNew(temporary, bytes)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            let code = errno
            throw Failure(description: code == EEXIST ? "\(path) already exists: nothing was written"
                          : "\(path) cannot be written (\(reason(code)))")
        }
        syncFolder(folder)
    }

    /// A new file, 0600, written and flushed.
    static func writeNew(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "\(path) cannot be created (\(reason(errno)))") }
        var ok = true
        var code: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { ok = false; code = errno; return }
                offset += n
            }
        }
        if ok, fsync(fd) != 0 { ok = false; code = errno }
        close(fd)
        guard ok else {
            unlink(path)
            throw Failure(description: "\(path) cannot be written (\(reason(code)))")
        }
    }

    /// `path` and any folders above it that are missing, each created 0700.
    static func makeFolders(_ path: String) throws {
        var missing: [String] = []
        var current = path
        while !isFolder(current) {
            if exists(current) { throw Failure(description: "\(current) is a file, not a folder") }
            missing.append(current)
            let up = parent(of: current)
            guard up != current else { break }
            current = up
        }
        for folder in missing.reversed() where mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw Failure(description: "the folder \(folder) cannot be created (\(reason(errno)))")
        }
    }

    /// The folder holding `path` ("." for a bare name, "/" for a top-level one).
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Flushes a folder's entries (a rename or link into it) to disk.
    static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
