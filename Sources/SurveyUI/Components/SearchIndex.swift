import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyForms
#if canImport(Glibc)
import Glibc
#endif

/// Text folded for `/` search (case, accents and width ignored), as UTF-8 bytes, so a typed
/// character is a byte search (`memmem`) over every record instead of Foundation string
/// folding: 100,000 records stay well under the 10 ms per key. ASCII folds inline;
/// every other scalar folds once through Foundation and is remembered for the run.
struct SearchFolding {
    private var cache: [UInt32: [UInt8]] = [:]

    mutating func fold(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { fold(utf8: $0, into: &out) }
    }

    /// Folds valid UTF-8: ASCII inline, any other scalar decoded from its bytes, folded once
    /// through Foundation and remembered.
    mutating func fold(utf8 text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var i = 0
        while i < text.count {
            let lead = text[i]
            if lead < 0x80 {
                out.append(lead >= 65 && lead <= 90 ? lead + 32 : lead)
                i += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length where i + k < text.count { value = value << 6 | UInt32(text[i + k] & 0x3F) }
            i += length
            if let folded = cache[value] {
                out.append(contentsOf: folded)
            } else if let scalar = Unicode.Scalar(value) {
                let folded = Array(TextFolding.folded(String(scalar), width: true).utf8)
                cache[value] = folded
                out.append(contentsOf: folded)
            }
        }
    }

    /// What another folding learned, so an index built in parts keeps one cache.
    mutating func learn(from other: SearchFolding) {
        cache.merge(other.cache) { mine, _ in mine }
    }

    mutating func fold(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        fold(text, into: &out)
        return out
    }

    /// Every text answer of a record (and whole numbers, so an age can be found), folded and
    /// joined by a byte no folded text contains, so no word matches across two answers.
    mutating func searchText(of record: Record) -> [UInt8] {
        var out: [UInt8] = []
        searchText(of: record, into: &out)
        return out
    }

    /// `searchText(of:)` appended to `out` (a buffer reused from record to record).
    mutating func searchText(of record: Record, into out: inout [UInt8]) {
        record.forEachSearchableText { text in
            fold(utf8: text, into: &out)
            out.append(0)
        }
    }
}

/// Folded texts laid end to end in one block of memory that grows (`realloc`), each found
/// by where it starts and how long it is. A million surveys' texts as a million Swift arrays
/// cost about 60 bytes each in headers and allocator overhead, and a search touched every
/// one of those headers (and their reference counts); here a search walks plain memory.
final class TextStore: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1 << 16) {
        self.capacity = max(64, capacity)
        base = UnsafeMutablePointer<UInt8>(OpaquePointer(malloc(self.capacity)!))
    }

    deinit { free(base) }

    /// Whether `count` more bytes go in without moving the block.
    func fits(_ more: Int) -> Bool { count + more <= capacity }

    /// Appends `bytes`; returns where they start. The block moves when it must grow, so
    /// only a store no search can be reading grows (one being built, or the index's last
    /// store for edited texts while `fits`).
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let start = count
        if count + bytes.count > capacity {
            var grown = capacity
            while count + bytes.count > grown { grown *= 2 }
            guard let moved = realloc(base, grown) else { fatalError("out of memory for the search index") }
            base = UnsafeMutablePointer<UInt8>(OpaquePointer(moved))
            capacity = grown
        }
        if let from = bytes.baseAddress { (base + count).update(from: from, count: bytes.count) }
        count += bytes.count
        return start
    }
}

/// Where one record's folded text is: which store, from where, how long.
struct TextSpan: Equatable {
    var store: Int32
    var length: Int32
    var start: Int
}

/// The folded search text of every record, kept while a filter is in use and updated only
/// for the records that changed. A class so that copying the app's state never copies it,
/// and compared by identity: two states share an index or they do not.
///
/// The texts live in a few `TextStore`s (one per part the index was built in, one more for
/// the texts of edited records), so the whole index is a handful of allocations and a
/// search is `memchr` and `memcmp` over plain memory. A search over many records (the first
/// one after the index comes, a character that widens the match set) runs on every
/// processor: at a million surveys one such search took most of a 55 ms key.
public final class SearchIndex: @unchecked Sendable, Equatable {
    private(set) var records: RecordList
    private var stores: [TextStore]
    private var spans: [TextSpan]
    private var folding: SearchFolding
    /// Bytes of edited records' old texts, still in the stores: the index is built afresh
    /// (`compacted`) when they outgrow the live ones.
    private var garbage = 0

    /// Built on every processor for a large list (a tenth of a second at 100,000 surveys on
    /// one), each part into its own store with its own folding, learned by the index after.
    public init(records: RecordList, processors: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let parts = records.count < 20_000 ? 1 : max(1, min(8, processors))
        var spans = [TextSpan](repeating: TextSpan(store: 0, length: 0, start: 0), count: records.count)
        var foldings = [SearchFolding](repeating: SearchFolding(), count: parts)
        // About 64 bytes a survey to start with: the store grows by doubling from there.
        let stores = (0..<parts).map { _ in TextStore(capacity: max(1, records.count / parts) * 64) }
        spans.withUnsafeMutableBufferPointer { spanBuffer in
            foldings.withUnsafeMutableBufferPointer { foldingBuffer in
                nonisolated(unsafe) let (out, folds) = (spanBuffer, foldingBuffer)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    var scratch: [UInt8] = []
                    let store = stores[part]
                    for i in (records.count * part / parts)..<(records.count * (part + 1) / parts) {
                        scratch.removeAll(keepingCapacity: true)
                        folds[part].searchText(of: records[i], into: &scratch)
                        let start = scratch.withUnsafeBufferPointer { store.append($0) }
                        out[i] = TextSpan(store: Int32(part), length: Int32(scratch.count), start: start)
                    }
                }
            }
        }
        var folding = foldings[0]
        for other in foldings.dropFirst() { folding.learn(from: other) }
        self.stores = stores + [TextStore()]   // the last one takes edited records' texts
        self.spans = spans
        self.records = records
        self.folding = folding
    }

    /// What was typed on the `/` line by the time a background build finished, and the
    /// surveys (every one searched, in entry order) that match it: found off the main thread,
    /// so the character the index arrives under searches only these (`SurveyListState.take`).
    private(set) var searchedAhead: (text: String, matches: [Int])?

    /// Searches every survey for `text` now, on the builder's thread.
    public func searchAhead(for text: String) {
        let filter = RecordFilter(text)
        guard !filter.isEmpty else { return }
        searchedAhead = (text, matching(.all(records.count), words: foldQuery(filter.words), keep: []))
    }

    /// Each record's folded text, as arrays (tests).
    var texts: [[UInt8]] { spans.indices.map { i in withText(i) { Array($0) } } }

    private func withText<T>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let span = spans[i]
        return body(UnsafeBufferPointer(start: stores[Int(span.store)].base + span.start, count: Int(span.length)))
    }

    /// Folds a changed record's text into the last store.
    private func folded(_ record: Record) -> TextSpan {
        var scratch: [UInt8] = []
        folding.searchText(of: record, into: &scratch)
        if !stores[stores.count - 1].fits(scratch.count) { stores.append(TextStore()) }
        let store = stores.count - 1
        let start = scratch.withUnsafeBufferPointer { stores[store].append($0) }
        return TextSpan(store: Int32(store), length: Int32(scratch.count), start: start)
    }

    /// The same index for `records`, re-folding only records that are not the same as
    /// before (an edit, an add, the stretch a delete or an undo changed).
    func updated(for newRecords: RecordList) -> SearchIndex {
        // The same list (typing on the `/` line changes no record): nothing to compare.
        if newRecords.isSameStorage(as: records) { return self }
        if newRecords.count == records.count {
            for i in newRecords.differingIndices(from: records) {
                garbage += Int(spans[i].length)
                spans[i] = folded(newRecords[i])
            }
        } else {
            // Added, deleted, put back: only the stretch the two versions do not share.
            let (prefix, suffix) = newRecords.changedStretch(from: records)
            let (oldEnd, newEnd) = (records.count - suffix, newRecords.count - suffix)
            for i in prefix..<oldEnd { garbage += Int(spans[i].length) }
            spans.replaceSubrange(prefix..<oldEnd, with: (prefix..<newEnd).map { folded(newRecords[$0]) })
        }
        records = newRecords
        // Texts edited over and over (a long session of commits under a filter) are let go of
        // once they outweigh the live ones.
        if garbage > 1 << 20, garbage > stores.reduce(0) { $0 + $1.count } / 2 {
            return SearchIndex(records: newRecords)
        }
        return self
    }

    func foldQuery(_ words: [String]) -> [[UInt8]] {
        words.map { folding.fold($0) }
    }

    /// Whether every word occurs in record `index`'s text.
    func matches(_ index: Int, words: [[UInt8]]) -> Bool {
        withText(index) { text in words.allSatisfy { word in word.withUnsafeBufferPointer { Self.contains(text, $0) } } }
    }

    /// Below this many candidates a search runs on the calling thread alone.
    static let parallelSearchThreshold = 50_000

    /// The texts as they are now, for a search that may outlive this key (`SearchJob`).
    var snapshot: SearchTexts { SearchTexts(spans: spans, stores: stores) }

    /// The candidates (in order) whose text holds every word, or that `keep` holds. Many
    /// candidates are searched in parts on every processor, each part's matches in order,
    /// joined in order.
    func matching(_ candidates: [Int], words: [[UInt8]], keep: Set<Int>,
                  processors: Int = ProcessInfo.processInfo.activeProcessorCount) -> [Int] {
        snapshot.matching(.only(candidates), words: words, keep: keep, processors: processors)
    }

    func matching(_ candidates: SearchCandidates, words: [[UInt8]], keep: Set<Int>,
                  processors: Int = ProcessInfo.processInfo.activeProcessorCount) -> [Int] {
        snapshot.matching(candidates, words: words, keep: keep, processors: processors)
    }

    func firstMatches(_ candidates: SearchCandidates, words: [[UInt8]], keep: Set<Int>, limit: Int, budget: Int)
        -> (found: [Int], rest: SearchCandidates?) {
        snapshot.firstMatches(candidates, words: words, keep: keep, limit: limit, budget: budget)
    }

    /// A plain byte search: `memchr` for the first byte, then a compare. (glibc's `memmem`
    /// is a GNU extension Swift's Glibc module does not export.)
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { h in needle.withUnsafeBufferPointer { n in contains(h, n) } }
    }

    static func contains(_ h: UnsafeBufferPointer<UInt8>, _ n: UnsafeBufferPointer<UInt8>) -> Bool {
        if n.isEmpty { return true }
        if n.count > h.count { return false }
        guard let hay = h.baseAddress, let needle = n.baseAddress else { return false }
        let first = Int32(needle[0])
        let last = h.count - n.count
        var i = 0
        while i <= last {
            guard let found = memchr(hay + i, first, last - i + 1) else { return false }
            let at = hay.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(hay + at, needle, n.count) == 0 { return true }
            i = at + 1
        }
        return false
    }

    public static func == (a: SearchIndex, b: SearchIndex) -> Bool { a === b }
}

/// The index's texts at one moment: the spans (a copy, so the index may change them) and
/// the stores they point into (held, and never moved once texts are in them: an edited
/// survey's text goes to a new store when the last is full), so a search finished on another
/// thread (`SearchJob`) reads them safely while the keys go on changing the index.
struct SearchTexts: @unchecked Sendable {
    let spans: [TextSpan]
    let stores: [TextStore]

    /// The matches among candidates `range` (all of them by default), in order.
    func matching(_ candidates: SearchCandidates, in range: Range<Int>? = nil, words: [[UInt8]], keep: Set<Int>,
                  processors: Int = ProcessInfo.processInfo.activeProcessorCount) -> [Int] {
        let range = range ?? 0..<candidates.count
        let (start, total) = (range.lowerBound, range.count)
        let parts = total < SearchIndex.parallelSearchThreshold ? 1 : max(1, min(8, processors))
        var found = [[Int]](repeating: [], count: parts)
        found.withUnsafeMutableBufferPointer { foundBuffer in
            nonisolated(unsafe) let out = foundBuffer
            // One part runs on this thread (`concurrentPerform` of one does).
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                out[part] = search(candidates, from: start + total * part / parts, to: start + total * (part + 1) / parts,
                                   words: words, keep: keep, limit: Int.max).found
            }
        }
        return parts == 1 ? found[0] : Array(found.joined())
    }

    /// The first `limit` matches among `candidates` (kept ones included), looking at no more
    /// than `budget` of them: what the screen needs of a query a million surveys match, found
    /// in microseconds instead of searching them all. `rest`: the candidates not looked at
    /// (nil when every one was), whose matches follow `found`.
    func firstMatches(_ candidates: SearchCandidates, words: [[UInt8]], keep: Set<Int>, limit: Int, budget: Int)
        -> (found: [Int], rest: SearchCandidates?) {
        let total = candidates.count
        let (found, stop) = search(candidates, from: 0, to: min(total, budget), words: words, keep: keep, limit: limit)
        return (found, stop < total ? candidates.dropping(stop) : nil)
    }

    /// Candidates `from..<to` searched in order, stopping after `limit` matches: the matches
    /// and where the search stopped.
    private func search(_ candidates: SearchCandidates, from: Int, to: Int, words: [[UInt8]], keep: Set<Int>,
                        limit: Int) -> (found: [Int], stop: Int) {
        var mine: [Int] = []
        guard from < to else { return (mine, to) }
        let keepsAny = !keep.isEmpty
        // The words as plain memory too, for the inner loop.
        let flat = words.flatMap { $0 }
        let offsets = words.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        let bases = stores.map(\.base)
        var stop = to
        flat.withUnsafeBufferPointer { flatWords in
            spans.withUnsafeBufferPointer { allSpans in
                search: for c in from..<to {
                    if mine.count >= limit { stop = c; break }
                    let i = candidates[c]
                    if keepsAny, keep.contains(i) { mine.append(i); continue }
                    let span = allSpans[i]
                    let text = UnsafeBufferPointer(start: bases[Int(span.store)] + span.start, count: Int(span.length))
                    for w in 0..<(offsets.count - 1) {
                        let word = UnsafeBufferPointer(rebasing: flatWords[offsets[w]..<offsets[w + 1]])
                        if !SearchIndex.contains(text, word) { continue search }
                    }
                    mine.append(i)
                }
            }
        }
        return (mine, stop)
    }
}
