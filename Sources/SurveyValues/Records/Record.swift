import FoundationEssentials

/// One survey answer sheet. It keeps every key exactly as found in the file (known,
/// unknown or holding an unexpected type) so that saving never loses what other tools or
/// older versions wrote; only fields the user edits change.
///
/// Held packed (`PackedAnswers`: one allocation per survey, 8 bytes in a list); `values`
/// shows it as a dictionary, built on demand, and `self[key]` reads or changes one value
/// without building it.
public struct Record: Equatable, Sendable {
    /// The answers, packed; never shared with anything that changes them.
    package internal(set) var packed: [UInt8]

    public init(_ values: [String: PropertyValue] = [:]) {
        packed = PackedAnswers.pack(values)
    }

    /// A survey read by `PropertyListScanner` straight into packed bytes.
    package init(packed bytes: [UInt8]) {
        packed = bytes
    }

    /// Every key and value. Building it costs a dictionary: code that reads or changes a
    /// value or two uses `self[key]`.
    public var values: [String: PropertyValue] {
        get { PackedAnswers.dictionary(packed) }
        set { packed = PackedAnswers.pack(newValue) }
    }

    /// The value under `key`; setting nil removes it.
    public subscript(key: String) -> PropertyValue? {
        get { PackedAnswers.value(forKey: key, in: packed) }
        set { packed = PackedAnswers.setting(key, to: newValue, in: packed) }
    }

    /// Sets the items at `indexes` of the list under `key` to those of `items` (the whole list,
    /// as long as the one stored), packing only them; false, changing nothing, when `key`
    /// holds no list of that length.
    package mutating func setItems(_ indexes: Set<Int>, of key: String, to items: [PropertyValue]) -> Bool {
        guard let bytes = PackedAnswers.settingItems(indexes, of: key, to: items, in: packed) else { return false }
        packed = bytes
        return true
    }

    /// Removes `key`, returning what it held.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> PropertyValue? {
        let old = self[key]
        if old != nil { self[key] = nil }
        return old
    }

    /// The keys, in no particular order.
    public var keys: [String] {
        packed.withUnsafeBufferPointer { buffer in
            var keys: [String] = []
            PackedAnswers.forEachEntry(in: buffer) { keys.append(PackedAnswers.key(of: $0, in: buffer)); return true }
            return keys
        }
    }

    /// Calls `body` with every key and value, in no particular order.
    public func forEachValue(_ body: (String, PropertyValue) -> Void) {
        packed.withUnsafeBufferPointer { buffer in
            PackedAnswers.forEachEntry(in: buffer) { entry in
                body(PackedAnswers.key(of: entry, in: buffer), PackedAnswers.value(of: entry, in: buffer))
                return true
            }
        }
    }

    /// Calls `body` with the UTF-8 of every text and whole number (as its digits) the survey
    /// holds, its rosters' members' included, but its id and theirs, in no particular order: what `/` searches, read without building a
    /// string for each value.
    public func forEachSearchableText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        packed.withUnsafeBufferPointer { buffer in
            PackedAnswers.forEachEntry(in: buffer) { entry in
                guard entry.code != Record.instanceIDCode else { return true }
                switch entry.tag {
                case PackedAnswers.stringTag:
                    body(UnsafeBufferPointer(rebasing: buffer[entry.valueBytes]))
                case PackedAnswers.integerTag:
                    var digits = String(PackedAnswers.integer(of: entry, in: buffer))
                    digits.withUTF8(body)
                case PackedAnswers.idTag:
                    var text = PackedAnswers.idText(buffer, at: entry.valueBytes.lowerBound)
                    text.withUTF8(body)
                case PackedAnswers.arrayTag, PackedAnswers.dictionaryTag:
                    // A roster's members' answers too: a household is found by a member's name.
                    PackedAnswers.forEachNestedText(in: buffer, tag: entry.tag, from: entry.valueBytes.lowerBound,
                                                    skipping: Record.instanceIDCode, body)
                default:
                    break
                }
                return true
            }
        }
    }

    /// Characters XML cannot carry, in every key and text (`XMLCharacters`).
    var forbiddenCharacterCount: Int { PackedAnswers.forbiddenCharacterCount(packed) }

    /// Equal answers; the bytes first, so unchanged surveys compare without building
    /// anything, then as dictionaries (keys in another order, canonically equal text), unless
    /// both are held in the one way their answers can be (`PackedAnswers.isCanonical`): then
    /// different bytes are different answers.
    /// The same bytes (at once when they are the same storage): what a cache keyed by a
    /// survey asks. Unlike `==`, never builds the answers, so a changed survey costs a
    /// comparison, not two decodings.
    public func hasIdenticalBytes(_ other: Record) -> Bool { packed == other.packed }

    public static func == (a: Record, b: Record) -> Bool {
        if a.packed == b.packed { return true }
        if PackedAnswers.isCanonical(a.packed), PackedAnswers.isCanonical(b.packed) { return false }
        return a.values == b.values
    }
}

extension Record {
    /// The stored value of `key` as text ("" when missing or not text): for sorting and
    /// sections, which work on names whatever questionnaire is in use.
    public func text(forKey key: String) -> String {
        if case .string(let s) = self[key] { return s }
        return ""
    }
}
