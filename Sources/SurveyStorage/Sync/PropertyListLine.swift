#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of a property list survey wrote (its newline included): one tag per line, one
/// tab per depth (`PropertyListWriter`). What `LedgerIndex` and `DocumentDigests` read files by,
/// without parsing them.
struct PropertyListLine {
    let bytes: UnsafeBufferPointer<UInt8>

    /// The number of tabs the line begins with when a tag follows them (markup at that
    /// depth); nil for a line of a string's text running over several lines.
    /// The tabs the line begins with.
    var tabs: Int {
        var at = 0
        while at < bytes.count, bytes[at] == 0x09 { at += 1 }
        return at
    }

    var markupDepth: Int? {
        var at = 0
        while at < bytes.count, bytes[at] == 0x09 { at += 1 }
        return at < bytes.count && bytes[at] == UInt8(ascii: "<") ? at : nil
    }

    /// Whether the line is markup that opens a string and leaves it open (its text runs
    /// on). A line ending in `>` is closed, unless it ends in `<string>` (a text that
    /// begins with a newline): survey writes `>` in text as `&gt;`.
    var opensString: Bool {
        guard bytes.count >= 2, markupDepth != nil else { return false }
        if bytes[bytes.count - 2] == UInt8(ascii: ">"), !endsWith("<string>") { return false }
        return contains("<string>") && !contains("</string>")
    }

    func endsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - 1 >= count, let base = bytes.baseAddress else { return false }
        return memcmp(base + bytes.count - 1 - count, text.utf8Start, count) == 0
    }

    /// Whether the line (its newline aside) is exactly `text`.
    func `is`(_ text: StaticString) -> Bool {
        bytes.count - 1 == text.utf8CodeUnitCount && startsWith(text)
    }

    func contains(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard let base = bytes.baseAddress, bytes.count >= count else { return false }
        let first = text.utf8Start[0]
        var at = 0
        while at + count <= bytes.count, let found = memchr(base + at, Int32(first), bytes.count - count + 1 - at) {
            let place = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + place, text.utf8Start, count) == 0 { return true }
            at = place + 1
        }
        return false
    }

    func startsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - 1 >= count, let base = bytes.baseAddress else { return false }
        return memcmp(base, text.utf8Start, count) == 0
    }

    /// The bytes between `open` and `close` when the line is exactly `open`TEXT`close`
    /// with no `<` in TEXT.
    func between(_ open: StaticString, _ close: StaticString) -> UnsafeBufferPointer<UInt8>? {
        let end = bytes.count - 1
        let (o, c) = (open.utf8CodeUnitCount, close.utf8CodeUnitCount)
        guard end >= o + c, startsWith(open), let base = bytes.baseAddress,
              memcmp(base + end - c, close.utf8Start, c) == 0 else { return nil }
        let text = UnsafeBufferPointer(rebasing: bytes[o..<(end - c)])
        return text.contains(UInt8(ascii: "<")) ? nil : text
    }
}
