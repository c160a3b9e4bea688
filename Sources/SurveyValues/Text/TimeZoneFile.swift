import FoundationEssentials

/// A compiled time zone (TZif, RFC 8536: `/etc/localtime`, `/usr/share/zoneinfo/NAME`) read
/// once, giving the UTC offset at any instant. Without ICU, FoundationEssentials' own
/// `TimeZone.current` on Linux is always GMT and `TimeZone(identifier: "Europe/Paris")` nil,
/// yet the times survey shows and names files with are local, as the C library's are.
/// Instants after the last transition follow the file's POSIX rule (`PosixTimeZoneRule`).
struct TimeZoneFile: Sendable, Equatable {
    /// Transition instants (seconds since 1970), ascending, and the offset from each on.
    let transitions: [Int64]
    let offsets: [Int32]
    /// The offset before the first transition (the first non-daylight type, as zic writes).
    let initialOffset: Int32
    let footer: PosixTimeZoneRule?

    /// Nil for anything that is not a TZif file.
    init?(_ data: Data) {
        var reader = TZifReader(bytes: [UInt8](data))
        guard let first = reader.header() else { return nil }
        if first.version >= 2 {
            // Skip the 32-bit block; the 64-bit one and the footer follow.
            reader.position += first.blockSize(timeBytes: 4)
            guard let second = reader.header() else { return nil }
            guard let parsed = reader.block(second, timeBytes: 8) else { return nil }
            (transitions, offsets, initialOffset) = parsed
            var footerText = ""
            if reader.position < reader.bytes.count, reader.bytes[reader.position] == 0x0A {
                let rest = reader.bytes[(reader.position + 1)...]
                footerText = String(decoding: rest.prefix { $0 != 0x0A }, as: UTF8.self)
            }
            footer = PosixTimeZoneRule(footerText)
        } else {
            guard let parsed = reader.block(first, timeBytes: 4) else { return nil }
            (transitions, offsets, initialOffset) = parsed
            footer = nil
        }
    }

    func secondsFromGMT(at instant: Int64) -> Int {
        if let last = transitions.last, instant >= last, let footer {
            return footer.secondsFromGMT(at: instant)
        }
        if transitions.isEmpty, let footer { return footer.secondsFromGMT(at: instant) }
        // The last transition at or before the instant.
        var low = 0, high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= instant { low = mid + 1 } else { high = mid }
        }
        return Int(low == 0 ? initialOffset : offsets[low - 1])
    }
}

private struct TZifHeader {
    let version: Int
    let isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

    func blockSize(timeBytes: Int) -> Int {
        timeCount * timeBytes + timeCount + typeCount * 6 + charCount
            + leapCount * (timeBytes + 4) + isStandardCount + isUTCCount
    }
}

private struct TZifReader {
    let bytes: [UInt8]
    var position = 0

    mutating func header() -> TZifHeader? {
        guard position + 44 <= bytes.count, bytes[position..<(position + 4)].elementsEqual("TZif".utf8) else { return nil }
        let versionByte = bytes[position + 4]
        let counts = (0..<6).map { Int(readBigEndian(at: position + 20 + $0 * 4, size: 4)) }
        position += 44
        return TZifHeader(version: versionByte == 0 ? 1 : Int(versionByte) - 0x30,
                          isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                          timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }

    mutating func block(_ header: TZifHeader, timeBytes: Int) -> ([Int64], [Int32], Int32)? {
        guard header.typeCount > 0, position + header.blockSize(timeBytes: timeBytes) <= bytes.count else { return nil }
        let times = (0..<header.timeCount).map { i -> Int64 in
            let raw = readBigEndian(at: position + i * timeBytes, size: timeBytes)
            return timeBytes == 4 ? Int64(Int32(truncatingIfNeeded: raw)) : Int64(bitPattern: raw)
        }
        let indexStart = position + header.timeCount * timeBytes
        let typeStart = indexStart + header.timeCount
        var typeOffsets: [Int32] = [], typeIsDaylight: [Bool] = []
        for t in 0..<header.typeCount {
            typeOffsets.append(Int32(truncatingIfNeeded: readBigEndian(at: typeStart + t * 6, size: 4)))
            typeIsDaylight.append(bytes[typeStart + t * 6 + 4] != 0)
        }
        var offsets: [Int32] = []
        for i in 0..<header.timeCount {
            let type = Int(bytes[indexStart + i])
            guard type < header.typeCount else { return nil }
            offsets.append(typeOffsets[type])
        }
        let initial = typeIsDaylight.firstIndex(of: false).map { typeOffsets[$0] } ?? typeOffsets[0]
        position += header.blockSize(timeBytes: timeBytes)
        return (times, offsets, initial)
    }

    private func readBigEndian(at offset: Int, size: Int) -> UInt64 {
        bytes[offset..<(offset + size)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
