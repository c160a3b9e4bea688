/// Survey ids as bytes found in a file, looked up by their text: the ids of a 100,000-survey
/// file kept as one run of bytes and a sorted table of hashes, not 100,000 `String`s in a
/// dictionary (`LedgerIndex`, `DocumentDigests`).
struct IDTable {
    /// Every id's bytes, one after another.
    private(set) var bytes: [UInt8] = []
    private(set) var ranges: [Range<Int>] = []
    /// Places sorted by the hash of their id (`hashes` beside it): made by `seal`.
    private var order: [Int32] = []
    private var hashes: [UInt64] = []

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
        precondition(ranges.count < Int(Int32.max))
        var keys = ranges.map { range in bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[range])) } }
        order = (0..<Int32(ranges.count)).map { $0 }
        order.sort { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : $0 < $1 }
        keys = order.map { keys[Int($0)] }
        hashes = keys
        var repeated: [Int] = []
        var at = 0
        while at < order.count {
            var next = at + 1
            while next < order.count, hashes[next] == hashes[at] { next += 1 }
            for b in (at + 1)..<max(next, at + 1) {
                let later = Int(order[b])
                if (at..<b).contains(where: { bytes[ranges[Int(order[$0])]] == bytes[ranges[later]] }) { repeated.append(later) }
            }
            at = next
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
        do {
            let hash = Self.hash(text)
            var low = 0, high = hashes.count
            while low < high {
                let middle = (low + high) / 2
                if hashes[middle] < hash { low = middle + 1 } else { high = middle }
            }
            while low < hashes.count, hashes[low] == hash {
                let place = Int(order[low])
                if bytes[ranges[place]].elementsEqual(text) { return place }
                low += 1
            }
            return nil
        }
    }

    /// Calls `body` with the bytes of the id at `place`.
    func withID<T>(at place: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[ranges[place]])) }
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
}
