import FoundationEssentials

/// A record's stable identity, stored under `instanceID` as ODK and KoboToolbox do
/// (`uuid:` + a random RFC 4122 UUID). Two copies of `survey` (or a sync tool) changing one
/// document find "the same record" by it, so an edit lands on the right person even after
/// records were added, removed or changed elsewhere.
extension Record {
    public static let instanceIDKey = "instanceID"
    package static let instanceIDCode = PackedAnswers.code(for: instanceIDKey)

    public var instanceID: String? {
        if case .string(let id) = self[Self.instanceIDKey], !id.isEmpty { return id }
        return nil
    }

    /// Whether it has an id (`instanceID != nil`), without building its text: for checks
    /// over a whole document.
    public var hasInstanceID: Bool {
        let idCode = Self.instanceIDCode
        return packed.withUnsafeBufferPointer { buffer in
            var found = false
            PackedAnswers.forEachEntry(in: buffer) { entry in
                guard entry.code == idCode else { return true }
                found = entry.tag == PackedAnswers.idTag || (entry.tag == PackedAnswers.stringTag && !entry.valueBytes.isEmpty)
                return false
            }
            return found
        }
    }

    public static func newInstanceID() -> String {
        "uuid:" + UUID().uuidString.lowercased()
    }

    /// Every value but the id: what "the same answers" means when a record has no id yet
    /// on one side (the original app's files carry none).
    public var answers: [String: PropertyValue] {
        var copy = values
        copy.removeValue(forKey: Self.instanceIDKey)
        return copy
    }
}

extension SurveyDocument {
    /// Gives each record without an id a new random one; the rest of each record is
    /// untouched. Returns how many were given one. For records just created.
    @discardableResult
    public mutating func assignMissingInstanceIDs() -> Int {
        var assigned = 0
        for i in records.indices where !records[i].hasInstanceID {
            records[i][Record.instanceIDKey] = .string(Record.newInstanceID())
            assigned += 1
        }
        return assigned
    }

    /// Gives each record found without an id (the original app's files, other tools') one
    /// derived from its position and answers, so every program that opens the same file gives
    /// it the same id: two copies of survey, or `survey add` beside the app, then agree on
    /// which record is which before either has saved. Returns how many were given one.
    ///
    /// Large documents are split across the processor's cores: each record's id depends only
    /// on its own place and answers, and each core writes only its own records. At 100,000
    /// records this was half of opening the file.
    @discardableResult
    public mutating func identifyRecordsFoundWithoutIDs() -> Int {
        let count = records.count
        guard records.contains(where: { !$0.hasInstanceID }) else { return 0 }
        let parts = count < 20_000 ? 1 : max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        return records.updateConcurrently(parts: parts) { position, record in record.identify(at: position) }
    }
}

extension Record {
    /// Gives a record found without an id the one derived from its place in its document
    /// (`position`) and its answers; true when it had none.
    package mutating func identify(at position: Int) -> Bool {
        guard !hasInstanceID else { return false }
        let id = Record.derivedInstanceIDWords(position: position, of: self)
        PackedAnswers.set(Record.instanceIDKey, toID: id, in: &packed)
        return true
    }

    /// Whether `other` is this very survey: the same storage, so the same answers, without
    /// comparing them.
    public func isSameStorage(as other: Record) -> Bool {
        withUnsafeBytes(of: self) { a in withUnsafeBytes(of: other) { b in a.elementsEqual(b) } }
    }
}

extension Record {
    /// `uuid:` + a UUID (version 8, "custom", RFC 9562) from two FNV-1a hashes of the
    /// record's position and its answers, keys sorted and every value hashed by its bytes,
    /// so the same record always gives the same id, in any process, without building text
    /// for it (100,000 records open in tens of milliseconds, not a second).
    static func derivedInstanceID(position: Int, of record: Record) -> String {
        let (high, low) = derivedInstanceIDWords(position: position, of: record)
        return PackedAnswers.idText(high: high, low: low)
    }

    /// The id's 32 hex digits as two words, as `PackedAnswers` holds an id: a survey is
    /// given its id without the text being written and read back.
    package static func derivedInstanceIDWords(position: Int, of record: Record) -> (UInt64, UInt64) {
        var hasher = StableHasher()
        hasher.add(UInt64(bitPattern: Int64(position)))
        hasher.addAnswers(of: record)
        let high = (hasher.a & ~0xF000) | 0x8000                 // version 8
        let low = (hasher.b & ~(0xC << 60)) | (0x8 << 60)        // variant 10xx
        return (high, low)
    }
}

/// Two FNV-1a streams with different seeds over a canonical byte form of a value (a tag per
/// type, lengths before contents, dictionary keys sorted): the same value gives the same
/// hash in every process, unlike Swift's randomly seeded `Hasher`.
private struct StableHasher {
    var a: UInt64 = 0xcbf29ce484222325
    var b: UInt64 = 0x84222325cbf29ce4

    mutating func add(_ byte: UInt8) {
        a = (a ^ UInt64(byte)) &* 0x100000001b3
        b = (b ^ UInt64(byte ^ 0x5c)) &* 0x100000001b3
    }

    mutating func add(_ word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            add(UInt64(bytes.count))
            for byte in bytes { add(byte) }
        }
    }

    /// The record's values but its id, as `add(.dictionary(record.answers))` would hash them,
    /// without copying the dictionary or looking each key up again.
    mutating func addAnswers(of record: Record) {
        if addPlainAnswers(of: record) { return }
        var entries: [(key: String, value: PropertyValue)] = []
        entries.reserveCapacity(8)
        record.forEachValue { key, value in
            if key != Record.instanceIDKey { entries.append((key, value)) }
        }
        entries.sort { $0.key < $1.key }
        add(8 as UInt8)
        add(UInt64(entries.count))
        for (key, value) in entries {
            add(key)
            add(value)
        }
    }

    /// `addAnswers` straight from the packed bytes, for a survey of text and whole numbers
    /// under plain ASCII keys in sorted order (nearly every one): no text is built. False,
    /// with nothing added, for any other.
    private mutating func addPlainAnswers(of record: Record) -> Bool {
        record.packed.withUnsafeBufferPointer { buffer in
            guard PackedAnswers.hasPlainSortedEntries(buffer, isPlainKey: PackedAnswers.isASCII) else { return false }
            var count = 0
            PackedAnswers.forEachEntry(in: buffer) { entry in
                if entry.code != Record.instanceIDCode { count += 1 }
                return true
            }
            add(8 as UInt8)
            add(UInt64(count))
            PackedAnswers.forEachEntry(in: buffer) { entry in
                guard entry.code != Record.instanceIDCode else { return true }
                add(PackedAnswers.keySpelling(of: entry, in: buffer))
                switch entry.tag {
                case PackedAnswers.stringTag:
                    add(1 as UInt8)
                    add(UnsafeBufferPointer(rebasing: buffer[entry.valueBytes]))
                case PackedAnswers.integerTag:
                    add(2 as UInt8)
                    add(UInt64(bitPattern: Int64(PackedAnswers.integer(of: entry, in: buffer))))
                default:
                    add(1 as UInt8)
                    add(PackedAnswers.value(of: entry, in: buffer).textForHashing)
                }
                return true
            }
            return true
        }
    }

    /// Text as `add(_: String)` adds it: its length, then its bytes.
    mutating func add(_ text: UnsafeBufferPointer<UInt8>) {
        add(UInt64(text.count))
        for byte in text { add(byte) }
    }

    mutating func add(_ value: PropertyValue) {
        switch value {
        case .string(let s): add(1 as UInt8); add(s)
        case .integer(let n): add(2 as UInt8); add(UInt64(bitPattern: Int64(n)))
        case .real(let d): add(3 as UInt8); add(d.bitPattern)
        case .bool(let f): add(4 as UInt8); add(f ? 1 as UInt8 : 0)
        case .date(let d): add(5 as UInt8); add(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data): add(6 as UInt8); add(UInt64(data.count)); for byte in data { add(byte) }
        case .array(let items): add(7 as UInt8); add(UInt64(items.count)); for item in items { add(item) }
        case .dictionary(let entries):
            add(8 as UInt8)
            add(UInt64(entries.count))
            for key in entries.keys.sorted() {
                add(key)
                add(entries[key]!)
            }
        }
    }
}

private extension PropertyValue {
    /// The text of a `.string` (ids held compactly are read back as text).
    var textForHashing: String {
        if case .string(let text) = self { return text }
        return ""
    }
}
