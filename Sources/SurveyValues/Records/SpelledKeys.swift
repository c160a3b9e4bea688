/// The keys spelled out in a value being read (a roster's members), each made into a
/// `String` once: every member of a roster repeats its questions' names, and making them
/// again for each member (checking the UTF-8 each time) was a third of reading a survey with
/// two rosters of 20, which every → to it does. A small table by the key's bytes, short keys
/// only (those fit in two words and in a `String` without an allocation); a key whose slot
/// holds another is made afresh, as before, and takes the slot.
struct SpelledKeys {
    private static let slots = 512
    private var words: [(low: UInt64, high: UInt64, count: Int)] = []
    private var strings: [String] = []

    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        guard count > 0, count <= 15 else { return String(decoding: bytes, as: UTF8.self) }
        var low: UInt64 = 0, high: UInt64 = 0
        for i in 0..<count {
            if i < 8 { low |= UInt64(bytes[i]) << UInt64(8 * i) } else { high |= UInt64(bytes[i]) << UInt64(8 * (i - 8)) }
        }
        if words.isEmpty {
            words = Array(repeating: (0, 0, 0), count: Self.slots)
            strings = Array(repeating: "", count: Self.slots)
        }
        let mixed = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        let slot = Int(truncatingIfNeeded: mixed >> 55)   // 9 bits: 0..<512
        let known = words[slot]
        if known.count == count, known.low == low, known.high == high { return strings[slot] }
        let made = String(decoding: bytes, as: UTF8.self)
        words[slot] = (low, high, count)
        strings[slot] = made
        return made
    }
}
