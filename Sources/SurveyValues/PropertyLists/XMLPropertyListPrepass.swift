import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What Foundation's XML property-list reader is handed, made here first in one pass over the
/// bytes that never recurses (`PropertyListReader.decoded`, the only call into Foundation's
/// reader):
///
/// - Nesting deeper than a bound is refused. Foundation's `XMLPlistScanner` recurses once per
///   `<array>` or `<dict>` with no bound of its own, so a file nested 10,000 arrays deep
///   overflowed the stack (SIGSEGV) in `list`, `docs`, `import`, `merge` and the app, before
///   any check of survey's could run. Every element is counted here, leaves too, so the count
///   is never below Foundation's depth.
/// - `<integer>`, `<real>` and `<date>` become strings marked with a tag survey reads itself:
///   the decoder answers `Int` for `<real>3</real>`, refuses no unsigned value, and reads
///   dates in the Julian calendar before 1582 (`PropertyListDate`).
///
/// Comments, processing instructions, CDATA sections and the doctype are stepped over as
/// Foundation steps over them, so a tag inside one is neither counted nor rewritten; a start
/// tag ends at the first `>` and is empty when a `/` comes just before it, as Foundation reads
/// it. A file with a UTF-16 or UTF-32 byte-order mark, which Foundation reads as UTF-8 after
/// converting it, is converted here (and handed over behind a UTF-8 mark, so its
/// `encoding="UTF-16"` is not acted on twice), so the bytes counted are the bytes it reads.
struct XMLPropertyListPrepass {
    struct Prepared {
        /// What to hand to Foundation.
        let data: Data
        /// What starts each marked string; nil when the data is not XML (Foundation reads it as
        /// an OpenStep property list, whose own parser is bounded) and was left as it was.
        let marker: String?
    }

    /// `data` ready for Foundation, or a failure that says why it cannot be.
    static func prepared(_ data: Data, maximumDepth: Int) throws -> Prepared {
        let (utf8, converted) = try utf8Bytes(of: data)
        guard isXML(utf8) else { return Prepared(data: data, marker: nil) }
        let marker = try self.marker(absentFrom: utf8)
        var pass = XMLPropertyListPrepass(bytes: utf8, marker: Array(marker.utf8), maximumDepth: maximumDepth)
        try pass.run()
        return Prepared(data: Data((converted ? [0xEF, 0xBB, 0xBF] : []) + pass.output), marker: marker)
    }

    private let bytes: [UInt8]
    private let marker: [UInt8]
    private let maximumDepth: Int
    private var output: [UInt8] = []

    private init(bytes: [UInt8], marker: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.marker = marker
        self.maximumDepth = maximumDepth
    }

    /// The elements whose text survey reads itself, and the letter that says which after the marker.
    private static let marked: [(name: [UInt8], letter: UInt8)] = [
        (Array("integer".utf8), UInt8(ascii: "i")), (Array("real".utf8), UInt8(ascii: "r")), (Array("date".utf8), UInt8(ascii: "d")),
    ]

    private mutating func run() throws {
        let n = bytes.count
        output.reserveCapacity(n + n / 8)
        try bytes.withUnsafeBufferPointer { try run(over: $0) }
    }

    private mutating func run(over bytes: UnsafeBufferPointer<UInt8>) throws {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return }
        var depth = 0
        var copied = 0
        /// The name of the element whose start tag was rewritten, until its end tag.
        var open: [UInt8]?
        var i = 0
        func has(_ literal: StaticString, at i: Int) -> Bool {
            let count = literal.utf8CodeUnitCount
            return i + count <= n && memcmp(base + i, literal.utf8Start, count) == 0
        }
        /// Just past the first `terminator` at or after `from`; the end of the bytes without one.
        func end(of terminator: StaticString, from: Int) -> Int {
            var at = from
            while at < n, let found = memchr(base + at, Int32(terminator.utf8Start[0]), n - at) {
                at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if has(terminator, at: at) { return at + terminator.utf8CodeUnitCount }
                at += 1
            }
            return n
        }
        while i < n, let found = memchr(base + i, Int32(UInt8(ascii: "<")), n - i) {
            i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let next: UInt8 = i + 1 < n ? base[i + 1] : 0
            if next == UInt8(ascii: "!") {
                if has("<!--", at: i) { i = end(of: "-->", from: i + 4) }
                else if has("<![CDATA[", at: i) { i = end(of: "]]>", from: i + 9) }
                else { i = end(of: ">", from: i + 2) }
                continue
            }
            if next == UInt8(ascii: "?") { i = end(of: "?>", from: i + 2); continue }
            if next == UInt8(ascii: "/") {
                depth = max(0, depth - 1)
                if let name = open, i + 2 + name.count <= n, memcmp(base + i + 2, name, name.count) == 0 {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<(i + 2)]))
                    output.append(contentsOf: "string".utf8)
                    copied = i + 2 + name.count
                }
                open = nil
                i += 2
                continue
            }
            // A start tag, to the first `>`.
            guard let closing = memchr(base + i + 1, Int32(UInt8(ascii: ">")), n - i - 1) else { break }
            let close = base.distance(to: closing.assumingMemoryBound(to: UInt8.self))
            open = nil
            if base[close - 1] != UInt8(ascii: "/") {
                depth += 1
                // The `<plist>` around the value and a leaf inside the deepest container are
                // counted here and not in `maximumDepth` (`AnyPropertyValue`'s bound).
                guard depth <= maximumDepth + 2 else {
                    throw PropertyListReader.Failure(description: "nesting deeper than \(maximumDepth) levels")
                }
                if let kind = Self.marked.first(where: { isStartTag($0.name, at: i, in: bytes) }) {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
                    output.append(contentsOf: "<string>".utf8)
                    output.append(contentsOf: marker)
                    output.append(kind.letter)
                    copied = close + 1
                    open = kind.name
                }
            }
            i = close + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[min(copied, n)...]))
    }

    /// `<NAME` followed by what ends a tag name for Foundation (`>`, `/` or a blank).
    private func isStartTag(_ name: [UInt8], at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let after = i + 1 + name.count
        guard after < bytes.count, bytes[i + 1] == name[0], memcmp(bytes.baseAddress! + i + 1, name, name.count) == 0 else { return false }
        let byte = bytes[after]
        return byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether Foundation reads the bytes as XML: the first byte that is not a blank is `<`.
    private static func isXML(_ bytes: [UInt8]) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return bytes[start...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// A pair of private-use characters the file does not hold: U+F8FF U+F8FE nearly always.
    private static func marker(absentFrom bytes: [UInt8]) throws -> String {
        for second in stride(from: 0xF8FE, through: 0xF800, by: -1) {
            let marker = "\u{F8FF}" + String(Character(Unicode.Scalar(UInt32(second))!))
            if !contains(bytes, Array(marker.utf8)) { return marker }
        }
        throw PropertyListReader.Failure(description: "a file that holds every marker this app reads numbers with")
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var i = 0
            while i + needle.count <= buffer.count, let found = memchr(base + i, Int32(first), buffer.count - i) {
                i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if i + needle.count <= buffer.count, memcmp(base + i, needle, needle.count) == 0 { return true }
                i += 1
            }
            return false
        }
    }

    /// The bytes as UTF-8, and whether they were converted (from UTF-16 or UTF-32 with a
    /// byte-order mark, told apart as Foundation's `detectEncoding` tells them apart).
    private static func utf8Bytes(of data: Data) throws -> (bytes: [UInt8], converted: Bool) {
        let bytes = [UInt8](data)
        let width: Int, bigEndian: Bool
        switch (bytes.count > 0 ? bytes[0] : nil, bytes.count > 1 ? bytes[1] : nil,
                bytes.count > 2 ? bytes[2] : nil, bytes.count > 3 ? bytes[3] : nil) {
        case (0, 0, 0xFE, 0xFF): (width, bigEndian) = (4, true)
        case (0xFE, 0xFF, 0, 0): (width, bigEndian) = (4, false)
        case (0xFE, 0xFF, _, _): (width, bigEndian) = (2, true)
        case (0xFF, 0xFE, _, _): (width, bigEndian) = (2, false)
        default: return (bytes, false)
        }
        let body = bytes.dropFirst(width)
        guard body.count % width == 0 else {
            throw PropertyListReader.Failure(description: "Cannot convert input to UTF-8")
        }
        var units: [UInt32] = []
        units.reserveCapacity(body.count / width)
        var i = body.startIndex
        while i < body.endIndex {
            var unit: UInt32 = 0
            for k in 0..<width {
                let byte = UInt32(body[i + (bigEndian ? k : width - 1 - k)])
                unit = unit << 8 | byte
            }
            units.append(unit)
            i += width
        }
        let text: String?
        if width == 2 {
            text = String(validating: units.map { UInt16($0) }, as: UTF16.self)
        } else {
            text = String(validating: units, as: UTF32.self)
        }
        guard let text else { throw PropertyListReader.Failure(description: "Cannot convert input to UTF-8") }
        return (Array(text.utf8), true)
    }
}
