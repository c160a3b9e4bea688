/// Survey ids as bytes found in a file, looked up by their text: the ids of a 100,000-survey
/// file kept as one run of bytes and a sorted table of hashes, not 100,000 `String`s in a
/// dictionary (`LedgerIndex`, `DocumentDigests`).
struct IDTable {
    /// Every id's bytes, one after another.
    private(set) var bytes: [UInt8] = []
    private(set) var ranges: [Range<Int>] = []
    /// An open-addressed table of places (plus one; 0 is empty) by the hash of their id, and
    /// the hashes beside them: one probe or two finds an id among 100,000 (a binary search of
    /// sorted hashes was a sixth of a sync's look for changes, a cache miss a step).
    private var slots: [Int32] = []
    private var slotHashes: [UInt64] = []

    var count: Int { ranges.count }

    /// Adds an id; returns its place.
    @discardableResult
    mutating func append(_ id: UnsafeBufferPointer<UInt8>) -> Int {
        let start = bytes.count
        bytes += id
        ranges.append(start..<bytes.count)
        return ranges.count - 1
    }

    /// The id at `place`.
    func id(at place: Int) -> String { String(decoding: bytes[ranges[place]], as: UTF8.self) }

    /// Ready for `find`; the places of ids found more than once (each but the first).
    mutating func seal() -> [Int] {
        precondition(ranges.count < Int(Int32.max) / 2)
        var capacity = 16
        while capacity < ranges.count * 2 { capacity <<= 1 }
        slots = [Int32](repeating: 0, count: capacity)
        slotHashes = [UInt64](repeating: 0, count: capacity)
        var repeated: [Int] = []
        for place in ranges.indices {
            let hash = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[ranges[place]])) }
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            var isRepeat = false
            while slots[slot] != 0 {
                let other = Int(slots[slot]) - 1
                if slotHashes[slot] == hash, bytes[ranges[other]] == bytes[ranges[place]] {
                    isRepeat = true
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
            if isRepeat {
                repeated.append(place)
            } else {
                slots[slot] = Int32(place + 1)
                slotHashes[slot] = hash
            }
        }
        return repeated
    }

    /// The first place of `id`, nil when it is not there.
    func find(_ id: String) -> Int? {
        var id = id
        return id.withUTF8 { find(bytes: $0) }
    }

    /// The first place of the id spelled `text`, nil when it is not there.
    func find(bytes text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let hash = Self.hash(text)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let place = Int(slots[slot]) - 1
            if slotHashes[slot] == hash, bytes[ranges[place]].elementsEqual(text) { return place }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Calls `body` with the bytes of the id at `place`.
    func withID<T>(at place: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[ranges[place]])) }
    }

    /// FNV-1a, 64 bits, its bits mixed (MurmurHash3's finish): a table key, always checked
    /// against the bytes; FNV's low bits alone, which pick the slot, depend on little.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
