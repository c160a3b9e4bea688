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

/// One name in a folder, exactly as the file system holds it. `FileManager` on Linux drops
/// or mangles names that are not valid UTF-8, which made such documents invisible (and a
/// folder holding only one got a fresh "Untitled"), so folders are read with `readdir`.
struct FolderEntry: Equatable, Sendable {
    let bytes: [UInt8]

    /// The name, when its bytes are valid UTF-8.
    var validName: String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The name as a person sees it: bytes that are not UTF-8 shown as U+FFFD.
    var shownName: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Every entry but "." and "..", in directory order. Throws `SystemError` when the
    /// folder cannot be opened or read.
    static func list(_ folder: URL) throws -> [FolderEntry] {
        guard let dir = opendir(folder.path) else { throw SystemError("open folder") }
        defer { closedir(dir) }
        var entries: [FolderEntry] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw SystemError("read folder") }
                return entries
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            entries.append(FolderEntry(bytes: bytes))
        }
    }
}
