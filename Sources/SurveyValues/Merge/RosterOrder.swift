/// The order of a roster merged member by member (issue 28): every member either side
/// holds, in an order that keeps each side's own order (a member one side added after Tom
/// stays after Tom), found as a topological order of the two sides' sequences. Where they
/// leave it open, the base's members come first, in the base's order, then members added,
/// in the order of their answers' text, so both laptops compute the same roster whichever
/// merges the other's (either side first would swap two laptops' additions at every merge);
/// a run of members one side added stays together. A member both sides added, the same, is
/// one member (after a USB merge the base is the other side's version, so what one laptop
/// added before it is an addition on both).
///
/// When one side moved members (`MemberAlignment.reordered`) its order of the base's
/// members is followed; the other side's members added are placed after the one they
/// followed there. Nil when the sides' orders contradict each other (the same member added
/// before Tom on one side and after him on the other): the roster is then one conflict.
enum RosterOrder {
    enum Item: Equatable {
        /// The base's member at this place (possibly deleted on a side).
        case base(Int)
        /// A member added on my side (or on both), at this place of mine.
        case mine(Int)
        /// A member added on the other side only, at this place of theirs.
        case theirs(Int)
    }

    static func merged(mine: MemberAlignment, _ mineMembers: [[String: PropertyValue]],
                       theirs: MemberAlignment, _ theirMembers: [[String: PropertyValue]], baseCount n: Int) -> [Item]? {
        let m = mineMembers.count
        // Nodes: base member j is j; my member p added is n + p; theirs p is n + m + p.
        func item(_ node: Int) -> Item { node < n ? .base(node) : node < n + m ? .mine(node - n) : .theirs(node - n - m) }

        // The same member added on both sides: theirs is mine's node.
        var addedHere: [MemberKey: [Int]] = [:]
        for p in mineMembers.indices where mine.baseIndex[p] == nil {
            addedHere[MemberKey(mineMembers[p]), default: []].append(p)
        }
        var taken: [MemberKey: Int] = [:]
        let mineChain = mineMembers.indices.map { p in mine.baseIndex[p] ?? n + p }
        let theirsChain = theirMembers.indices.map { p -> Int in
            if let j = theirs.baseIndex[p] { return j }
            let key = MemberKey(theirMembers[p])
            let next = taken[key, default: 0]
            if let places = addedHere[key], next < places.count {
                taken[key] = next + 1
                return n + places[next]
            }
            return n + m + p
        }

        let count = n + m + theirMembers.count
        var present = [Bool](repeating: false, count: count)
        for node in mineChain + theirsChain { present[node] = true }
        var successors = [[Int]](repeating: [], count: count)
        var predecessors = [Int](repeating: 0, count: count)
        func edge(_ a: Int, _ b: Int) {
            successors[a].append(b)
            predecessors[b] += 1
        }
        let spine: MemberAlignment? = mine.reordered ? mine : theirs.reordered ? theirs : nil
        for (chain, isSpine) in [(mineChain, mine.reordered), (theirsChain, theirs.reordered)] {
            for (a, b) in zip(chain, chain.dropFirst()) {
                // Beside a side that moved members, this one's order of the base's is not kept.
                if spine != nil, !isSpine, b < n { continue }
                edge(a, b)
            }
        }
        if let spine {
            // A base member the moving side deleted stays after the one before it in the base.
            var previous: Int?
            for j in 0..<n where present[j] {
                if spine.place[j] == nil, let previous { edge(previous, j) }
                previous = j
            }
        }

        // Where the orders leave it open: base members by place, then members added by text.
        var priority = [Int](repeating: 0, count: count)
        for j in 0..<n { priority[j] = j }
        let added = (n..<count).filter { present[$0] }
        let texts = Dictionary(uniqueKeysWithValues: added.map { node -> (Int, String) in
            let member = node < n + m ? mineMembers[node - n] : theirMembers[node - n - m]
            return (node, PropertyValue.dictionary(member).jsonText())
        })
        for (rank, node) in added.sorted(by: { (texts[$0]!, $0) < (texts[$1]!, $1) }).enumerated() { priority[node] = n + rank }

        // Kahn's algorithm; after each member, one that may follow it right away goes first.
        var open = MinHeap(priority: priority)
        for node in 0..<count where present[node] && predecessors[node] == 0 { open.push(node) }
        var order: [Item] = []
        var next: Int? = open.pop()
        while let node = next {
            order.append(item(node))
            var fresh: Int?
            for successor in successors[node] {
                predecessors[successor] -= 1
                guard predecessors[successor] == 0 else { continue }
                if let best = fresh, priority[best] <= priority[successor] {
                    open.push(successor)
                } else {
                    if let best = fresh { open.push(best) }
                    fresh = successor
                }
            }
            next = fresh ?? open.pop()
        }
        return order.count == present.count(where: { $0 }) ? order : nil
    }
}

/// The nodes ready to be placed, least priority first.
private struct MinHeap {
    let priority: [Int]
    private var items: [Int] = []

    init(priority: [Int]) { self.priority = priority }

    mutating func push(_ node: Int) {
        items.append(node)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard priority[items[child]] < priority[items[parent]] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Int? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var least = parent
            if left < items.count, priority[items[left]] < priority[items[least]] { least = left }
            if right < items.count, priority[items[right]] < priority[items[least]] { least = right }
            guard least != parent else { return top }
            items.swapAt(parent, least)
            parent = least
        }
    }
}
