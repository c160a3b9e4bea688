/// The surveys a search has still to look at, in the list's order: a few listed ones (`head`),
/// then a stretch of a longer list (`list` from `listStart` on: a previous search's matches,
/// shared, never copied), then every survey of `range`. A search stopped part way (`SearchIndex
/// .firstMatches`) leaves one of these, and the query typed next narrows the matches found so
/// far followed by what was left: three parts, so that neither step copies a million indices.
struct SearchCandidates: Equatable, Sendable {
    var head: [Int] = []
    var list: [Int] = []
    var listStart = 0
    var range: Range<Int> = 0..<0

    /// Every survey of a list of `count`.
    static func all(_ count: Int) -> SearchCandidates { SearchCandidates(range: 0..<count) }

    /// Exactly `indices`, in their order.
    static func only(_ indices: [Int]) -> SearchCandidates { SearchCandidates(list: indices) }

    var count: Int { head.count + (list.count - listStart) + range.count }

    /// Every candidate, as one list.
    var indices: [Int] {
        if head.isEmpty, listStart == 0, range.isEmpty { return list }
        return head + list[listStart...] + Array(range)
    }

    /// The `c`th candidate.
    subscript(c: Int) -> Int {
        if c < head.count { return head[c] }
        let inList = c - head.count + listStart
        if inList < list.count { return list[inList] }
        return range.lowerBound + (inList - list.count)
    }

    /// The candidates from the `c`th on.
    func dropping(_ c: Int) -> SearchCandidates {
        if c <= head.count { return SearchCandidates(head: Array(head[c...]), list: list, listStart: listStart, range: range) }
        let inList = c - head.count + listStart
        if inList <= list.count { return SearchCandidates(list: list, listStart: inList, range: range) }
        return SearchCandidates(range: (range.lowerBound + inList - list.count)..<range.upperBound)
    }

    /// `found` (all before these candidates) followed by these.
    func after(_ found: [Int]) -> SearchCandidates {
        var next = self
        next.head = found + head
        return next
    }
}
