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

/// Writing an export (`survey export --output FILE`) with the same care as a document: a
/// reader never sees half a file, and an existing file is only replaced when asked, so a
/// mistyped path cannot silently destroy something else.
public enum ExportFile {
    /// Something (a file, a folder, a dangling link) is already at the path.
    public struct AlreadyExists: Error, Equatable, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) already exists" }
    }

    /// Throws `AlreadyExists` when `replacing` is false and something is at `url`, even if
    /// it appeared after the caller looked; a `DocumentError` for any other failure.
    public static func write(_ data: Data, to url: URL, replacing: Bool) throws {
        try write(to: url, replacing: replacing) { write in try data.withUnsafeBytes(write) }
    }

    /// The same, with the content handed to `write` piece by piece by `contents` as it is
    /// made (`survey export` streams a document into the temporary file). An error thrown
    /// by `contents` leaves nothing behind and replaces nothing.
    public static func write(to url: URL, replacing: Bool,
                             contents: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let path = url.path
        do {
            if replacing, let fd = openSpecialFile(path) {
                // A device, a pipe or a socket (`--output /dev/null`, a FIFO a reader waits
                // on) is written into as the shell's `>` would: renaming a file over it would
                // replace the device node itself with a plain file.
                defer { _ = close(fd) }
                let output = FileOutput(fd: fd, fileSystem: .live)
                try contents { try output.write($0) }
                return
            }
            if replacing {
                try AtomicFile.write(to: url, in: .live) { output in try contents { try output.write($0) } }
            } else {
                try AtomicFile.create(at: url, in: .live) { output in try contents { try output.write($0) } }
            }
        } catch let error as SystemError where error.code == EEXIST {
            throw AlreadyExists(path: path)
        } catch let error as SystemError {
            throw DocumentError("Could not write \(path): \(error.reason)")
        }
    }

    /// An open descriptor for writing when `path` names (through any links) something other
    /// than a regular file or a folder; nil for those and for nothing at all.
    private static func openSpecialFile(_ path: String) -> Int32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG, type != S_IFDIR else { return nil }
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        return fd >= 0 ? fd : nil
    }
}
