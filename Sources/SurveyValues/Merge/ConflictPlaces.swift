/// Where, in a survey as it is now, the answers its conflicts name are. A conflict's path is a
/// place in the survey as the pull left it (`member[2]/age`); the app may delete or add a
/// member since, and another person then stands at that place: an answer read or written there
/// would be that person's. So a member is found by who it is, as a merge finds it
/// (`MemberAlignment`):
/// - the conflicts inside a roster's members are paired, in order, with the members of their
///   version (`SyncLedger.Conflict.theirs`) that hold what each conflict recorded (their value,
///   and the base's member's), a member whose answer here is still the one the pull found
///   preferred (two children whose school answer clashed alike are told apart by their order);
/// - that member of theirs is then found in the survey now, as a merge pairs two versions;
/// - a member deleted there and edited here (not in theirs) is the one here, not theirs, that
///   may be the member the pull kept.
///
/// Nothing is guessed: a member not in the survey now (deleted since, or changed past
/// recognition) is `gone`, one that cannot be told from another is `unclear`, and the callers
/// neither show nor write another member's answer for either.
public struct ConflictPlaces {
    public enum Place: Equatable, Sendable {
        /// The answer (or member) is at this path now.
        case at(SyncFieldPath)
        /// Its member is not in the survey here now.
        case gone
        /// Its member cannot be told from another (members alike, or too changed to pair).
        case unclear
    }

    private let fields: [FieldConflict]
    private let base: PropertyValue?
    private let theirs: PropertyValue
    private let now: PropertyValue
    /// The members found in each roster, by the roster's path and then the member's place as
    /// the pull left them: a listing asks for every conflict of a roster, which is paired once.
    private var found: [[SyncFieldPath.Step]: [Int: Found]] = [:]

    private enum Found {
        case member(base: Int?, theirs: Int?, now: Int)
        case gone
        case unclear
    }

    /// Rosters' conflicts times their version's members compared at most: past it, a roster's
    /// conflicts are `unclear` (shown as the pull found them, settled in the app) rather than a
    /// long stall.
    static let pairingLimit = 4_000_000

    /// `fields`: the survey's conflicts still open (each member's tell what it is); `base`: the
    /// version both sides last agreed on (nil: none); `theirs`: the version the conflicts are
    /// with; `now`: the survey's answers here.
    public init(fields: [FieldConflict], base: [String: PropertyValue]?, theirs: [String: PropertyValue],
                now: [String: PropertyValue]) {
        self.fields = fields
        self.base = base.map { .dictionary($0) }
        self.theirs = .dictionary(theirs)
        self.now = .dictionary(now)
    }

    /// Where the conflict recorded at `path` is now: the same path when it is inside no member.
    public mutating func place(of path: SyncFieldPath) -> Place {
        guard path.hasPlace else { return .at(path) }
        var base: PropertyValue? = base, theirs: PropertyValue? = theirs, now: PropertyValue? = now
        var recorded: [SyncFieldPath.Step] = [], here: [SyncFieldPath.Step] = []
        for step in path.steps {
            switch step {
            case .key:
                base = base?.value(at: SyncFieldPath([step]))
                theirs = theirs?.value(at: SyncFieldPath([step]))
                now = now?.value(at: SyncFieldPath([step]))
            case .index(let k):
                guard case .array(let nowItems)? = now else { return .gone }
                if found[recorded] == nil {
                    found[recorded] = members(in: recorded, base: base?.members, theirs: theirs?.members, now: now?.members)
                }
                switch found[recorded]?[k] ?? .unclear {
                case .gone: return .gone
                case .unclear: return .unclear
                case .member(let b, let t, let n):
                    base = b.flatMap { base?.value(at: SyncFieldPath([.index($0)])) }
                    theirs = t.flatMap { theirs?.value(at: SyncFieldPath([.index($0)])) }
                    now = nowItems[n]
                    recorded.append(step)
                    here.append(.index(n))
                    continue
                }
            }
            recorded.append(step)
            here.append(step)
        }
        return .at(SyncFieldPath(here))
    }

    /// Each conflicted member of the roster at `roster` (as the pull left it), by its place then.
    private func members(in roster: [SyncFieldPath.Step], base: [[String: PropertyValue]]?,
                         theirs: [[String: PropertyValue]]?, now: [[String: PropertyValue]]?) -> [Int: Found] {
        var groups: [Int: [(rest: ArraySlice<SyncFieldPath.Step>, field: FieldConflict)]] = [:]
        for field in fields where field.path.steps.count > roster.count && field.path.steps.starts(with: roster) {
            guard case .index(let k) = field.path.steps[roster.count] else { continue }
            groups[k, default: []].append((field.path.steps[(roster.count + 1)...], field))
        }
        guard let now, let theirs, let nowAlignment = Self.alignment(side: now, base: theirs) else { return [:] }
        var result: [Int: Found] = [:]
        var held: [(place: Int, group: [(rest: ArraySlice<SyncFieldPath.Step>, field: FieldConflict)])] = []
        for (k, group) in groups.sorted(by: { $0.key < $1.key }) {
            if let deletedThere = group.first(where: { $0.rest.isEmpty && $0.field.theirs == nil }) {
                result[k] = Self.keptHere(deletedThere.field.mine, recordedAt: k, now: now, nowAlignment: nowAlignment)
            } else {
                held.append((k, group))
            }
        }
        guard !held.isEmpty else { return result }
        let theirsAlignment = base.flatMap { Self.alignment(side: theirs, base: $0) }

        // How well each of their members fits each conflicted member: 0 not at all; 2 it holds
        // what the conflicts recorded; 3 and the answers here are still the pull's.
        var weights: [[(column: Int, weight: Int)]] = []
        var used = Set<Int>()
        // The base's member their member `c` is (nil: added there), if known: their members
        // not paired with the base's are told by their own answers alone.
        func baseMember(_ c: Int) -> PropertyValue?? {
            guard let base else { return .some(nil) }
            return theirsAlignment.map { alignment in alignment.baseIndex[c].map { .dictionary(base[$0]) } }
        }
        for (_, group) in held {
            var row: [(column: Int, weight: Int)] = []
            for (c, member) in theirs.enumerated() {
                let before = baseMember(c)
                let fits = group.allSatisfy { rest, field in
                    Self.holds(.dictionary(member), rest, field.theirs) && (before.map { Self.holds($0, rest, field.base) } ?? true)
                }
                guard fits else { continue }
                let unchanged = nowAlignment.place[c].map { p in
                    group.allSatisfy { rest, field in Self.holds(.dictionary(now[p]), rest, rest.isEmpty ? field.mine ?? field.theirs : field.mine) }
                } ?? false
                row.append((c, unchanged ? 3 : 2))
                used.insert(c)
            }
            weights.append(row)
        }
        let columns = used.sorted()
        guard held.count * columns.count <= Self.pairingLimit else {
            for (k, _) in held { result[k] = .unclear }
            return result
        }
        let paired = Self.pairs(weights, columns: columns)
        for (r, (k, group)) in held.enumerated() {
            guard let c = paired[r] else { result[k] = .unclear; continue }
            // Another member fitting as well, where this one's neighbours leave room: unclear.
            let lower = paired[..<r].last(where: { $0 != nil }).flatMap { $0 } ?? -1
            let upper = paired[(r + 1)...].first(where: { $0 != nil }).flatMap { $0 } ?? theirs.count
            // Another member fitting too, where this one's neighbours leave room: this one is
            // taken only for holding what the pull kept here (weight 3) while each other stands
            // as the pull left it (their answer) — not one deleted or keyed since, which a member
            // keyed since to the value the pull kept here would otherwise be taken over.
            let mine = weights[r].first { $0.column == c }!.weight
            let rivals = weights[r].filter { $0.column != c && $0.column > lower && $0.column < upper }
            let rivalsAsPulled = mine == 3 && rivals.allSatisfy { rival in
                guard let p = nowAlignment.place[rival.column] else { return false }
                return group.allSatisfy { rest, field in Self.holds(.dictionary(now[p]), rest, field.theirs) }
            }
            if !rivals.isEmpty && !rivalsAsPulled {
                result[k] = .unclear
            } else if let p = nowAlignment.place[c] {
                result[k] = .member(base: theirsAlignment?.baseIndex[c], theirs: c, now: p)
            } else {
                result[k] = .gone
            }
        }
        return result
    }

    /// A member deleted there and edited here, kept by the pull as `kept`: the member here,
    /// none of theirs, that may be it; when more may, the one still exactly as it was, else
    /// none (unclear). Never the one at its place: a member added since may stand there.
    private static func keptHere(_ kept: PropertyValue?, recordedAt k: Int, now: [[String: PropertyValue]],
                                 nowAlignment: MemberAlignment) -> Found {
        guard case .dictionary(let kept)? = kept else { return .unclear }
        var candidates = now.indices.filter { nowAlignment.baseIndex[$0] == nil && MemberAlignment.mayBe(kept, now[$0]) }
        let exact = candidates.filter { now[$0] == kept }
        if exact.count == 1 { candidates = exact }
        switch candidates.count {
        case 0: return .gone
        case 1: return .member(base: nil, theirs: nil, now: candidates[0])
        default: return .unclear
        }
    }

    /// For each row, the column paired with it: the pairing, in order on both sides, of the
    /// greatest weight (a weighted longest common subsequence, as `MemberAlignment` pairs).
    private static func pairs(_ weights: [[(column: Int, weight: Int)]], columns: [Int]) -> [Int?] {
        let at = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        var weight = [[Int]](repeating: [Int](repeating: 0, count: columns.count), count: weights.count)
        for (r, row) in weights.enumerated() { for (c, w) in row { weight[r][at[c]!] = w } }
        var best = [[Int]](repeating: [Int](repeating: 0, count: columns.count + 1), count: weights.count + 1)
        for r in weights.indices {
            for y in columns.indices {
                var value = max(best[r][y + 1], best[r + 1][y])
                if weight[r][y] > 0 { value = max(value, best[r][y] + weight[r][y]) }
                best[r + 1][y + 1] = value
            }
        }
        var paired = [Int?](repeating: nil, count: weights.count)
        var r = weights.count, y = columns.count
        while r > 0, y > 0 {
            if weight[r - 1][y - 1] > 0, best[r][y] == best[r - 1][y - 1] + weight[r - 1][y - 1] {
                paired[r - 1] = columns[y - 1]
                r -= 1
                y -= 1
            } else if best[r][y] == best[r - 1][y] {
                r -= 1
            } else {
                y -= 1
            }
        }
        return paired
    }

    /// Whether `value` holds `expected` at `rest` (nil: absent there); a place in a roster
    /// inside it may be any member's (it too is a place the pull left).
    private static func holds(_ value: PropertyValue?, _ rest: ArraySlice<SyncFieldPath.Step>, _ expected: PropertyValue?) -> Bool {
        guard let step = rest.first else { return value == expected }
        switch (step, value) {
        case (.key(let key), .dictionary(let entries)?): return holds(entries[key], rest.dropFirst(), expected)
        case (.index, .array(let items)?): return items.contains { holds($0, rest.dropFirst(), expected) }
        default: return expected == nil
        }
    }

    /// Which of `base`'s members each of `side`'s is, as a merge pairs them.
    private static func alignment(side: [[String: PropertyValue]], base: [[String: PropertyValue]]) -> MemberAlignment? {
        if let key = AnswerMerge.idKey([base, side]) { return MemberAlignment(side: side, base: base, idKey: key) }
        return MemberAlignment(side: side, base: base)
    }
}
