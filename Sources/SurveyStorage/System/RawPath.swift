import FoundationEssentials
import SurveyValues
import SurveyForms

/// A path as the bytes the system calls take. Linux file names are bytes, not text: a
/// document copied from an old Latin-1 machine ("caf\xE9.plist") has a name no Swift string
/// can hold, so the files of such documents are reached through this instead of a URL.
struct RawPath: Equatable, Sendable {
    /// Without the terminating NUL.
    let bytes: [UInt8]

    init(_ path: String) {
        bytes = Array(path.utf8)
    }

    /// `folder/entry`, `entry` being a name read from the folder.
    init(folder: URL, entry: [UInt8]) {
        bytes = Array(folder.path.utf8) + [UInt8(ascii: "/")] + entry
    }

    /// As text, for a fault to match on (bytes that are not UTF-8 shown as U+FFFD).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        let cString = bytes.map { CChar(bitPattern: $0) } + [0]
        return try cString.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
