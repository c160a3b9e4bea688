#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What reads a file line by line as it streams past, a megabyte at a time, never holding
/// it whole (`LedgerIndex`, `DocumentDigests`).
protocol LineTaker {
    /// Takes the file's next line (its newline included), which starts at `offset`.
    mutating func take(_ line: UnsafeBufferPointer<UInt8>, at offset: Int)
    /// Once a line did not fit: the rest is not worth reading.
    var failed: Bool { get }
}

extension LineTaker {
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

    /// Takes every line of the open file `fd` from where it stands; false when it could not be
    /// read, grew past `limit`, or ends without a newline.
    mutating func takeLines(of fd: Int32, limit: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var held = 0, offset = 0, total = 0
        while !failed {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + held, $0.count - held) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            total += count
            if total > limit { return false }
            if count == 0 { return held == 0 }
            let end = held + count
            let taken = buffer.withUnsafeBufferPointer { takeLines(of: UnsafeBufferPointer(rebasing: $0[0..<end]), at: offset) }
            // What is left is the start of the next line; a line longer than the buffer grows it.
            buffer.withUnsafeMutableBytes { raw in
                if taken > 0, taken < end { memmove(raw.baseAddress!, raw.baseAddress! + taken, end - taken) }
            }
            held = end - taken
            offset += taken
            if held == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        }
        return false
    }
}
