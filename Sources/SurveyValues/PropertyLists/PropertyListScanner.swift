import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads the XML property lists survey and plistlib write (an array of dictionaries) straight
/// into records, byte by byte, without building Foundation objects: 100,000 records load in a
/// fraction of the time and memory `PropertyListSerialization` takes on Linux.
///
/// It only accepts what it recognises exactly and returns nil for anything else (comments,
/// CDATA, processing instructions, attributes, a BOM, raw carriage returns, an internal DTD,
/// binary plists, duplicate keys, deep nesting, unusual number or date spellings, a root
/// that is not an array of dictionaries). The caller then reads the file with Foundation,
/// so every answer, and every error message, is still Foundation's.
package struct PropertyListScanner {
    /// Nesting deeper than this (records are at depth 2) goes to Foundation, which also
    /// decides whether it is too deep.
    static let maximumDepth = 64

    /// Where more bytes come from when reading a file in windows: fills the buffer it is given
    /// and returns the count, 0 at the end (or after a failure, which the reader keeps).
    package typealias Source = (UnsafeMutableRawBufferPointer) -> Int

    private var bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// When reading a file: the window `bytes` looks into, and where to fill it from.
    private var window: UnsafeMutableRawBufferPointer?
    private let source: Source?
    private let sizeHint: Int
    /// Decoded text of the string being read when it holds entity references.
    private var scratch: [UInt8] = []
    /// The record being packed, and where each of its keys is in it.
    private var packing: [UInt8] = []
    private var keyMarks: [Range<Int>] = []
    /// Entries of the dictionaries being read, one stack shared by every depth.
    private var entries: [(String, PropertyValue)] = []

    /// Bytes of the file already dropped from the front of the window.
    private var consumed = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, source: Source?, sizeHint: Int) {
        self.bytes = bytes
        self.source = source
        self.sizeHint = sizeHint
    }

    /// How far into the file the records read so far end, in bytes.
    package var position: Int { consumed + index }

    /// The records of `data`, or nil when the file is outside the subset read here.
    package static func records(in data: Data) -> [Record]? {
        data.withUnsafeBytes { raw in
            var scanner = PropertyListScanner(raw.bindMemory(to: UInt8.self), source: nil, sizeHint: raw.count)
            return scanner.document()
        }
    }

    /// The value of a whole XML property list in the subset read here (a session file, a
    /// draft, a sync ledger, a document of another layout), or nil: then `PropertyListReader`
    /// asks Foundation's decoder, which took about 2 ms for a 500-byte session file at every
    /// start (the runtime instantiating its generic `Codable` machinery) and read a sync
    /// ledger at 40 MB/s.
    package static func value(in data: Data) -> PropertyValue? {
        data.withUnsafeBytes { raw in
            var scanner = PropertyListScanner(raw.bindMemory(to: UInt8.self), source: nil, sizeHint: raw.count)
            guard scanner.header() else { return nil }
            scanner.skipBlanks()
            guard let value = scanner.value(depth: 1), scanner.end() else { return nil }
            return value
        }
    }

    /// The records of a file read through `source` a window at a time, so the file is never
    /// whole in memory (a million records are 256 MB of XML). `sizeHint`: the file's size.
    package static func records(sizeHint: Int, window: Int = 1 << 20, from source: @escaping Source) -> [Record]? {
        var scanner = reading(sizeHint: sizeHint, window: window, from: source)
        defer { scanner.releaseWindow() }
        return scanner.document()
    }

    /// A scanner over a file read through `source` a window at a time, to be read a few
    /// records at a time (`begin`, `records(upTo:)`, `end`); `releaseWindow()` when done.
    package static func reading(sizeHint: Int, window: Int = 1 << 20, startingAt offset: Int = 0,
                        from source: @escaping Source) -> PropertyListScanner {
        var scanner = PropertyListScanner(UnsafeBufferPointer(start: nil, count: 0), source: source, sizeHint: sizeHint)
        scanner.window = UnsafeMutableRawBufferPointer.allocate(byteCount: window, alignment: 16)
        scanner.consumed = offset
        return scanner
    }

    package mutating func releaseWindow() {
        window?.deallocate()
        window = nil
        bytes = UnsafeBufferPointer(start: nil, count: 0)
    }

    // MARK: - Document structure

    /// Each step either reads a whole piece (the prologue, one record, the end) or fails;
    /// a failure with more of the file still to read is retried with more of it in the window.
    private mutating func document() -> [Record]? {
        guard begin(), let (records, finished) = records(upTo: Int.max, reserving: min(sizeHint / 200, 4_000_000)),
              finished, end() else { return nil }
        return records
    }

    /// The header up to the records' `<array>`; false when the file is outside the subset.
    package mutating func begin() -> Bool {
        step({ $0.prologue() }) == true
    }

    /// Up to `limit` more records, and whether the `</array>` that ends them was read (then
    /// `end()` reads the rest). Nil when the file is outside the subset read here.
    package mutating func records(upTo limit: Int, reserving capacity: Int? = nil) -> (records: [Record], finished: Bool)? {
        var records: [Record] = []
        records.reserveCapacity(capacity ?? min(limit, 8_192))
        while records.count < limit {
            guard let next = step({ $0.nextRecord() }) else { return nil }
            guard let record = next else { return (records, true) }
            records.append(record)
        }
        return (records, false)
    }

    /// Up to `limit` more records, stopping before one that starts at or after the byte
    /// `boundary` of the file (`position` then says where it starts).
    package mutating func records(upTo limit: Int, before boundary: Int) -> (records: [Record], finished: Bool)? {
        var records: [Record] = []
        records.reserveCapacity(min(limit, 8_192))
        while records.count < limit {
            guard step({ $0.nextStart() }) != nil else { return nil }
            if consumed + index >= boundary { return (records, false) }
            guard let record = step({ $0.nextRecord() }) else { return nil }
            guard let record else { return (records, true) }
            records.append(record)
        }
        return (records, false)
    }

    /// Steps over blanks up to the next record (or the end of the records); nil when that
    /// is not in the window yet.
    private mutating func nextStart() -> Bool? {
        skipBlanks()
        return index < bytes.count ? true : nil
    }

    /// After the records: whatever follows `</array>` is small: read it all, then it must be
    /// `</plist>` and nothing more.
    package mutating func end() -> Bool {
        while refill(keepingFrom: index) {}
        skipBlanks()
        guard skip("</plist>") else { return false }
        skipBlanks()
        return index == bytes.count
    }

    private mutating func step<T>(_ body: (inout PropertyListScanner) -> T?) -> T? {
        while true {
            let mark = index
            if let result = body(&self) { return result }
            index = mark
            guard refill(keepingFrom: mark) else { return nil }
        }
    }

    /// The header up to the records' `<array>`; true, or false for an empty `<array/>`.
    private mutating func prologue() -> Bool? {
        guard header() else { return nil }
        skipBlanks()
        if skip("<array/>") { emptyArray = true; return true }
        return skip("<array>") ? true : nil
    }

    private var emptyArray = false

    /// The XML declaration and doctype survey, Apple's tools and plistlib write, then `<plist>`.
    private mutating func header() -> Bool {
        skipBlanks()
        if skip("<?xml version=\"1.0\" encoding=\"UTF-8\"?>") { skipBlanks() }
        if skip("<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">") {
            skipBlanks()
        }
        return skip("<plist version=\"1.0\">") || skip("<plist>")
    }

    /// One record, or `.some(nil)` at the `</array>` that ends them.
    private mutating func nextRecord() -> Record?? {
        if emptyArray { return .some(nil) }
        skipBlanks()
        if skip("</array>") { return .some(nil) }
        if skip("<dict/>") { return Record() }
        guard skip("<dict>") else { return nil }
        let start = index
        if let packed = packedBody() { return Record(packed: packed) }
        index = start
        guard let values = dictionaryBody(depth: 2) else { return nil }
        return Record(values)
    }

    /// After a record's `<dict>`: its keys and values up to `</dict>` straight into packed
    /// bytes (`PackedAnswers`), with no string or dictionary built for text and whole numbers.
    /// Nil when a key is not plain ASCII (the record is then read as a dictionary, whose
    /// keys compare as `String`s), or when the bytes are wrong or cut short.
    private mutating func packedBody() -> [UInt8]? {
        packing.removeAll(keepingCapacity: true)
        keyMarks.removeAll(keepingCapacity: true)
        // Known keys seen, one bit per key code: a duplicate of one is found without
        // comparing bytes (unknown keys are compared with the earlier unknown ones).
        var knownSeen: UInt64 = 0
        while true {
            skipBlanks()
            if skip("</dict>") { break }
            guard let key = plainKey() else { return nil }
            let mark = packing.count
            let code = PackedAnswers.code(forKeyBytes: key)
            // Two equal keys: which one Foundation keeps is its business.
            if code != 0 {
                let bit: UInt64 = 1 << UInt64(code & 63)
                guard knownSeen & bit == 0 else { return nil }
                knownSeen |= bit
                packing.append(code)
            } else {
                packing.append(0)
                PackedAnswers.appendNumber(UInt64(key.count), to: &packing)
                packing.append(contentsOf: key)
                let length = packing.count - mark
                let duplicate = packing.withUnsafeBufferPointer { packed in
                    keyMarks.contains { earlier in
                        earlier.count == length && packed[earlier.lowerBound] == 0
                            && memcmp(packed.baseAddress! + earlier.lowerBound, packed.baseAddress! + mark, length) == 0
                    }
                }
                guard !duplicate else { return nil }
            }
            keyMarks.append(mark..<packing.count)
            // Text, whole numbers, flags, and rosters and nested dictionaries (a sync ledger's
            // bases) holding only those under plain keys in order, packed straight from the
            // text; anything else is read as the dictionary reader reads it, then packed.
            skipBlanks()
            let valueStart = index
            var buffer: [UInt8] = []
            swap(&buffer, &packing)
            let valueMark = buffer.count
            let packed = packedValue(depth: 3, into: &buffer)
            if !packed { buffer.removeSubrange(valueMark...) }
            swap(&buffer, &packing)
            if !packed {
                index = valueStart
                guard let value = value(depth: 3) else { return nil }
                PackedAnswers.appendValue(value, to: &packing)
            }
        }
        // A survey without an id is given one next (`Record.identify`): room for it now.
        let hasID = keyMarks.contains { packing[$0.lowerBound] == Record.instanceIDCode }
        return PackedAnswers.exactCopy(packing, room: hasID ? 0 : PackedAnswers.idRoom)
    }

    /// A value inside a survey packed as `PackedAnswers.appendValue` packs what
    /// `value(depth:)` reads, without building it: the same bytes, or false (with `index`
    /// anywhere, for the caller to read the value again the slow way) for anything but
    /// text, whole numbers, flags, lists of them and dictionaries whose keys are plain and
    /// in order (every ledger and roster survey writes). A ledger's bases went through
    /// dictionaries: a third of reading a 100,000-survey ledger.
    private mutating func packedValue(depth: Int, into out: inout [UInt8]) -> Bool {
        guard depth <= Self.maximumDepth else { return false }
        skipBlanks()
        if skip("<string>") {
            let textStart = index
            if plainText(), skip("</string>") {
                PackedAnswers.appendText(UnsafeBufferPointer(rebasing: bytes[textStart..<(index - 9)]), to: &out)
            } else {
                index = textStart
                guard var text = text(closing: "</string>") else { return false }
                text.withUTF8 { PackedAnswers.appendText($0, to: &out) }
            }
        } else if skip("<string/>") {
            out.append(PackedAnswers.stringTag)
            out.append(0)
        } else if skip("<integer>") {
            guard let number = integer() else { return false }
            PackedAnswers.appendValue(.integer(number), to: &out)
        } else if skip("<true/>") {
            out.append(PackedAnswers.trueTag)
        } else if skip("<false/>") {
            out.append(PackedAnswers.falseTag)
        } else if skip("<dict/>") {
            out.append(PackedAnswers.dictionaryTag)
            out.append(0)
        } else if skip("<array/>") {
            out.append(PackedAnswers.arrayTag)
            out.append(0)
        } else if skip("<dict>") {
            var body: [UInt8] = []
            var count: UInt64 = 0
            var previous: UnsafeBufferPointer<UInt8>?
            while true {
                skipBlanks()
                if skip("</dict>") { break }
                guard let key = plainKey() else { return false }
                // Sorted and without duplicates, as packing a dictionary leaves them.
                if let previous, !previous.lexicographicallyPrecedes(key) { return false }
                previous = key
                let code = PackedAnswers.code(forKeyBytes: key)
                body.append(code)
                if code == 0 {
                    PackedAnswers.appendNumber(UInt64(key.count), to: &body)
                    body.append(contentsOf: key)
                }
                guard packedValue(depth: depth + 1, into: &body) else { return false }
                count += 1
            }
            out.append(PackedAnswers.dictionaryTag)
            PackedAnswers.appendNumber(count, to: &out)
            out.append(contentsOf: body)
        } else if skip("<array>") {
            var body: [UInt8] = []
            var count: UInt64 = 0
            while true {
                skipBlanks()
                if skip("</array>") { break }
                guard packedValue(depth: depth + 1, into: &body) else { return false }
                count += 1
            }
            out.append(PackedAnswers.arrayTag)
            PackedAnswers.appendNumber(count, to: &out)
            out.append(contentsOf: body)
        } else {
            return false
        }
        return true
    }

    /// `<key>`, plain text (`plainText`) and `</key>`: the key's bytes; nil for any other key.
    private mutating func plainKey() -> UnsafeBufferPointer<UInt8>? {
        guard skip("<key>") else { return nil }
        let start = index
        guard plainText(), skip("</key>") else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[start..<(index - 6)])
    }

    /// Steps over text of printable ASCII but `&` (and tabs and line feeds), up to a `<`;
    /// false when anything else comes first.
    private mutating func plainText() -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let end = bytes.count
        var i = index
        // Eight bytes at a time while each is printable ASCII other than `<` and `&` (most of
        // any text): one word's test instead of four per byte.
        while i + 8 <= end {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            guard Self.isPlainASCII(word) else { break }
            i += 8
        }
        defer { index = i }
        while i < end {
            let byte = base[i]
            if byte == UInt8(ascii: "<") { return true }
            guard (byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&")) || byte == 0x09 || byte == 0x0A else { return false }
            i += 1
        }
        return false
    }

    /// Whether all eight bytes of `word` are in 0x20...0x7E and none is `<` or `&` (the
    /// classic "has a byte less than n" tests, Hacker's Delight 6-1).
    @inline(__always)
    private static func isPlainASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let below20 = (word &- ones &* 0x20) & ~word & highs        // a byte < 0x20
        let above7E = (word &+ ones &* (0x80 - 0x7F)) | word        // a byte >= 0x7F sets its high bit
        return below20 == 0 && above7E & highs == 0
            && !hasZero(word ^ (ones &* 0x3C)) && !hasZero(word ^ (ones &* 0x26))
    }

    /// Keeps the bytes from `start` on, moved to the front of the window (grown when they
    /// fill it), and reads more after them. False when there is nothing more to read.
    private mutating func refill(keepingFrom start: Int) -> Bool {
        guard let source, var buffer = window else { return false }
        let kept = bytes.count - start
        if kept > 0, start > 0, let base = bytes.baseAddress {
            memmove(buffer.baseAddress!, base + start, kept)
        }
        if kept == buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            grown.copyMemory(from: UnsafeRawBufferPointer(buffer))
            buffer.deallocate()
            buffer = grown
            window = grown
        }
        let added = source(UnsafeMutableRawBufferPointer(rebasing: buffer[kept...]))
        let typed = buffer.bindMemory(to: UInt8.self)
        bytes = UnsafeBufferPointer(start: typed.baseAddress, count: kept + max(added, 0))
        index -= start
        consumed += start
        return added > 0
    }

    /// After `<dict>`: keys and values up to `</dict>`.
    private mutating func dictionaryBody(depth: Int) -> [String: PropertyValue]? {
        let start = entries.count
        defer { entries.removeSubrange(start...) }
        while true {
            skipBlanks()
            if skip("</dict>") { break }
            guard skip("<key>"), let key = text(closing: "</key>") else { return nil }
            skipBlanks()
            guard let value = value(depth: depth + 1) else { return nil }
            entries.append((key, value))
        }
        var result = [String: PropertyValue](minimumCapacity: entries.count - start)
        for (key, value) in entries[start...] {
            // Which of two equal keys Foundation keeps is its business.
            guard result.updateValue(value, forKey: key) == nil else { return nil }
        }
        return result
    }

    private mutating func value(depth: Int) -> PropertyValue? {
        guard depth <= Self.maximumDepth, peek(0) == UInt8(ascii: "<") else { return nil }
        switch peek(1) {
        case UInt8(ascii: "s"):
            if skip("<string>") { return text(closing: "</string>").map(PropertyValue.string) }
            if skip("<string/>") { return .string("") }
        case UInt8(ascii: "i"):
            if skip("<integer>") { return integer().map(PropertyValue.integer) }
        case UInt8(ascii: "r"):
            if skip("<real>") { return real().map(PropertyValue.real) }
        case UInt8(ascii: "t"):
            if skip("<true/>") { return .bool(true) }
        case UInt8(ascii: "f"):
            if skip("<false/>") { return .bool(false) }
        case UInt8(ascii: "d"):
            if skip("<dict>") { return dictionaryBody(depth: depth).map(PropertyValue.dictionary) }
            if skip("<dict/>") { return .dictionary([:]) }
            if skip("<date>") { return date().map(PropertyValue.date) }
            if skip("<data>") { return base64().map(PropertyValue.data) }
        case UInt8(ascii: "a"):
            if skip("<array/>") { return .array([]) }
            if skip("<array>") { return arrayBody(depth: depth) }
        default:
            break
        }
        return nil
    }

    private mutating func arrayBody(depth: Int) -> PropertyValue? {
        var items: [PropertyValue] = []
        while true {
            skipBlanks()
            if skip("</array>") { return .array(items) }
            guard let item = value(depth: depth + 1) else { return nil }
            items.append(item)
        }
    }

    // MARK: - Text

    /// Character data up to `closing`, with the five XML entities and character references
    /// decoded. Nil for anything Foundation might read differently: a raw carriage return
    /// (XML turns it into a line feed), characters XML forbids, malformed UTF-8, unknown
    /// entities, or markup other than the closing tag.
    private mutating func text(closing: StaticString) -> String? {
        let start = index
        var plain = true     // no entity reference
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") {
                plain = false
            } else if byte >= 0x80 {
                ascii = false
            } else if byte < 0x20, byte != 0x09, byte != 0x0A {
                return nil
            }
            index += 1
        }
        let end = index
        guard skip(closing) else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if plain {
            return ascii ? String(decoding: raw, as: UTF8.self) : Self.validatedString(raw)
        }
        scratch.removeAll(keepingCapacity: true)
        var i = start
        while i < end {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "&") else {
                scratch.append(byte)
                i += 1
                continue
            }
            guard let semicolon = (i + 1..<min(end, i + 12)).first(where: { bytes[$0] == UInt8(ascii: ";") }),
                  let scalar = Self.entity(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<semicolon]))
            else { return nil }
            scratch.append(contentsOf: String(scalar).utf8)
            i = semicolon + 1
        }
        return scratch.withUnsafeBufferPointer { decoded in
            Self.validatedString(decoded)
        }
    }

    /// UTF-8 that is well formed and holds no U+FFFE or U+FFFF (which XML forbids). Nil also
    /// for a leading U+FEFF: Foundation drops it from the start of every string.
    private static func validatedString(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) { return nil }
        if raw.count >= 3 {
            for i in 0..<(raw.count - 2) where raw[i] == 0xEF && raw[i + 1] == 0xBF && raw[i + 2] >= 0xBE {
                return nil
            }
        }
        return String(validating: raw, as: UTF8.self)
    }

    /// The text between `&` and `;`: a named entity or a character reference to a character
    /// XML allows.
    private static func entity(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case let reference where reference.hasPrefix("#"):
            var digits = reference.dropFirst()
            var radix = 10
            if digits.first == "x" {
                digits = digits.dropFirst()
                radix = 16
            }
            guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit),
                  let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value) else { return nil }
            switch value {
            case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return scalar
            default: return nil
            }
        default:
            return nil
        }
    }

    // MARK: - Numbers, dates, data

    /// `-?[0-9]+` within Int's range, without leading zeros; anything else goes to Foundation
    /// (which also reads hex, signs and blanks, and refuses or rejects larger values).
    private mutating func integer() -> Int? {
        let negative = skip("-")
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        let count = index - start
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0"), skip("</integer>") else { return nil }
        if negative {
            guard magnitude != 0, magnitude <= UInt64(Int.max) + 1 else { return nil }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// `-?digits(.digits)?([eE][+-]?digits)?`, read with `strtod`; "nan", "inf" and other
    /// spellings go to Foundation.
    private mutating func real() -> Double? {
        let start = index
        _ = skip("-")
        guard digits() > 0 else { return nil }
        if skip("."), digits() == 0 { return nil }
        if peek(0) == UInt8(ascii: "e") || peek(0) == UInt8(ascii: "E") {
            index += 1
            if !skip("+") { _ = skip("-") }
            guard digits() > 0 else { return nil }
        }
        let end = index
        guard end - start < 64, skip("</real>") else { return nil }
        var text = [CChar](repeating: 0, count: end - start + 1)
        for i in start..<end { text[i - start] = CChar(bitPattern: bytes[i]) }
        let value = strtod(text, nil)
        return value.isFinite ? value : nil
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` for a real day of years 1 to 9999, in UTC, proleptic Gregorian
    /// (`PropertyListDate`); anything else goes to the reader behind, which says what is wrong.
    private mutating func date() -> Date? {
        guard index + 20 <= bytes.count,
              case .date(let date) = PropertyListDate.reading(UnsafeBufferPointer(rebasing: bytes[index..<(index + 20)]))
        else { return nil }
        index += 20
        guard skip("</date>") else { return nil }
        return date
    }

    /// Base64 with blanks between the groups, correctly padded.
    private mutating func base64() -> Data? {
        var compact: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                compact.append(byte)
            case 0x20, 0x09, 0x0A:
                break
            default:
                return nil
            }
            index += 1
        }
        guard skip("</data>"), compact.count % 4 == 0 else { return nil }
        if let firstPad = compact.firstIndex(of: UInt8(ascii: "=")), firstPad < compact.count - 2 { return nil }
        return Data(base64Encoded: Data(compact))
    }

    // MARK: - Bytes

    private func peek(_ offset: Int) -> UInt8 {
        index + offset < bytes.count ? bytes[index + offset] : 0
    }

    /// Steps over `literal` if the bytes at the cursor are exactly it. Most literals are tags
    /// (`<`, then a name), and most tries fail on the byte after `<`, checked first; the rest
    /// is one `memcmp`. (A byte loop here was an eighth of a document's load.)
    @inline(__always)
    private mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count, let base = bytes.baseAddress else { return false }
        let expected = literal.utf8Start
        if count == 1 {
            guard base[index] == expected[0] else { return false }
        } else {
            guard base[index + 1] == expected[1], base[index] == expected[0],
                  memcmp(base + index + 2, expected + 2, count - 2) == 0 else { return false }
        }
        index += count
        return true
    }

    /// Blanks between elements (space, tab, line feed); a raw carriage return is left for
    /// Foundation, which reads line ends its own way.
    private mutating func skipBlanks() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 {
            index += 1
        }
    }
}
