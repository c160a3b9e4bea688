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

    /// The tabs the line begins with.
    var tabs: Int {
        var at = 0
        while at < bytes.count, bytes[at] == 0x09 { at += 1 }
        return at
    }

    /// The number of tabs the line begins with when a tag follows them (markup at that
    /// depth); nil for a line of a text or data running over several lines.
    var markupDepth: Int? {
        var at = 0
        while at < bytes.count, bytes[at] == 0x09 { at += 1 }
        return at < bytes.count && bytes[at] == UInt8(ascii: "<") ? at : nil
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

/// What each line of a property list is, in the layout survey writes, as the file streams
/// past: a tag (at its depth), a line of a text running over lines (a string's or a key's:
/// its tabs are the text's), a line of a data's Base64 (its tabs are layout), or anything
/// else, which makes the reader give the file up (read whole) rather than guess: a comment or
/// CDATA (`<!`), a tag line that does not end its tag, text outside a tag.
struct PropertyListLayout {
    enum Kind: Equatable {
        case markup(depth: Int)
        case text
        case data
        case unknown
    }

    private enum Open { case string, key, data }
    private var open: Open?

    /// Inside a text or data running over lines.
    var isOpen: Bool { open != nil }

    /// The kind of `line`, the next of the file; `prologue` allows the declaration and doctype.
    mutating func kind(of line: PropertyListLine, prologue: Bool = false) -> Kind {
        switch open {
        case .string?:
            if line.contains("</string>") { open = nil }
            return .text
        case .key?:
            if line.contains("</key>") { open = nil }
            return .text
        case .data?:
            guard let depth = line.markupDepth else { return line.isBase64 ? .data : .unknown }
            guard line.isClosed, line.startsWith(tabs: depth, "</data>") else { return .unknown }
            open = nil
            return .markup(depth: depth)
        case nil:
            break
        }
        guard let depth = line.markupDepth, prologue || !line.hasDeclaration else { return .unknown }
        if !line.isClosed || line.endsWith("<string>") || line.endsWith("<key>") {
            if line.contains("<string>"), !line.contains("</string>") {
                open = .string
            } else if line.contains("<key>"), !line.contains("</key>") {
                open = .key
            } else {
                return .unknown
            }
        } else if line.endsWith("<data>") {
            open = .data
        }
        return .markup(depth: depth)
    }
}

extension PropertyListLine {
    /// Whether the line's last byte before its newline ends a tag.
    var isClosed: Bool { bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: ">") }

    /// Whether a `<` in the line begins a comment, CDATA or declaration (`<!`, `<?`).
    var hasDeclaration: Bool {
        guard let base = bytes.baseAddress else { return false }
        var at = 0
        while at < bytes.count, let found = memchr(base + at, Int32(UInt8(ascii: "<")), bytes.count - at) {
            let place = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if place + 1 < bytes.count, bytes[place + 1] == UInt8(ascii: "!") || bytes[place + 1] == UInt8(ascii: "?") { return true }
            at = place + 1
        }
        return false
    }

    /// Whether the line, its tabs and spaces aside, is Base64.
    var isBase64: Bool {
        bytes.dropLast().allSatisfy { byte in
            byte == 0x09 || byte == 0x20 || byte == 0x2B || byte == 0x2F || byte == 0x3D
                || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
    }

    /// Whether the line is `depth` tabs then `text`, and its newline.
    func startsWith(tabs depth: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - 1 == depth + count, let base = bytes.baseAddress else { return false }
        return memcmp(base + depth, text.utf8Start, count) == 0
    }

    /// Whether every byte of `text` is ASCII and no `&` (an id whose text is its bytes: a `String`
    /// compares by canonical equivalence, "é" spelled two ways equal, bytes do not).
    static func isPlainID(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        !text.isEmpty && text.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "&") && $0 >= 0x20 }
    }
}
