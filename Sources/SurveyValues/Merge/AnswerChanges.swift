/// One answer that differs between two versions of a survey: where (`member[2]/age`), what it
/// was and what it became; nil on a side that did not hold it (an answer added or removed, a
/// roster member added or deleted).
public struct AnswerChange: Equatable, Sendable {
    public var path: SyncFieldPath
    public var old: PropertyValue?
    public var new: PropertyValue?

    public init(path: SyncFieldPath, old: PropertyValue?, new: PropertyValue?) {
        self.path = path
        self.old = old
        self.new = new
    }
}

/// What changed from one version of a survey's answers to the next (issue 31, edit history),
/// as ODK Central's submission diffs say it: each answer that differs, by its path, old and
/// new; a member added or deleted whole, as one change of the member.
///
/// Rosters' members are paired as a merge pairs them (`MemberAlignment`: by their own ids when
/// every member has one, else by content), so a member deleted from the middle is one deleted
/// member, not every later member changed; where they cannot be paired, by place. As in
/// Central, an edited or deleted member is named by its place in the old version, an added one
/// by its place in the new. Answers in name order, members in order.
///
/// Answers come from the network: the values are walked with a stack, never by recursion, and
/// only a leaf (text, a number, a date, a list of them) is compared whole. Members are paired
/// by content (which hashes them) only when both versions nest no deeper than a laptop keeps
/// (`SetAsideRow.maximumAnswerDepth`).
public enum AnswerChanges {
    public static func between(_ old: [String: PropertyValue], _ new: [String: PropertyValue]) -> [AnswerChange] {
        let limit = SetAsideRow.maximumAnswerDepth
        let shallow = !PropertyValue.storedNesting(of: old, exceeds: limit) && !PropertyValue.storedNesting(of: new, exceeds: limit)
        var changes: [AnswerChange] = []
        // Popped last first: each container pushes its parts in reverse, so they come in order.
        var stack: [(old: PropertyValue?, new: PropertyValue?, path: SyncFieldPath)] = [(.dictionary(old), .dictionary(new), SyncFieldPath())]
        while let (before, after, path) = stack.popLast() {
            guard let before, let after else {
                changes.append(AnswerChange(path: path, old: before, new: after))
                continue
            }
            switch (before, after) {
            case (.dictionary(let a), .dictionary(let b)):
                for key in Set(a.keys).union(b.keys).sorted().reversed() {
                    stack.append((a[key], b[key], path.appending(.key(key))))
                }
            case (.array(let a), .array(let b)) where !(isLeaf(before) && isLeaf(after)):
                stack.append(contentsOf: pairs(a, b, byContent: shallow).reversed().map { pair in
                    (pair.old.map { a[$0] }, pair.new.map { b[$0] }, path.appending(.index(pair.old ?? pair.new ?? 0)))
                })
            default:
                // Leaves, or two kinds of value: compared whole (a container here is never
                // compared, only carried).
                if !(isLeaf(before) && isLeaf(after) && before == after) {
                    changes.append(AnswerChange(path: path, old: before, new: after))
                }
            }
        }
        return changes
    }

    /// Text, a number, a date, data, or a list of those (a select_multiple's choices).
    static func isLeaf(_ value: PropertyValue) -> Bool {
        switch value {
        case .dictionary: return false
        case .array(let items): return !items.contains { $0.isContainer }
        default: return true
        }
    }

    /// The items of two lists paired, in order: (old place, new place), nil on the side that
    /// lacks it. Rosters (lists of members) as a merge pairs them, else (or when that cannot
    /// be said) by place.
    static func pairs(_ a: [PropertyValue], _ b: [PropertyValue], byContent: Bool) -> [(old: Int?, new: Int?)] {
        if let oldMembers = PropertyValue.array(a).members, let newMembers = PropertyValue.array(b).members,
           let alignment = alignment(old: oldMembers, new: newMembers, byContent: byContent) {
            var pairs: [(old: Int?, new: Int?)] = []
            var nextOld = 0
            func deletedBefore(_ end: Int) {
                while nextOld < end {
                    if alignment.place[nextOld] == nil { pairs.append((nextOld, nil)) }
                    nextOld += 1
                }
            }
            for (p, j) in alignment.baseIndex.enumerated() {
                if let j {
                    deletedBefore(j)
                    pairs.append((j, p))
                    nextOld = max(nextOld, j + 1)
                } else {
                    pairs.append((nil, p))
                }
            }
            deletedBefore(a.count)
            return pairs
        }
        return (0..<max(a.count, b.count)).map { ($0 < a.count ? $0 : nil, $0 < b.count ? $0 : nil) }
    }

    private static func alignment(old: [[String: PropertyValue]], new: [[String: PropertyValue]], byContent: Bool) -> MemberAlignment? {
        if let key = AnswerMerge.idKey([old, new]) { return MemberAlignment(side: new, base: old, idKey: key) }
        return byContent ? MemberAlignment(side: new, base: old) : nil
    }
}
