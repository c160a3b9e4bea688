import FoundationEssentials

/// The rest of a `/` search that one key could not finish: a query that a million surveys
/// match took 27–70 ms to search them all, so the key finds only the first screenfuls
/// (`SearchIndex.firstMatches`) and the title says "matching…" while the runtime finishes the
/// search on another thread (`Effect.finishSearch`, the runtime's `.search` lane); the update core itself starts no
/// thread. A newer query makes a newer job, and the older one stops at its next slice.
public struct SearchJob: Equatable, Sendable {
    /// Which search of the list this is: a result is taken only for the latest one.
    public let generation: Int
    /// The index searched (its identity tells one document's search from another's).
    let index: SearchIndex
    let texts: SearchTexts
    let text: String
    let words: [[UInt8]]
    let keep: Set<Int>
    /// The matches found during the key, all before `rest`.
    let found: [Int]
    let rest: SearchCandidates
    let recordCount: Int
    /// The list is in entry order (else sorted, without sections).
    let ascending: Bool

    /// The same search of the same list (a copy of this job).
    public func isSame(as other: SearchJob?) -> Bool {
        other.map { $0.generation == generation && $0.index === index } ?? false
    }

    /// Two jobs are equal when they are the same search of the same list.
    public static func == (a: SearchJob, b: SearchJob) -> Bool { a.isSame(as: b) }

    /// Searches the rest in slices, asking `isCancelled` between them; nil when cancelled.
    /// `processors`: the runtime leaves one to the keyboard, as the index's build does.
    public func run(processors: Int = ProcessInfo.processInfo.activeProcessorCount, isCancelled: () -> Bool) -> FinishedSearch? {
        var matches = found
        let slice = 1 << 17
        var from = 0
        while from < rest.count {
            if isCancelled() { return nil }
            let to = min(rest.count, from + slice)
            matches += texts.matching(rest, in: from..<to, words: words, keep: keep, processors: processors)
            from = to
        }
        return FinishedSearch(generation: generation, index: index, matches: matches,
                              projection: ListProjection(shown: matches, recordCount: recordCount, ascending: ascending))
    }
}

/// A finished `SearchJob`: every match, and the list's projection of them, built on the
/// job's thread so that taking it costs the key nothing.
public struct FinishedSearch: Equatable, Sendable {
    public let generation: Int
    let index: SearchIndex
    let matches: [Int]
    let projection: ListProjection

    public static func == (a: FinishedSearch, b: FinishedSearch) -> Bool {
        a.generation == b.generation && a.index === b.index && a.matches == b.matches
    }
}

/// When a search is left to a `SearchJob`: from `threshold` candidates, the key looks at
/// no more than `budget` of them for the first `limit` matches (a few screenfuls). 20,000,
/// not 50,000: at a million, a key narrowing the 45,000 matches of "jacks" searched them all
/// on the main thread, and those texts lie scattered over 80 MB, so it took 8–12 ms through
/// the terminal (every key after the index came); now it stops at its 200th match. A list of
/// 10,000 is still searched whole by each key (contiguous texts: a millisecond or two).
struct SearchWindow: Equatable, Sendable {
    var threshold = 20_000
    var limit = 200
    var budget = 20_000
}
