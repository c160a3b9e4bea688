import FoundationEssentials
import Dispatch
import SurveyModel
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
        record.forEachSearchableText { text in
            fold(utf8: text, into: &out)
            out.append(0)
        }
        return out
    }
}

/// The folded search text of every record, kept while a filter is in use and updated only
/// for the records that changed. A class so that copying the app's state never copies it,
/// and compared by identity: two states share an index or they do not.
public final class SearchIndex: @unchecked Sendable, Equatable {
    private(set) var records: RecordList
    private(set) var texts: [[UInt8]]
    private var folding: SearchFolding

    /// Built on every processor for a large list (a tenth of a second at 100,000 surveys on
    /// one), each part with its own folding, learned by the index after.
    public init(records: RecordList, processors: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let parts = records.count < 20_000 ? 1 : max(1, min(8, processors))
        var texts = [[UInt8]](repeating: [], count: records.count)
        var foldings = [SearchFolding](repeating: SearchFolding(), count: parts)
        texts.withUnsafeMutableBufferPointer { textBuffer in
            foldings.withUnsafeMutableBufferPointer { foldingBuffer in
                nonisolated(unsafe) let (out, folds) = (textBuffer, foldingBuffer)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    for i in (records.count * part / parts)..<(records.count * (part + 1) / parts) {
                        out[i] = folds[part].searchText(of: records[i])
                    }
                }
            }
        }
        var folding = foldings[0]
        for other in foldings.dropFirst() { folding.learn(from: other) }
        self.texts = texts
        self.records = records
        self.folding = folding
    }

    /// The same index for `records`, re-folding only records that are not the same as
    /// before (an edit, an add, the stretch a delete or an undo changed).
    func updated(for newRecords: RecordList) -> SearchIndex {
        // The same list (typing on the `/` line changes no record): nothing to compare.
        if newRecords.isSameStorage(as: records) { return self }
        if newRecords.count == records.count {
            for i in newRecords.differingIndices(from: records) {
                texts[i] = folding.searchText(of: newRecords[i])
            }
        } else {
            // Added, deleted, put back: only the stretch the two versions do not share.
            let (prefix, suffix) = newRecords.changedStretch(from: records)
            let (oldEnd, newEnd) = (records.count - suffix, newRecords.count - suffix)
            texts.replaceSubrange(prefix..<oldEnd, with: (prefix..<newEnd).map { folding.searchText(of: newRecords[$0]) })
        }
        records = newRecords
        return self
    }

    func foldQuery(_ words: [String]) -> [[UInt8]] {
        words.map { folding.fold($0) }
    }

    /// Whether every word occurs in record `index`'s text.
    func matches(_ index: Int, words: [[UInt8]]) -> Bool {
        let text = texts[index]
        return words.allSatisfy { word in Self.contains(text, word) }
    }

    /// A plain byte search: `memchr` for the first byte, then a compare. (glibc's `memmem`
    /// is a GNU extension Swift's Glibc module does not export.)
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let first = Int32(n[0])
                let last = h.count - n.count
                var i = 0
                while i <= last {
                    guard let found = memchr(h.baseAddress! + i, first, last - i + 1) else { return false }
                    let at = h.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(h.baseAddress! + at, n.baseAddress!, n.count) == 0 { return true }
                    i = at + 1
                }
                return false
            }
        }
    }

    public static func == (a: SearchIndex, b: SearchIndex) -> Bool { a === b }
}
