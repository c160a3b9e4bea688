#if canImport(Glibc)
import Glibc
#endif

/// The bytes a `PropertyListWriter` makes, in memory it owns: an append is a bounds check
/// and a `memcpy`. A writer makes a file of a few tags and short texts at a time (a
/// 100,000-survey ledger is 9 million appends); through `[UInt8].append(contentsOf:)` each
/// went through the array's uniqueness check and generic copy, a tenth of a large pull's
/// processor time.
///
/// A class, so a writer copied by accident shares it rather than freeing it twice; writers
/// are `inout` everywhere and never copied on purpose.
final class ByteSink {
    private(set) var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Room for `extra` more bytes, growing by doubling.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        // Doubled, or exactly what was asked when that is more (a reserve for a whole
        // stream buffer takes what it asks, not the next power of two).
        let newCapacity = max(capacity * 2, needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: start, count: count)
        start.deallocate()
        start = bigger
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ source: UnsafeRawPointer, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        memcpy(start + count, source, n)
        count += n
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        append(base, count: bytes.count)
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// `n` copies of `byte` (a line's indentation).
    @inline(__always)
    func append(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        memset(start + count, Int32(byte), n)
        count += n
    }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    /// Forgets the bytes, keeping the memory.
    func removeAll() { count = 0 }
}
