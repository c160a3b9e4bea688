import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A survey's answers as one run of bytes: one allocation of about 130 bytes for a usual
/// survey, where a `[String: PropertyValue]` took about 590 with its strings. At 100,000
/// surveys that is the difference between 15 MB and 59 MB; at a million, 150 MB and 590 MB.
///
/// Entries are a key then a value, in a file's order as the scanner read them (survey,
/// plistlib and Apple's tools write keys sorted), or sorted when packed or changed here:
/// - key: one byte 1…n naming one of `knownKeys`, or 0, a length and the key's UTF-8;
/// - value: a tag, then for text a length and valid UTF-8, for a whole number a zigzag
///   number, for a real or a date the 8 bytes of its `Double`, for data a length and the
///   bytes, for an array a count and the values, for a dictionary a count and the entries
///   (keys sorted). `true` and `false` are their tag alone.
/// Lengths and numbers are LEB128. A key that is one of `knownKeys` is always written as
/// its byte, so two equal keys always have equal bytes.
package struct PackedAnswers {
    static let stringTag: UInt8 = 1
    static let integerTag: UInt8 = 2
    static let realTag: UInt8 = 3
    static let trueTag: UInt8 = 4
    static let falseTag: UInt8 = 5
    static let dateTag: UInt8 = 6
    static let dataTag: UInt8 = 7
    static let arrayTag: UInt8 = 8
    static let dictionaryTag: UInt8 = 9
    /// Text that is an id as survey makes them, `uuid:` and 32 lowercase hex digits in the
    /// 8-4-4-4-12 layout, held as its 16 bytes: 17 bytes where the text takes 42, a fifth of
    /// a usual survey. Only text of exactly that form, so it reads back byte for byte.
    static let idTag: UInt8 = 10

    /// The keys surveys hold most, each stored as its place here plus one. Packed bytes live
    /// only in memory, so the list may change from one version to the next.
    static let knownKeys: [String] = [
        "address", "age", "firstName", "instanceID", "lastName", "phone", "notes", "formID", "formVersion",
    ]
    /// The known keys' UTF-8 in memory that is never freed, so it can be lent out as a
    /// buffer like a key spelled out in a survey's own bytes.
    nonisolated(unsafe) private static let knownKeySpellings: [UnsafeBufferPointer<UInt8>] = knownKeys.map { key in
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: key.utf8.count)
        _ = storage.initialize(from: key.utf8)
        return UnsafeBufferPointer(storage)
    }
    private static let knownCodes: [String: UInt8] = Dictionary(
        uniqueKeysWithValues: knownKeys.enumerated().map { ($0.element, UInt8($0.offset + 1)) })

    /// The byte naming `key`, or 0 when it is not one of `knownKeys`.
    /// Compared byte by byte, not looked up by hash: it is asked on every read of a value by
    /// its key, a million times in a sync of 100,000 surveys. A key spelled with other than
    /// ASCII is looked up as a dictionary would (a canonically equal spelling is the same key).
    static func code(for key: String) -> UInt8 {
        var key = key
        let (found, ascii) = key.withUTF8 { bytes in
            bytes.isEmpty ? (UInt8(0), true) : (Self.code(forKeyBytes: bytes), !bytes.contains { $0 >= 0x80 })
        }
        return found != 0 || ascii ? found : knownCodes[key] ?? 0
    }

    /// The byte naming the key spelled by `bytes`, or 0.
    static func code(forKeyBytes bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        for (i, known) in knownKeySpellings.enumerated()
        where known.count == bytes.count && memcmp(known.baseAddress!, bytes.baseAddress!, bytes.count) == 0 {
            return UInt8(i + 1)
        }
        return 0
    }

    static func knownKey(_ code: UInt8) -> String { knownKeys[Int(code) - 1] }

    // MARK: - Writing

    /// Appends a key (by its byte when it is a known one).
    static func appendKey(_ key: String, to bytes: inout [UInt8]) {
        let code = code(for: key)
        if code != 0 {
            bytes.append(code)
        } else {
            bytes.append(0)
            appendNumber(UInt64(key.utf8.count), to: &bytes)
            bytes.append(contentsOf: key.utf8)
        }
    }

    /// Appends a value of any type.
    static func appendValue(_ value: PropertyValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(var text):
            text.withUTF8 { appendText($0, to: &bytes) }
        case .integer(let number):
            bytes.append(integerTag)
            appendNumber(UInt64(bitPattern: Int64((number << 1) ^ (number >> 63))), to: &bytes)
        case .real(let number):
            bytes.append(realTag)
            appendWord(number.bitPattern, to: &bytes)
        case .bool(let flag):
            bytes.append(flag ? trueTag : falseTag)
        case .date(let date):
            bytes.append(dateTag)
            appendWord(date.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        case .data(let data):
            bytes.append(dataTag)
            appendNumber(UInt64(data.count), to: &bytes)
            bytes.append(contentsOf: data)
        case .array(let items):
            bytes.append(arrayTag)
            appendNumber(UInt64(items.count), to: &bytes)
            for item in items { appendValue(item, to: &bytes) }
        case .dictionary(let entries):
            bytes.append(dictionaryTag)
            appendNumber(UInt64(entries.count), to: &bytes)
            appendEntries(entries, to: &bytes)
        }
    }

    /// Appends text (valid UTF-8), an id compactly.
    static func appendText(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if utf8.count == 41, appendID(utf8, to: &bytes) { return }
        bytes.append(stringTag)
        appendNumber(UInt64(utf8.count), to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    /// Where the dashes of an id's text are.
    private static func isDash(_ offset: Int) -> Bool { offset == 13 || offset == 18 || offset == 23 || offset == 28 }

    /// `idTag` and the 16 bytes of `text`, when it has the id form; false (nothing appended)
    /// when it does not.
    private static func appendID(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        guard text[0] == UInt8(ascii: "u"), text[1] == UInt8(ascii: "u"), text[2] == UInt8(ascii: "i"),
              text[3] == UInt8(ascii: "d"), text[4] == UInt8(ascii: ":") else { return false }
        var packed: (UInt64, UInt64) = (0, 0)
        var digits = 0
        for offset in 5..<41 {
            let c = text[offset]
            if isDash(offset) {
                guard c == UInt8(ascii: "-") else { return false }
                continue
            }
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            default: return false
            }
            if digits < 16 { packed.0 = packed.0 << 4 | UInt64(nibble) } else { packed.1 = packed.1 << 4 | UInt64(nibble) }
            digits += 1
        }
        bytes.append(idTag)
        appendWord(packed.0, to: &bytes)
        appendWord(packed.1, to: &bytes)
        return true
    }

    /// The text of an id held as 16 bytes at `at`.
    static func idText(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> String {
        var at = at
        let high = readWord(bytes, &at), low = readWord(bytes, &at)
        return idText(high: high, low: low)
    }

    /// `uuid:` and the 32 hex digits of two words, in the 8-4-4-4-12 layout, written digit by
    /// digit into the string's own storage (`String(format:)` cost a second at 100,000).
    static func idText(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 41) { out in
            let prefix: StaticString = "uuid:"
            for k in 0..<5 { out[k] = prefix.utf8Start[k] }
            var digit = 0
            for offset in 5..<41 {
                if isDash(offset) {
                    out[offset] = UInt8(ascii: "-")
                    continue
                }
                let word = digit < 16 ? high : low
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - (digit % 16) * 4)) & 0xF
                out[offset] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                digit += 1
            }
            return 41
        }
    }

    private static func appendEntries(_ entries: [String: PropertyValue], to bytes: inout [UInt8]) {
        for key in entries.keys.sorted() {
            appendKey(key, to: &bytes)
            appendValue(entries[key]!, to: &bytes)
        }
    }

    private static func appendWord(_ word: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    static func appendNumber(_ number: UInt64, to bytes: inout [UInt8]) {
        var rest = number
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// `entries` packed, keys sorted as the writer sorts them.
    static func pack(_ entries: [String: PropertyValue]) -> [UInt8] {
        if entries.isEmpty { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 16)
        appendEntries(entries, to: &bytes)
        return exactCopy(bytes)
    }

    /// A copy holding no spare capacity: a survey's bytes live as long as the survey.
    static func exactCopy<C: Collection>(_ bytes: C, room: Int = 0) -> [UInt8] where C.Element == UInt8 {
        [UInt8](unsafeUninitializedCapacity: bytes.count + room) { buffer, count in
            count = buffer.initialize(from: bytes).1
        }
    }

    // MARK: - Reading

    /// One entry's place in the bytes.
    package struct Entry {
        /// The key's byte, or 0 with its spelling at `keyBytes`.
        package internal(set) var code: UInt8
        package internal(set) var keyBytes: Range<Int>
        package internal(set) var tag: UInt8
        /// The string's UTF-8; for other types, where the value is after its tag.
        package internal(set) var valueBytes: Range<Int>
        /// Where the whole entry is.
        package internal(set) var whole: Range<Int>
    }

    /// Calls `body` with each entry in order; stops when it returns false.
    package static func forEachEntry(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Entry) -> Bool) {
        var at = 0
        while at < bytes.count {
            let start = at
            let code = bytes[at]
            at += 1
            var keyBytes = at..<at
            if code == 0 {
                let length = Int(readNumber(bytes, &at))
                keyBytes = at..<(at + length)
                at += length
            }
            let tag = bytes[at]
            var valueStart = at + 1
            if tag == stringTag {
                at += 1
                let length = Int(readNumber(bytes, &at))
                valueStart = at
                at += length
            } else {
                skipValue(bytes, &at)
            }
            if !body(Entry(code: code, keyBytes: keyBytes, tag: tag, valueBytes: valueStart..<at, whole: start..<at)) { return }
        }
    }

    /// Steps over one value, its tag included.
    /// Every text and whole number inside an array or dictionary value (a roster's members,
    /// their own rosters), `valueBytes` starting after its tag; ids (`skipping`, an `idTag`)
    /// left out. Walked with a stack, so no nesting costs a frame of recursion.
    static func forEachNestedText(in bytes: UnsafeBufferPointer<UInt8>, tag: UInt8, from start: Int, skipping skippedCode: UInt8,
                                  _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard tag == arrayTag || tag == dictionaryTag else { return }
        var at = start
        var stack: [(remaining: UInt64, dictionary: Bool)] = [(readNumber(bytes, &at), tag == dictionaryTag)]
        while let top = stack.last {
            guard top.remaining > 0 else { stack.removeLast(); continue }
            stack[stack.count - 1].remaining -= 1
            var skipped = false
            if top.dictionary {
                let code = bytes[at]
                at += 1
                if code == 0 { at += Int(readNumber(bytes, &at)) }
                skipped = code != 0 && code == skippedCode
            }
            let valueTag = bytes[at]
            at += 1
            switch valueTag {
            case stringTag:
                let length = Int(readNumber(bytes, &at))
                if !skipped { body(UnsafeBufferPointer(rebasing: bytes[at..<(at + length)])) }
                at += length
            case integerTag:
                var digits = String(integer(zigzag: readNumber(bytes, &at)))
                if !skipped { digits.withUTF8(body) }
            case dataTag: at += Int(readNumber(bytes, &at))
            case realTag, dateTag: at += 8
            case idTag: at += 16
            case arrayTag: stack.append((readNumber(bytes, &at), false))
            case dictionaryTag: stack.append((readNumber(bytes, &at), true))
            default: break   // true, false
            }
        }
    }

    private static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int) {
        let tag = bytes[at]
        at += 1
        switch tag {
        case stringTag, dataTag: at += Int(readNumber(bytes, &at))
        case integerTag: _ = readNumber(bytes, &at)
        case realTag, dateTag: at += 8
        case idTag: at += 16
        case arrayTag: for _ in 0..<readNumber(bytes, &at) { skipValue(bytes, &at) }
        case dictionaryTag:
            for _ in 0..<readNumber(bytes, &at) {
                if bytes[at] == 0 {
                    at += 1
                    at += Int(readNumber(bytes, &at))
                } else {
                    at += 1
                }
                skipValue(bytes, &at)
            }
        default: break   // true, false
        }
    }

    /// Reads one value, its tag included.
    private static func readValue(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> PropertyValue {
        var keys = SpelledKeys()
        return readValue(bytes, &at, keys: &keys)
    }

    /// The same, the keys spelled out in its dictionaries made once each (`SpelledKeys`).
    private static func readValue(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int, keys: inout SpelledKeys) -> PropertyValue {
        let tag = bytes[at]
        at += 1
        switch tag {
        case stringTag, dataTag:
            let length = Int(readNumber(bytes, &at))
            let content = UnsafeBufferPointer(rebasing: bytes[at..<(at + length)])
            at += length
            return tag == stringTag ? .string(String(decoding: content, as: UTF8.self)) : .data(Data(content))
        case integerTag:
            return .integer(integer(zigzag: readNumber(bytes, &at)))
        case idTag:
            defer { at += 16 }
            return .string(idText(bytes, at: at))
        case realTag:
            return .real(Double(bitPattern: readWord(bytes, &at)))
        case dateTag:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: readWord(bytes, &at))))
        case trueTag:
            return .bool(true)
        case falseTag:
            return .bool(false)
        case arrayTag:
            let count = Int(readNumber(bytes, &at))
            var items: [PropertyValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(readValue(bytes, &at, keys: &keys)) }
            return .array(items)
        default:   // dictionaryTag
            let count = Int(readNumber(bytes, &at))
            var entries = [String: PropertyValue](minimumCapacity: count)
            for _ in 0..<count {
                let code = bytes[at]
                at += 1
                let key: String
                if code == 0 {
                    let length = Int(readNumber(bytes, &at))
                    key = keys.key(UnsafeBufferPointer(rebasing: bytes[at..<(at + length)]))
                    at += length
                } else {
                    key = knownKey(code)
                }
                entries[key] = readValue(bytes, &at, keys: &keys)
            }
            return .dictionary(entries)
        }
    }

    static func readWord(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<8 { word |= UInt64(bytes[at + i]) << UInt64(i * 8) }
        at += 8
        return word
    }

    private static func integer(zigzag: UInt64) -> Int {
        Int(truncatingIfNeeded: Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
    }

    static func readNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> UInt64 {
        var number: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[at]
            at += 1
            number |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return number }
            shift += 7
        }
    }

    static func key(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        entry.code != 0 ? knownKey(entry.code) : String(decoding: UnsafeBufferPointer(rebasing: bytes[entry.keyBytes]), as: UTF8.self)
    }

    /// The key's UTF-8, a known key's included.
    static func keySpelling(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        entry.code != 0 ? knownKeySpellings[Int(entry.code) - 1] : UnsafeBufferPointer(rebasing: bytes[entry.keyBytes])
    }

    /// Whether every entry is text, a whole number or an id, under keys in strictly
    /// ascending byte order that `isPlainKey` accepts, its text accepted by `isPlainText`: the
    /// surveys the writer, the id hasher and `==` take straight from the bytes (for keys in
    /// ASCII, byte order is the order `String` sorts them in).
    static func hasPlainSortedEntries(_ buffer: UnsafeBufferPointer<UInt8>,
                                      isPlainKey: (UnsafeBufferPointer<UInt8>) -> Bool,
                                      isPlainText: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in true }) -> Bool {
        var plain = true
        var previous: UnsafeBufferPointer<UInt8>?
        forEachEntry(in: buffer) { entry in
            let key = keySpelling(of: entry, in: buffer)
            guard entry.tag == integerTag || entry.tag == idTag
                    || (entry.tag == stringTag && isPlainText(UnsafeBufferPointer(rebasing: buffer[entry.valueBytes]))),
                  isPlainKey(key), previous.map({ precedes($0, key) }) ?? true else {
                plain = false
                return false
            }
            previous = key
            return true
        }
        return plain
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { !bytes.contains { $0 >= 0x80 } }

    /// Whether these answers have no other packing: keys in ASCII and sorted, values text in
    /// ASCII, whole numbers or ids (each of which packs one way only), or rosters of such
    /// answers (lists in order, dictionaries with their keys sorted, as `appendEntries`
    /// writes them). Two such runs of bytes hold equal answers only when they are equal;
    /// anything else (reals, where -0.0 equals 0.0; other text, which may be canonically
    /// equal; keys out of order) is compared as dictionaries. Rosters count: comparing a
    /// survey with two rosters of 20 as dictionaries cost two readings of it (2.5 ms), at
    /// every commit's refresh of the list.
    ///
    /// One pass over the bytes, each value checked as it is stepped over (walking the entries
    /// first stepped over each roster once more: two thirds of the check, which the list's
    /// refresh makes of the survey a commit changed and of the one before).
    package static func isCanonical(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var at = 0
            var previous: UnsafeBufferPointer<UInt8>?
            while at < buffer.count {
                guard let key = entryKey(buffer, &at), isASCII(key), previous.map({ precedes($0, key) }) ?? true,
                      isCanonicalValue(buffer, &at) else { return false }
                previous = key
            }
            return true
        }
    }

    /// The key of the entry at `at` (its spelling, a known key's included); steps over it.
    private static func entryKey(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> UnsafeBufferPointer<UInt8>? {
        let code = bytes[at]
        at += 1
        guard code == 0 else { return knownKeySpellings[Int(code) - 1] }
        let length = Int(readNumber(bytes, &at))
        defer { at += length }
        return UnsafeBufferPointer(rebasing: bytes[at..<(at + length)])
    }

    /// Whether the value at `at` (its tag) packs one way only, as `isCanonical` asks of a
    /// survey's entries; steps over it.
    private static func isCanonicalValue(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> Bool {
        let tag = bytes[at]
        at += 1
        switch tag {
        case stringTag:
            let length = Int(readNumber(bytes, &at))
            defer { at += length }
            return isASCII(UnsafeBufferPointer(rebasing: bytes[at..<(at + length)]))
        case integerTag:
            _ = readNumber(bytes, &at)
            return true
        case idTag:
            at += 16
            return true
        case arrayTag:
            for _ in 0..<readNumber(bytes, &at) { guard isCanonicalValue(bytes, &at) else { return false } }
            return true
        case dictionaryTag:
            var previous: UnsafeBufferPointer<UInt8>?
            for _ in 0..<readNumber(bytes, &at) {
                guard let key = entryKey(bytes, &at), isASCII(key), previous.map({ precedes($0, key) }) ?? true,
                      isCanonicalValue(bytes, &at) else { return false }
                previous = key
            }
            return true
        default:
            return false
        }
    }

    /// The number of an integer entry.
    static func integer(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var at = entry.valueBytes.lowerBound
        return integer(zigzag: readNumber(bytes, &at))
    }

    /// Characters XML cannot carry (`XMLCharacters.isForbidden`) in the keys and text.
    static func forbiddenCharacterCount(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var count = 0
            func scan(_ text: UnsafeBufferPointer<UInt8>) { count += XMLCharacters.forbiddenCount(in: text) }
            forEachEntry(in: buffer) { entry in
                scan(keySpelling(of: entry, in: buffer))
                switch entry.tag {
                case stringTag: scan(UnsafeBufferPointer(rebasing: buffer[entry.valueBytes]))
                case arrayTag, dictionaryTag: count += value(of: entry, in: buffer).forbiddenCharacterCount
                default: break
                }
                return true
            }
            return count
        }
    }

    package static func value(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> PropertyValue {
        if entry.tag == stringTag {
            return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[entry.valueBytes]), as: UTF8.self))
        }
        var at = entry.valueBytes.lowerBound - 1
        return readValue(bytes, &at)
    }

    /// Whether `entry` is under `key`, given `key`'s byte (`code`, 0 when not a known key).
    /// Keys are compared by their bytes, unless either is not ASCII: then as `String`s, which
    /// are equal when canonically equivalent, as dictionary keys are.
    static func entry(_ entry: Entry, in bytes: UnsafeBufferPointer<UInt8>, isKey key: String, code: UInt8) -> Bool {
        if code != 0 || entry.code != 0 { return entry.code == code }
        var key = key
        let spelling = UnsafeBufferPointer(rebasing: bytes[entry.keyBytes])
        return key.withUTF8 { wanted in
            if wanted.count == spelling.count,
               wanted.isEmpty || memcmp(wanted.baseAddress!, spelling.baseAddress!, wanted.count) == 0 {
                return true
            }
            guard wanted.contains(where: { $0 >= 0x80 }) || spelling.contains(where: { $0 >= 0x80 }) else { return false }
            return String(decoding: spelling, as: UTF8.self) == String(decoding: wanted, as: UTF8.self)
        }
    }

    /// The value under `key`, if any.
    package static func value(forKey key: String, in bytes: [UInt8]) -> PropertyValue? {
        let code = code(for: key)
        return bytes.withUnsafeBufferPointer { buffer in
            var found: PropertyValue?
            forEachEntry(in: buffer) { entry in
                guard Self.entry(entry, in: buffer, isKey: key, code: code) else { return true }
                found = value(of: entry, in: buffer)
                return false
            }
            return found
        }
    }

    /// The entries under each of `keys` (nil where absent), found in one walk over `bytes`:
    /// a reader that wants several keys of one entry, where a walk per key stepped over the
    /// same large values again (a sync ledger's entry: its base, then its id, owner, conflict
    /// and review, six walks over each base at 100,000 surveys).
    package static func entries(forKeys keys: [String], in bytes: UnsafeBufferPointer<UInt8>) -> [Entry?] {
        let codes = keys.map(code(for:))
        var found = [Entry?](repeating: nil, count: keys.count)
        var left = keys.count
        forEachEntry(in: bytes) { entry in
            for i in keys.indices where found[i] == nil && Self.entry(entry, in: bytes, isKey: keys[i], code: codes[i]) {
                found[i] = entry
                left -= 1
                break
            }
            return left > 0
        }
        return found
    }

    /// The entries of a dictionary `entry` holds, as packed bytes of their own (nil: not a dictionary).
    package static func dictionaryEntries(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard entry.tag == dictionaryTag else { return nil }
        var at = entry.valueBytes.lowerBound
        _ = readNumber(bytes, &at)
        return Array(bytes[at..<entry.valueBytes.upperBound])
    }

    /// The entries of the dictionary under `key`, as packed bytes of their own (a nested
    /// dictionary's entries, after their count, are packed as a survey's are); nil when `key`
    /// is absent or holds no dictionary.
    package static func dictionaryEntries(forKey key: String, in bytes: [UInt8]) -> [UInt8]? {
        let code = code(for: key)
        return bytes.withUnsafeBufferPointer { buffer in
            var found: [UInt8]?
            forEachEntry(in: buffer) { entry in
                guard Self.entry(entry, in: buffer, isKey: key, code: code) else { return true }
                guard entry.tag == dictionaryTag else { return false }
                var at = entry.valueBytes.lowerBound
                _ = readNumber(buffer, &at)
                found = Array(buffer[at..<entry.valueBytes.upperBound])
                return false
            }
            return found
        }
    }

    /// Every entry as a dictionary.
    static func dictionary(_ bytes: [UInt8]) -> [String: PropertyValue] {
        bytes.withUnsafeBufferPointer { buffer in
            var result: [String: PropertyValue] = [:]
            forEachEntry(in: buffer) { entry in
                result[key(of: entry, in: buffer)] = value(of: entry, in: buffer)
                return true
            }
            return result
        }
    }

    /// Sets `key` to the id of two words (`idText(high:low:)`), as `setting` with its text
    /// would, in place: a survey the scanner read without an id has room for one, so giving
    /// it one moves no survey (a new copy each left a hole the size of a survey behind).
    static func set(_ key: String, toID id: (UInt64, UInt64), in bytes: inout [UInt8]) {
        var value: [UInt8] = [idTag]
        value.reserveCapacity(17)
        appendWord(id.0, to: &value)
        appendWord(id.1, to: &value)
        let (cut, withKey) = replacement(for: key, value: value, in: bytes)
        bytes.replaceSubrange(cut, with: withKey)
    }

    /// Room for an id a survey read without one is about to be given: its key, tag and 16
    /// bytes.
    static let idRoom = 18

    /// `a` sorts strictly before `b`, byte by byte (as `String` sorts plain ASCII).
    static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order < 0 || (order == 0 && a.count < b.count)
    }

    /// The bytes with `key` set to `value` (removed when nil): in its place when it was there,
    /// else before the first key that sorts after it, so sorted bytes stay sorted.
    static func setting(_ key: String, to value: PropertyValue?, in bytes: [UInt8]) -> [UInt8] {
        let cut: Range<Int>, encoded: [UInt8]
        if let value {
            var valueBytes: [UInt8] = []
            appendValue(value, to: &valueBytes)
            (cut, encoded) = replacement(for: key, value: valueBytes, in: bytes)
        } else {
            (cut, encoded) = (place(of: key, in: bytes).whole, [])
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var result: [UInt8] = []
            result.reserveCapacity(buffer.count - cut.count + encoded.count)
            result.append(contentsOf: buffer[..<cut.lowerBound])
            result.append(contentsOf: encoded)
            result.append(contentsOf: buffer[cut.upperBound...])
            return result
        }
    }

    /// What to replace so that `key` holds `value` (its encoded bytes): the value alone when
    /// the key is there, so the key keeps the spelling it was found with (a canonically equal
    /// spelling finds it, as in a dictionary); else the key and value, inserted.
    /// The bytes with the items at `indexes` of the list under `key` packed anew from
    /// `items` (the list as it is now, as long as the one packed), the others' bytes kept:
    /// an edit in one member of a roster of 20 packs that member, not the roster. nil when
    /// `key` holds no list of that length.
    static func settingItems(_ indexes: Set<Int>, of key: String, to items: [PropertyValue], in bytes: [UInt8]) -> [UInt8]? {
        guard let valueStart = place(of: key, in: bytes).valueStart, bytes[valueStart] == arrayTag else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var at = valueStart + 1
            guard Int(readNumber(buffer, &at)) == items.count else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 64)
            result.append(contentsOf: buffer[0..<at])
            for (k, item) in items.enumerated() {
                let start = at
                skipValue(buffer, &at)
                if indexes.contains(k) {
                    appendValue(item, to: &result)
                } else {
                    result.append(contentsOf: buffer[start..<at])
                }
            }
            result.append(contentsOf: buffer[at...])
            return exactCopy(result)
        }
    }

    private static func replacement(for key: String, value: [UInt8], in bytes: [UInt8]) -> (Range<Int>, [UInt8]) {
        let found = place(of: key, in: bytes)
        if let valueStart = found.valueStart { return (valueStart..<found.whole.upperBound, value) }
        var entry: [UInt8] = []
        entry.reserveCapacity(key.utf8.count + value.count + 2)
        appendKey(key, to: &entry)
        entry.append(contentsOf: value)
        return (found.whole, entry)
    }

    /// Where the entry of `key` is (`whole`, and where its value starts), or where it goes
    /// (an empty `whole`, no value): before the first key that sorts after it, so sorted bytes
    /// stay sorted.
    private static func place(of key: String, in bytes: [UInt8]) -> (whole: Range<Int>, valueStart: Int?) {
        let code = code(for: key)
        var spelled = key
        return spelled.withUTF8 { wanted in
            // For keys in ASCII, byte order is `String`'s order: compared in place, where a
            // `String` made of each key before it was most of setting a pulled survey's id.
            let wantedIsASCII = !wanted.contains { $0 >= 0x80 }
            return bytes.withUnsafeBufferPointer { buffer in
                var found: (Range<Int>, Int?)?
                var insertAt = buffer.count
                forEachEntry(in: buffer) { entry in
                    if Self.entry(entry, in: buffer, isKey: key, code: code) {
                        found = (entry.whole, entry.code != 0 ? entry.whole.lowerBound + 1 : entry.keyBytes.upperBound)
                        return false
                    }
                    if insertAt == buffer.count {
                        let spelling = keySpelling(of: entry, in: buffer)
                        let after = wantedIsASCII && !spelling.contains { $0 >= 0x80 }
                            ? precedes(wanted, spelling) : Self.key(of: entry, in: buffer) > key
                        if after { insertAt = entry.whole.lowerBound }
                    }
                    return true
                }
                return found ?? (insertAt..<insertAt, nil)
            }
        }
    }
}
