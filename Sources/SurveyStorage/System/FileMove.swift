#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// Moves a file to a new name inside the same file system without ever replacing what is
/// already there. Plain `rename` silently replaces its target, and checking first leaves a
/// window in which another process (a second `survey`, a sync tool) can create it.
enum FileMove {
    /// Fails with `EEXIST` when `target` exists. Tries, in order: `renameat2` with
    /// `RENAME_NOREPLACE` (atomic; glibc 2.28+, most Linux file systems), `link` + `unlink`
    /// (atomic check, for file systems without the flag), and last check-then-rename (for
    /// file systems without hard links, such as FAT on a USB stick).
    static func withoutReplacing(from source: String, to target: String, in fs: FileSystem) throws {
        try withoutReplacing(from: RawPath(source), to: RawPath(target), in: fs)
    }

    /// The same for a source whose name may not be UTF-8 (see `RawPath`).
    static func withoutReplacing(from source: RawPath, to target: RawPath, in fs: FileSystem) throws {
        if let renameat2 = renameat2Function {
            let moved = fs.renameWithoutReplacing(source, target) { from, to in
                renameat2(atCurrentDirectory, from, atCurrentDirectory, to, renameNoReplace)
            }
            if moved == 0 { return }
            let code = errno
            if ![EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP].contains(code) { throw SystemError("rename", code: code) }
        }
        do {
            try linkThenUnlink(from: source, to: target, in: fs)
        } catch let error as SystemError where [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(error.code) {
            try checkThenRename(from: source, to: target, in: fs)
        }
    }

    /// `link` fails with EEXIST atomically; the second name is then removed.
    static func linkThenUnlink(from source: String, to target: String, in fs: FileSystem) throws {
        try linkThenUnlink(from: RawPath(source), to: RawPath(target), in: fs)
    }

    static func linkThenUnlink(from source: RawPath, to target: RawPath, in fs: FileSystem) throws {
        if fs.link(source, target) != 0 { throw SystemError("rename") }
        if fs.unlink(source) != 0 {
            let code = errno
            target.withCString { _ = unlink($0) }   // taking the new name back: not a call a fault picks
            throw SystemError("rename", code: code)
        }
    }

    /// The last resort: not atomic, but the window is a few microseconds.
    static func checkThenRename(from source: String, to target: String, in fs: FileSystem) throws {
        try checkThenRename(from: RawPath(source), to: RawPath(target), in: fs)
    }

    static func checkThenRename(from source: RawPath, to target: RawPath, in fs: FileSystem) throws {
        var status = stat()
        if target.withCString({ lstat($0, &status) }) == 0 { throw SystemError("rename", code: EEXIST) }
        if fs.rename(source, target) != 0 { throw SystemError("rename") }
    }

    private typealias Renameat2 = @convention(c) (
        Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Swift's Glibc module does not declare `renameat2` (it sits behind `_GNU_SOURCE`), so the
    /// symbol is looked up at run time; nil where the C library lacks it (musl, old glibc, macOS).
    private static let renameat2Function: Renameat2? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Renameat2.self)
        #else
        return nil
        #endif
    }()

    /// Linux values from <fcntl.h> and <linux/fs.h>; only used on Linux, where they are fixed ABI.
    private static let atCurrentDirectory: Int32 = -100
    private static let renameNoReplace: UInt32 = 1
}
