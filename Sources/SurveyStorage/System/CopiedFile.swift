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

/// A file of the user's that survey copies into a document's folder (a list file, a photo
/// answer, a form), read through a descriptor opened on the file itself. Copies were made
/// 0644 whatever the file was (a 0600 photo became readable by every user of the laptop),
/// and a symbolic link was followed (a link named `villages.csv` beside a form, to
/// `~/.ssh/id_rsa` or `/etc/shadow`, was copied into the folder a team syncs).
///
/// - The copy's permission bits are the source's read and write bits (`mode & 0666`), the
///   umask narrowing them further: never more readable than the file it copies.
/// - A link as the last component of the path is refused (`O_NOFOLLOW`), as is anything but
///   a regular file (a FIFO is opened without blocking, then refused). Links in the folders
///   on the way are followed: the user named that path, as with `cp` (DECISIONS.md).
struct CopiedFile {
    let data: Data
    /// The permission bits its copy is created with.
    let mode: mode_t

    /// The file at `path`, read through `fs` (a test makes the reads fail), at most
    /// `maximumBytes` of it.
    static func read(_ path: String, in fs: FileSystem, maximumBytes: Int = Int.max) throws -> CopiedFile {
        let fd = fs.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
                throw DocumentError("\(path) is a symbolic link\(linkTarget(path).map { " to \($0)" } ?? ""): "
                    + "survey copies a file itself, never through a link (give the file's own path)")
            }
            if code == ENOENT { throw DocumentError("There is no file at \(path)") }
            throw DocumentError("\(path) could not be read: \(SystemError("open", code: code).reason)")
        }
        defer { _ = fs.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw DocumentError("\(path) could not be read: \(SystemError("fstat").reason)") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw DocumentError("\(path) is not a file") }
        guard Int(status.st_size) <= maximumBytes else {
            throw DocumentError("\(path) is \(Int(status.st_size) / 1_048_576) MB, more than survey copies (\(maximumBytes / 1_048_576) MB)")
        }
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: max(bytes.count, 65_536)) }
            let read = bytes.withUnsafeMutableBytes { fs.read(fd, $0.baseAddress! + count, $0.count - count) }
            if read < 0 {
                if errno == EINTR { continue }
                throw DocumentError("\(path) could not be read: \(SystemError("read").reason)")
            }
            if read == 0 { break }
            count += read
            guard count <= maximumBytes else { throw DocumentError("\(path) grew past \(maximumBytes / 1_048_576) MB while it was read") }
        }
        return CopiedFile(data: Data(bytes[..<count]), mode: status.st_mode & 0o666)
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
