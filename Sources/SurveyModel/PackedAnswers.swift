import Foundation

/// A survey's answers as one run of bytes: what nearly every survey holds (text and whole
/// numbers under a handful of keys) in one allocation of about 130 bytes, where a
/// `[String: PropertyValue]` took about 590 with its strings. At 100,000 surveys that is the
/// difference between 15 MB and 59 MB; at a million, between 150 MB and 590 MB.
///
/// Entries are a key then a value, in the order they were added (a file's order, which
/// survey, plistlib and Apple's tools write sorted):
/// - key: one byte 1…n naming one of `knownKeys`, or 0, a length and the key's UTF-8;
/// - value: `stringTag`, a length and valid UTF-8, or `integerTag` and a zigzag number.
/// Lengths and numbers are LEB128. A key that is one of `knownKeys` is always written as
/// its byte, so two equal keys always have equal bytes. Anything else a property list can
/// hold (reals, dates, nested values…) keeps the record as a dictionary (`Record.Storage`).
struct PackedAnswers {
    static let stringTag: UInt8 = 1
    static let integerTag: UInt8 = 2

    /// The keys surveys hold most, each stored as one byte. Never reorder: only append.
    static let knownKeys: [String] = [
        "address", "age", "firstName", "instanceID", "lastName", "phone", "notes", "formID", "formVersion",
    ]
    private static let knownKeyBytes: [[UInt8]] = knownKeys.map { Array($0.utf8) }
    /// The known keys' UTF-8 in memory that is never freed, so it can be lent out as a
    /// buffer like a key spelled out in a survey's own bytes.
    nonisolated(unsafe) private static let knownKeySpellings: [UnsafeBufferPointer<UInt8>] = knownKeyBytes.map { bytes in
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
        return UnsafeBufferPointer(storage)
    }
    private static let knownCodes: [String: UInt8] = Dictionary(
        uniqueKeysWithValues: knownKeys.enumerated().map { ($0.element, UInt8($0.offset + 1)) })

    /// The byte naming `key`, or 0 when it is not one of `knownKeys`.
    static func code(for key: String) -> UInt8 { knownCodes[key] ?? 0 }

    /// The byte naming the key spelled by `bytes`, or 0.
    static func code(forKeyBytes bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        for (i, known) in knownKeyBytes.enumerated() where known.count == bytes.count {
            if known.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return UInt8(i + 1)
            }
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

    /// Appends a value; false (and nothing appended) for a type kept only in dictionaries.
    static func appendValue(_ value: PropertyValue, to bytes: inout [UInt8]) -> Bool {
        switch value {
        case .string(let text):
            bytes.append(stringTag)
            appendNumber(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        case .integer(let number):
            bytes.append(integerTag)
            appendNumber(UInt64(bitPattern: Int64((number << 1) ^ (number >> 63))), to: &bytes)
        default:
            return false
        }
        return true
    }

    static func appendNumber(_ number: UInt64, to bytes: inout [UInt8]) {
        var rest = number
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// `entries` packed, keys sorted as the writer sorts them; nil when a value is of a type
    /// kept only in dictionaries.
    static func pack(_ entries: [String: PropertyValue]) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 16)
        for key in entries.keys.sorted() {
            appendKey(key, to: &bytes)
            guard appendValue(entries[key]!, to: &bytes) else { return nil }
        }
        return exactCopy(bytes)
    }

    /// A copy holding no spare capacity: a survey's bytes live as long as the survey.
    static func exactCopy<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            count = buffer.initialize(from: bytes).1
        }
    }

    // MARK: - Reading

    /// One entry's place in the bytes.
    struct Entry {
        /// The key's byte, or 0 with its spelling at `keyBytes`.
        var code: UInt8
        var keyBytes: Range<Int>
        var tag: UInt8
        /// The string's UTF-8, or where the number's bytes are.
        var valueBytes: Range<Int>
        /// Where the whole entry is.
        var whole: Range<Int>
    }

    /// Calls `body` with each entry in order; stops when it returns false.
    static func forEachEntry(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Entry) -> Bool) {
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
            at += 1
            let valueStart: Int
            if tag == stringTag {
                let length = Int(readNumber(bytes, &at))
                valueStart = at
                at += length
            } else {
                valueStart = at
                _ = readNumber(bytes, &at)
            }
            if !body(Entry(code: code, keyBytes: keyBytes, tag: tag, valueBytes: valueStart..<at, whole: start..<at)) { return }
        }
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

    /// The number of an integer entry.
    static func integer(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var at = entry.valueBytes.lowerBound
        let zigzag = readNumber(bytes, &at)
        return Int(truncatingIfNeeded: Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
    }

    /// Characters XML cannot carry (`XMLCharacters.isForbidden`) in the keys and text.
    static func forbiddenCharacterCount(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var count = 0
            func scan(_ text: UnsafeBufferPointer<UInt8>) {
                for (i, byte) in text.enumerated() {
                    if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { count += 1 }
                    if byte == 0xEF, i + 2 < text.count, text[i + 1] == 0xBF, text[i + 2] >= 0xBE { count += 1 }
                }
            }
            forEachEntry(in: buffer) { entry in
                scan(keySpelling(of: entry, in: buffer))
                if entry.tag == stringTag { scan(UnsafeBufferPointer(rebasing: buffer[entry.valueBytes])) }
                return true
            }
            return count
        }
    }

    static func value(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> PropertyValue {
        if entry.tag == stringTag {
            return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[entry.valueBytes]), as: UTF8.self))
        }
        return .integer(integer(of: entry, in: bytes))
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
    static func value(forKey key: String, in bytes: [UInt8]) -> PropertyValue? {
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

    /// The bytes with `key` set to `value` (removed when nil): in its place when it was there,
    /// else before the first key that sorts after it, so sorted bytes stay sorted. Nil when
    /// `value` is of a type kept only in dictionaries.
    static func setting(_ key: String, to value: PropertyValue?, in bytes: [UInt8]) -> [UInt8]? {
        var encoded: [UInt8] = []
        if let value {
            appendKey(key, to: &encoded)
            guard appendValue(value, to: &encoded) else { return nil }
        }
        let code = code(for: key)
        return bytes.withUnsafeBufferPointer { buffer in
            var replace: Range<Int>?
            var insertAt = buffer.count
            forEachEntry(in: buffer) { entry in
                if Self.entry(entry, in: buffer, isKey: key, code: code) {
                    replace = entry.whole
                    return false
                }
                if insertAt == buffer.count, Self.key(of: entry, in: buffer) > key { insertAt = entry.whole.lowerBound }
                return true
            }
            let cut = replace ?? insertAt..<insertAt
            var result: [UInt8] = []
            result.reserveCapacity(buffer.count - cut.count + encoded.count)
            result.append(contentsOf: buffer[..<cut.lowerBound])
            result.append(contentsOf: encoded)
            result.append(contentsOf: buffer[cut.upperBound...])
            return result
        }
    }
}
