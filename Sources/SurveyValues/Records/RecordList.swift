import FoundationEssentials
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A document's surveys, kept in chunks of about a thousand that copies of the list share.
///
/// Why not `[Record]`: every change used to copy the whole array, because undo, the failed-save
/// rollback, the journal's base and the background writer each hold the version before. At
/// 100,000 surveys that copy retained 100,000 dictionaries scattered over the heap, and later
/// released them, 10–13 ms per commit: most of it cache misses. Here a copy of the list copies
/// only the chunk references (about a hundred), and changing one survey copies only its chunk.
/// Unchanged chunks stay the very same objects in every version, which also makes comparing two
/// versions (what changed since the file was written) skip them whole.
///
/// A chunk is only ever changed while this list is its one owner, so sharing chunks between
/// threads (the background writer's snapshot) is safe.
public struct RecordList: Sendable {
    /// A piece of the list. A class, so that versions of the list can share it.
    @usableFromInline
    final class Chunk: @unchecked Sendable {
        @usableFromInline var records: [Record]
        @usableFromInline init(_ records: [Record]) { self.records = records }
    }

    /// Surveys per chunk when a list is built or grows at its end; a chunk that an insertion
    /// grows past twice this is split.
    @usableFromInline static let chunkSize = 1024

    @usableFromInline var chunks: [Chunk]
    /// Where each chunk starts in the list (chunk sizes vary after inserts and removals).
    @usableFromInline var starts: [Int]
    public private(set) var count: Int

    public init() {
        chunks = []
        starts = []
        count = 0
    }

    public init(_ records: [Record]) {
        self.init()
        append(contentsOf: records)
    }

    public init<S: Sequence>(_ records: S) where S.Element == Record {
        self.init()
        append(contentsOf: records)
    }

    /// The chunk holding position `i` and the offset in it.
    @inlinable
    func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        precondition(i >= 0 && i < count, "RecordList index \(i) out of range 0..<\(count)")
        // Lists that only grew at the end have full chunks: the first guess is right.
        let guess = Swift.min(i / Self.chunkSize, chunks.count - 1)
        if starts[guess] <= i, i - starts[guess] < chunks[guess].records.count {
            return (guess, i - starts[guess])
        }
        var low = 0, high = chunks.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= i { low = mid } else { high = mid - 1 }
        }
        return (low, i - starts[low])
    }

    /// Makes chunk `c` this list's own before it is changed.
    @inlinable
    mutating func own(_ c: Int) {
        if !isKnownUniquelyReferenced(&chunks[c]) {
            chunks[c] = Chunk(chunks[c].records)
        }
    }

    private mutating func restart(from c: Int) {
        var start = c == 0 ? 0 : starts[c - 1] + chunks[c - 1].records.count
        for k in c..<chunks.count {
            starts[k] = start
            start += chunks[k].records.count
        }
        count = start
    }

    /// Calls `body` with each chunk's surveys in order, and where they start.
    public func forEachRun(_ body: (_ start: Int, _ records: [Record]) throws -> Void) rethrows {
        for c in chunks.indices { try body(starts[c], chunks[c].records) }
    }

    /// Whether `other` is this very list (the same chunks, unchanged since one was copied from the other).
    public func isSameStorage(as other: RecordList) -> Bool {
        guard count == other.count, chunks.count == other.chunks.count else { return false }
        return chunks.withUnsafeBufferPointer { a in other.chunks.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
            || zip(chunks, other.chunks).allSatisfy { $0 === $1 }
    }

    /// The positions below both counts where a survey is not the same as in `old`. Chunks both
    /// lists share are skipped whole; elsewhere two surveys are first compared as raw words
    /// (the same storage is the same survey, without retaining anything), and only where the
    /// words differ are the answers compared.
    public func differingIndices(from old: RecordList) -> [Int] {
        let n = Swift.min(count, old.count)
        var result: [Int] = []
        var i = 0
        var (ca, oa) = (0, 0)
        var (cb, ob) = (0, 0)
        let stride = MemoryLayout<Record>.stride
        while i < n {
            let a = chunks[ca], b = old.chunks[cb]
            let run = Swift.min(a.records.count - oa, b.records.count - ob, n - i)
            if !(a === b && oa == ob) {
                a.records.withUnsafeBytes { x in
                    b.records.withUnsafeBytes { y in
                        for k in 0..<run where memcmp(x.baseAddress! + (oa + k) * stride, y.baseAddress! + (ob + k) * stride,
                                                      MemoryLayout<Record>.size) != 0
                            && a.records[oa + k] != b.records[ob + k] {
                            result.append(i + k)
                        }
                    }
                }
            }
            i += run
            oa += run
            ob += run
            if oa == a.records.count { ca += 1; oa = 0 }
            if ob == b.records.count { cb += 1; ob = 0 }
        }
        return result
    }

    /// How this list differs from `old` as one stretch replaced by another (a delete, an
    /// insert, an undo of either): `prefix` surveys at the start and `suffix` at the end are
    /// the very same storage in both, so only `prefix..<count - suffix` here and
    /// `prefix..<old.count - suffix` in `old` need looking at. Chunks both share are skipped
    /// whole, from either end.
    public func changedStretch(from old: RecordList) -> (prefix: Int, suffix: Int) {
        let limit = Swift.min(count, old.count)
        let stride = MemoryLayout<Record>.stride
        func same(_ a: [Record], _ i: Int, _ b: [Record], _ j: Int) -> Bool {
            a.withUnsafeBytes { x in b.withUnsafeBytes { y in
                memcmp(x.baseAddress! + i * stride, y.baseAddress! + j * stride, MemoryLayout<Record>.size) == 0
            } }
        }
        var prefix = 0
        var (ca, oa, cb, ob) = (0, 0, 0, 0)
        forward: while prefix < limit {
            let a = chunks[ca], b = old.chunks[cb]
            let run = Swift.min(a.records.count - oa, b.records.count - ob, limit - prefix)
            if a === b && oa == ob {
                prefix += run
            } else {
                for k in 0..<run {
                    guard same(a.records, oa + k, b.records, ob + k) else { prefix += k; break forward }
                }
                prefix += run
            }
            oa += run
            ob += run
            if oa == a.records.count { ca += 1; oa = 0 }
            if ob == b.records.count { cb += 1; ob = 0 }
        }
        var suffix = 0
        let suffixLimit = limit - prefix
        ca = chunks.count - 1
        cb = old.chunks.count - 1
        oa = ca >= 0 ? chunks[ca].records.count : 0   // how many of chunk ca are still to look at
        ob = cb >= 0 ? old.chunks[cb].records.count : 0
        backward: while suffix < suffixLimit {
            let a = chunks[ca], b = old.chunks[cb]
            let run = Swift.min(oa, ob, suffixLimit - suffix)
            if a === b && oa == ob {
                suffix += run
            } else {
                for k in 1...run {
                    guard same(a.records, oa - k, b.records, ob - k) else { suffix += k - 1; break backward }
                }
                suffix += run
            }
            oa -= run
            ob -= run
            if oa == 0 { ca -= 1; oa = ca >= 0 ? chunks[ca].records.count : 0 }
            if ob == 0 { cb -= 1; ob = cb >= 0 ? old.chunks[cb].records.count : 0 }
        }
        return (prefix, suffix)
    }

    /// Changes every survey through `body`, the chunks shared out over the processor's cores,
    /// and counts the surveys `body` says it changed. `body` gets each survey's position; it
    /// must touch nothing but the survey it is given.
    @discardableResult
    public mutating func updateConcurrently(parts: Int, _ body: @Sendable (Int, inout Record) -> Bool) -> Int {
        for c in chunks.indices { own(c) }
        let chunks = self.chunks, starts = self.starts
        let parts = Swift.max(1, Swift.min(parts, chunks.count))
        let total = ChangedCount()
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var changed = 0
            for c in (chunks.count * part / parts)..<(chunks.count * (part + 1) / parts) {
                let chunk = chunks[c]
                for o in chunk.records.indices where body(starts[c] + o, &chunk.records[o]) { changed += 1 }
            }
            total.add(changed)   // once per part
        }
        return total.value
    }
}

extension RecordList: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }

    public subscript(i: Int) -> Record {
        get {
            let (c, o) = locate(i)
            return chunks[c].records[o]
        }
        _modify {
            let (c, o) = locate(i)
            own(c)
            yield &chunks[c].records[o]
        }
    }

    public struct Iterator: IteratorProtocol {
        let chunks: [Chunk]
        var c = 0
        var current: [Record]
        var o = 0

        init(chunks: [Chunk]) {
            self.chunks = chunks
            current = chunks.first?.records ?? []
        }

        public mutating func next() -> Record? {
            if o < current.count {
                defer { o += 1 }
                return current[o]
            }
            c += 1
            while c < chunks.count {
                current = chunks[c].records
                if !current.isEmpty {
                    o = 1
                    return current[0]
                }
                c += 1
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(chunks: chunks) }
}

extension RecordList: RangeReplaceableCollection {
    public mutating func append(_ record: Record) {
        if let last = chunks.indices.last, chunks[last].records.count < Self.chunkSize {
            own(last)
            chunks[last].records.append(record)
        } else {
            chunks.append(Chunk([record]))
            starts.append(count)
        }
        count += 1
    }

    public mutating func append<S: Sequence>(contentsOf records: S) where S.Element == Record {
        var iterator = records.makeIterator()
        var pending: Record? = iterator.next()
        while let first = pending {
            if let last = chunks.indices.last, chunks[last].records.count < Self.chunkSize {
                own(last)
                let chunk = chunks[last]
                var next: Record? = first
                while let record = next, chunk.records.count < Self.chunkSize {
                    chunk.records.append(record)
                    count += 1
                    next = iterator.next()
                }
                pending = next
            } else {
                var piece: [Record] = [first]
                piece.reserveCapacity(Self.chunkSize)
                pending = nil
                while piece.count < Self.chunkSize, let record = iterator.next() { piece.append(record) }
                if piece.count == Self.chunkSize { pending = iterator.next() }
                chunks.append(Chunk(piece))
                starts.append(count)
                count += piece.count
            }
        }
    }

    public mutating func insert(_ record: Record, at i: Int) {
        if i == count { return append(record) }
        let (c, o) = locate(i)
        own(c)
        chunks[c].records.insert(record, at: o)
        if chunks[c].records.count > 2 * Self.chunkSize {
            let records = chunks[c].records
            chunks[c] = Chunk(Array(records[..<Self.chunkSize]))
            chunks.insert(Chunk(Array(records[Self.chunkSize...])), at: c + 1)
            starts.insert(0, at: c + 1)
        }
        restart(from: c)
    }

    @discardableResult
    public mutating func remove(at i: Int) -> Record {
        let (c, o) = locate(i)
        own(c)
        let record = chunks[c].records.remove(at: o)
        if chunks[c].records.isEmpty {
            chunks.remove(at: c)
            starts.remove(at: c)
            if c < chunks.count { restart(from: c) } else { count -= 1 }
        } else {
            restart(from: c)
        }
        return record
    }

    @discardableResult
    public mutating func removeLast() -> Record { remove(at: count - 1) }

    public mutating func removeAll(keepingCapacity: Bool = false) { self = RecordList() }

    public mutating func reserveCapacity(_ n: Int) {}

    /// The general case (ranges, `removeAll(where:)`): the list is rebuilt, once.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with records: C) where C.Element == Record {
        if range.isEmpty, range.lowerBound == count { return append(contentsOf: records) }
        if range.count == 1, records.count == 1 { self[range.lowerBound] = records.first!; return }
        if range.count == 1, records.isEmpty { remove(at: range.lowerBound); return }
        if range.isEmpty, records.count == 1 { return insert(records.first!, at: range.lowerBound) }
        var all = Array(self)
        all.replaceSubrange(range, with: records)
        self = RecordList(all)
    }
}

extension RecordList: Equatable {
    public static func == (a: RecordList, b: RecordList) -> Bool {
        a.count == b.count && (a.isSameStorage(as: b) || a.differingIndices(from: b).isEmpty)
    }
}

extension RecordList: ExpressibleByArrayLiteral {
    public init(arrayLiteral records: Record...) { self.init(records) }
}

extension RecordList: CustomStringConvertible {
    public var description: String { Array(self).description }
}

/// The workers' count in `updateConcurrently`, added to once per worker.
private final class ChangedCount: @unchecked Sendable {
    private let lock = Lock()
    private var count = 0
    func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
    package var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
