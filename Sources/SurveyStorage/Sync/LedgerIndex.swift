#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each survey's entry is in a ledger file, found by its lines alone as the file streams
/// past, so a sync that needs a few surveys' entries parses those and not the other 99,900
/// (issue 28: reading a 100,000-survey ledger whole was half of a sync of 100 edits;
/// `PartialLedger`). Nothing of the file is kept but the header's bytes and each entry's id.
///
/// It reads only the layout `PropertyListWriter.appendLedgerEntry` writes: one tab per depth,
/// each tag on its own line. A line whose first byte after its tabs is `<` is markup at that
/// depth: text never holds a raw `<` (it is written `&lt;`), so a string running over several
/// lines never passes for a tag. A file laid out any other way (a hand-edited ledger, one
/// written by another tool), an id written with an entity (`&amp;`: its text is not its
/// bytes) or an id twice gives no index, and the file is read whole, as before.
struct LedgerIndex {
    struct Entry {
        /// The id's escaped text, in `ids`.
        var id: Range<Int>
        /// From the entry's `\t<dict>` line to its `\t</dict>` line, newline included, in the file.
        var whole: Range<Int>
        var conflict = false
    }

    /// The file's opening up to and including the header entry: with entries after it and
    /// `closing`, a ledger file of its own.
    private(set) var header: [UInt8] = []
    private(set) var entries: [Entry] = []
    /// Every id's text, one after another.
    private(set) var ids: [UInt8] = []
    /// Each entry's place, sorted by the hash of its id (`hashes` beside it): built by `finish`.
    private var order: [Int32] = []
    private var hashes: [UInt64] = []

    static let closing: StaticString = "</array>\n</plist>\n"

    /// Where the lines read so far have left it.
    private enum Place {
        case prologue, headerOpen, header, entries, entry, base, answers, after, end
    }
    private var place = Place.prologue
    /// What the next line must be, after a key that is followed by its value's line.
    private enum Awaiting { case nothing, baseOpen, answersOpen, deletedValue, idValue }
    private var awaiting = Awaiting.nothing
    private var current = Entry(id: 0..<0, whole: 0..<0)
    private var foundID = false
    /// Inside a string running over several lines: its lines are text, whatever they begin with.
    private var inString = false
    private(set) var failed = false

    init() {}

    /// Takes the file's next line, `line` its bytes with its newline, `offset` where it starts.
    /// Once a line does not fit, the index is `failed` for good.
    mutating func take(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard !failed else { return }
        if !step(Line(bytes: line), at: offset) { failed = true }
    }

    private mutating func step(_ line: Line, at offset: Int) -> Bool {
        if inString {
            if line.contains("</string>") { inString = false }
            if place == .header { header += line.bytes }
            return place == .header || place == .entry || place == .base || place == .answers
        }
        if line.opensString {
            // A string's first line: checked as the markup it is, then its text skipped.
            let fits: Bool
            switch place {
            case .header:
                header += line.bytes
                fits = (line.markupDepth ?? 0) >= 2
            case .entry, .base, .answers: fits = stepInEntry(line, at: offset)
            default: fits = false
            }
            inString = fits
            return fits
        }
        switch place {
        case .prologue:
            if line.is("<array>") { place = .headerOpen; header += line.bytes; return true }
            header += line.bytes
            return line.markupDepth.map { $0 == 0 } ?? false
        case .headerOpen:
            guard line.is("\t<dict>") else { return false }
            header += line.bytes
            place = .header
            return true
        case .header:
            header += line.bytes
            if line.is("\t</dict>") { place = .entries; return true }
            // Only deeper markup inside the header (a line of a string's text may begin anyhow).
            return (line.markupDepth ?? 2) >= 2
        case .entries:
            if line.is("</array>") { place = .after; return true }
            guard line.is("\t<dict>") else { return false }
            current = Entry(id: 0..<0, whole: offset..<offset)
            foundID = false
            place = .entry
            return true
        case .entry, .base, .answers:
            return stepInEntry(line, at: offset)
        case .after:
            guard line.is("</plist>") else { return false }
            place = .end
            return true
        case .end:
            return false
        }
    }

    private mutating func stepInEntry(_ line: Line, at offset: Int) -> Bool {
        switch awaiting {
        case .nothing: break
        case .baseOpen:
            awaiting = .nothing
            guard line.is("\t\t<dict>") else { return false }
            place = .base
            return true
        case .answersOpen:
            awaiting = .nothing
            if line.is("\t\t\t<dict/>") { return true }
            guard line.is("\t\t\t<dict>") else { return false }
            place = .answers
            return true
        case .deletedValue:
            awaiting = .nothing
            return line.is("\t\t\t<true/>") || line.is("\t\t\t<false/>")
        case .idValue:
            awaiting = .nothing
            guard !foundID, let text = line.between("\t\t<string>", "</string>"), !text.isEmpty,
                  !text.contains(UInt8(ascii: "&")) else { return false }
            let start = ids.count
            ids += text
            current.id = start..<ids.count
            foundID = true
            return true
        }
        guard let depth = line.markupDepth else { return true }       // a line of a string's text
        switch place {
        case .answers:
            if line.is("\t\t\t</dict>") { place = .base }
            return depth >= 3
        case .base:
            if line.is("\t\t</dict>") { place = .entry; return true }
            if line.is("\t\t\t<key>answers</key>") { awaiting = .answersOpen }
            if line.is("\t\t\t<key>deleted</key>") { awaiting = .deletedValue }
            return depth >= 3
        default:
            if line.is("\t</dict>") {
                guard foundID else { return false }
                current.whole = current.whole.lowerBound..<(offset + line.bytes.count)
                entries.append(current)
                place = .entries
                return true
            }
            guard depth >= 2 else { return false }
            if line.is("\t\t<key>base</key>") { awaiting = .baseOpen }
            if line.is("\t\t<key>conflict</key>") { current.conflict = true }
            if line.is("\t\t<key>id</key>") { awaiting = .idValue }
            return true
        }
    }

    /// The index once the whole file was taken; nil when it did not fit, or names a survey twice.
    mutating func finish() -> LedgerIndex? {
        guard !failed, place == .end, entries.count < Int(Int32.max) else { return nil }
        var hashes = entries.map { entry in ids.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[entry.id])) } }
        var order = (0..<Int32(entries.count)).map { $0 }
        order.sort { hashes[Int($0)] < hashes[Int($1)] }
        hashes = order.map { hashes[Int($0)] }
        // Two entries of one id: not a ledger survey wrote (each survey has one entry).
        var at = 0
        while at < order.count {
            var next = at + 1
            while next < order.count, hashes[next] == hashes[at] { next += 1 }
            for a in at..<next {
                for b in (a + 1)..<max(next, a + 1) where ids[entries[Int(order[a])].id] == ids[entries[Int(order[b])].id] {
                    return nil
                }
            }
            at = next
        }
        self.order = order
        self.hashes = hashes
        return self
    }

    /// The place in `entries` of survey `id`'s entry, nil when the file has none.
    func find(_ id: String) -> Int? {
        var id = id
        return id.withUTF8 { text -> Int? in
            let hash = Self.hash(text)
            var low = 0, high = hashes.count
            while low < high {
                let middle = (low + high) / 2
                if hashes[middle] < hash { low = middle + 1 } else { high = middle }
            }
            while low < hashes.count, hashes[low] == hash {
                let place = Int(order[low])
                if ids[entries[place].id].elementsEqual(text) { return place }
                low += 1
            }
            return nil
        }
    }

    /// FNV-1a, 64 bits: a table key, always checked against the bytes.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// One line of the file, its newline included.
    struct Line {
        let bytes: UnsafeBufferPointer<UInt8>

        /// The number of tabs the line begins with when a tag follows them (markup at that
        /// depth); nil for a line of a string's text running over several lines.
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
}

extension LedgerIndex {
    /// The index of a file's bytes held whole (tests; the sync streams the file instead).
    init?(bytes: [UInt8]) {
        var index = LedgerIndex()
        bytes.withUnsafeBufferPointer { index.takeLines(of: $0, at: 0) }
        guard let done = index.finish() else { return nil }
        self = done
    }

    /// Takes every whole line of `buffer` (which starts at `offset` in the file); returns how
    /// many bytes that was (what is left is the start of a line the next buffer ends).
    @discardableResult
    mutating func takeLines(of buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var at = 0
        while at < buffer.count, !failed, let found = memchr(base + at, 0x0A, buffer.count - at) {
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            take(UnsafeBufferPointer(rebasing: buffer[at..<end]), at: offset + at)
            at = end
        }
        return at
    }
}
