import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File names as the file system holds them (bytes, not necessarily UTF-8). Foundation on
/// Linux drops or mangles names that are not valid UTF-8, so tests that make or look for
/// such files go through the system calls here.
public enum RawFileNames {
    /// Creates `folder/name` from raw name bytes, holding `contents`.
    public static func create(_ name: [UInt8], in folder: URL, contents: Data) throws {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
        let fd = path.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { buffer -> Int32 in
            var cString = Array(buffer)
            cString.append(0)
            return open(cString, O_CREAT | O_EXCL | O_WRONLY, 0o644)
        }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == contents.count else { throw POSIXError(.EIO) }
    }

    /// Every entry of `folder` (hidden ones included, not "." and ".."), as bytes, sorted.
    public static func entries(of folder: URL) -> [[UInt8]] {
        guard let dir = opendir(folder.path) else { return [] }
        defer { closedir(dir) }
        var found: [[UInt8]] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if bytes != [UInt8(ascii: ".")], bytes != [UInt8(ascii: "."), UInt8(ascii: ".")] { found.append(bytes) }
        }
        return found.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
