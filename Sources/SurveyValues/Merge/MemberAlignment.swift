/// Which of the base's members each member of one side of a roster merge is (issue 28), so a
/// member added on one laptop and another edited elsewhere merge member by member, and an
/// answer never lands on another person.
///
/// Members carry no id of their own (ODK's repeat instances have none), so a member is the
/// person its answers describe, found against the base, the version both sides last agreed on:
/// - a member unchanged on the side (equal to a base member) is that member, wherever it is;
/// - between two such members (a stretch), a member the base does not hold is a base member
///   of the same stretch edited when at least half of that base member's answers are still
///   there: at the same place in the stretch when every member of it is such an edit, else
///   of the ways to pair them in order, the one keeping the most answers;
/// - any other member was added on the side, and a base member not found was deleted there
///   (on a side that moved members, whose stretches say nothing, every member not as it was).
/// Where every member of the three versions has its own id under the same key (another tool's
/// `instanceID`, `memberID` or `uuid`), the id says it instead.
///
/// Nil (the roster is then one conflict, the choice between two whole lists) when it cannot be
/// said: a member the base holds twice, identical, kept fewer times on the side (which copy
/// went?), or a stretch too large to pair (`pairingLimit`).
package struct MemberAlignment {
    /// For each member of the side, the base member it is; nil: added on that side.
    var baseIndex: [Int?]
    /// For each base member, its place on the side; nil: deleted there.
    var place: [Int?]
    /// The base's members the side kept are not in the base's order: a member was moved.
    var reordered: Bool

    /// Side members times base members, over all stretches, that are compared for edits
    /// where members were also added or deleted among them: a household pairs a few dozen;
    /// a roster of thousands so changed is one conflict rather than a long stall.
    static let pairingLimit = 40_000

    /// By each member's own id under `idKey` (every member has one, each side's unique).
    init(side: [[String: PropertyValue]], base: [[String: PropertyValue]], idKey: String) {
        var baseByID: [String: Int] = [:]
        for (j, member) in base.enumerated() { if let id = Self.id(of: member, key: idKey) { baseByID[id] = j } }
        self.init(baseIndex: side.map { Self.id(of: $0, key: idKey).flatMap { baseByID[$0] } }, baseCount: base.count)
    }

    /// By content, as the type's comment says.
    init?(side: [[String: PropertyValue]], base: [[String: PropertyValue]]) {
        var places: [MemberKey: [Int]] = [:]
        for (j, member) in base.enumerated() { places[MemberKey(member), default: []].append(j) }
        var taken: [MemberKey: Int] = [:]
        var baseIndex = [Int?](repeating: nil, count: side.count)
        for (p, member) in side.enumerated() {
            let key = MemberKey(member)
            guard let candidates = places[key] else { continue }
            let next = taken[key, default: 0]
            if next < candidates.count {
                baseIndex[p] = candidates[next]
                taken[key] = next + 1
            }
        }
        for (key, candidates) in places where candidates.count > 1 && taken[key, default: 0] < candidates.count { return nil }
        let kept = baseIndex.compactMap { $0 }
        if zip(kept, kept.dropFirst()).allSatisfy({ $0 < $1 }) {
            // Edited members, stretch by stretch between the unchanged ones.
            var budget = Self.pairingLimit
            var previous = (side: -1, base: -1)
            let anchors = baseIndex.enumerated().compactMap { p, j in j.map { (side: p, base: $0) } }
            for anchor in anchors + [(side: side.count, base: base.count)] {
                let sideStretch = (previous.side + 1)..<anchor.side
                let baseStretch = (previous.base + 1)..<anchor.base
                previous = anchor
                guard !sideStretch.isEmpty, !baseStretch.isEmpty else { continue }
                // Each member edited in place (a calculation a new form version changed in
                // every member): paired at once, at any size.
                if sideStretch.count == baseStretch.count,
                   zip(sideStretch, baseStretch).allSatisfy({ Self.kept(base[$1], in: side[$0]) != nil }) {
                    for (p, j) in zip(sideStretch, baseStretch) { baseIndex[p] = j }
                    continue
                }
                budget -= sideStretch.count * baseStretch.count
                guard budget >= 0 else { return nil }
                for (p, j) in Self.pairs(side, sideStretch, base, baseStretch) { baseIndex[p] = j }
            }
        }
        self.init(baseIndex: baseIndex, baseCount: base.count)
    }

    private init(baseIndex: [Int?], baseCount: Int) {
        self.baseIndex = baseIndex
        place = [Int?](repeating: nil, count: baseCount)
        for (p, j) in baseIndex.enumerated() { if let j { place[j] = p } }
        let kept = baseIndex.compactMap { $0 }
        reordered = zip(kept, kept.dropFirst()).contains { $0 > $1 }
    }

    /// The base's members of a stretch paired, in order, with the side's members that are
    /// they edited: the pairing keeping the most answers (a weighted longest common
    /// subsequence), where a pair is allowed when at least half the base member's answers
    /// are unchanged in the side's.
    private static func pairs(_ side: [[String: PropertyValue]], _ sideStretch: Range<Int>,
                              _ base: [[String: PropertyValue]], _ baseStretch: Range<Int>) -> [(Int, Int)] {
        let s = Array(sideStretch), b = Array(baseStretch)
        // weight[x][y] > 0: side s[x] may be base b[y] edited, worth its kept answers plus one.
        var weight = [[Int]](repeating: [Int](repeating: 0, count: b.count), count: s.count)
        for x in s.indices {
            for y in b.indices {
                if let kept = kept(base[b[y]], in: side[s[x]]) { weight[x][y] = kept + 1 }
            }
        }
        var best = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: s.count + 1)
        for x in s.indices {
            for y in b.indices {
                var value = max(best[x][y + 1], best[x + 1][y])
                if weight[x][y] > 0 { value = max(value, best[x][y] + weight[x][y]) }
                best[x + 1][y + 1] = value
            }
        }
        var found: [(Int, Int)] = []
        var x = s.count, y = b.count
        while x > 0, y > 0 {
            if weight[x - 1][y - 1] > 0, best[x][y] == best[x - 1][y - 1] + weight[x - 1][y - 1] {
                found.append((s[x - 1], b[y - 1]))
                x -= 1
                y -= 1
            } else if best[x][y] == best[x - 1][y] {
                x -= 1
            } else {
                y -= 1
            }
        }
        return found
    }

    /// Whether `after` may be `before`, unchanged or edited: the rule members are found by.
    package static func mayBe(_ before: [String: PropertyValue], _ after: [String: PropertyValue]) -> Bool {
        kept(before, in: after) != nil
    }

    /// How many of `before`'s answers `after` keeps, when that is at least half of them (so
    /// `after` may be `before` edited); nil otherwise.
    private static func kept(_ before: [String: PropertyValue], in after: [String: PropertyValue]) -> Int? {
        let kept = before.reduce(0) { $0 + (after[$1.key] == $1.value ? 1 : 0) }
        return 2 * kept >= before.count ? kept : nil
    }

    static func id(of member: [String: PropertyValue], key: String) -> String? {
        if case .string(let id)? = member[key], !id.isEmpty { return id }
        return nil
    }
}

/// A member as a dictionary key: hashed as `PropertyValue`'s `==` compares (a NaN equals a
/// NaN; a dictionary's entries in any order), so unchanged members are found in one pass.
struct MemberKey: Hashable {
    let member: [String: PropertyValue]

    init(_ member: [String: PropertyValue]) { self.member = member }

    static func == (a: MemberKey, b: MemberKey) -> Bool { a.member == b.member }

    func hash(into hasher: inout Hasher) { Self.hash(.dictionary(member), into: &hasher) }

    private static func hash(_ value: PropertyValue, into hasher: inout Hasher) {
        switch value {
        case .string(let text): hasher.combine(0); hasher.combine(text)
        case .integer(let number): hasher.combine(1); hasher.combine(number)
        case .real(let number): hasher.combine(2); if number.isNaN { hasher.combine(-1) } else { hasher.combine(number) }
        case .bool(let flag): hasher.combine(3); hasher.combine(flag)
        case .date(let date): hasher.combine(4); hasher.combine(date)
        case .data(let data): hasher.combine(5); hasher.combine(data)
        case .array(let items):
            hasher.combine(6)
            hasher.combine(items.count)
            for item in items { hash(item, into: &hasher) }
        case .dictionary(let entries):
            // Order-free: the entries' own hashes summed.
            var sum = 0
            for (key, item) in entries {
                var inner = Hasher()
                inner.combine(key)
                hash(item, into: &inner)
                sum &+= inner.finalize()
            }
            hasher.combine(7)
            hasher.combine(entries.count)
            hasher.combine(sum)
        }
    }
}
