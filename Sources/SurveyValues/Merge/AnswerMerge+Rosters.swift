/// A roster (an array of member dictionaries) changed on both sides merges member by member
/// (issue 28): each side's members are matched to the base's (`MemberAlignment`: by content,
/// or by their own ids when every member has one), then each base member is merged as any
/// dictionary, field by field, at its place in the merged list (`member[2]/age`). A member
/// added on either side is kept; one deleted on one side and unchanged on the other is gone;
/// one deleted on one side and edited on the other is a conflict on that member
/// (`member[2]`, one side nil), kept as edited meanwhile, so nothing is lost.
///
/// Order: each side's own order kept, the base's members first where that leaves it open,
/// the same member added on both sides kept once (`RosterOrder`).
///
/// One conflict on the roster as a whole (the choice between two lists) only where members
/// cannot be told apart or placed: both sides moved members, `MemberAlignment` cannot say
/// which is which, the two orders contradict each other, or, with no common version, the
/// sides differ in count or ids.
extension AnswerMerge {
    /// The keys a member may carry its own id under, as ODK's repeat instances and other
    /// tools name them; the first one every member has is used.
    public static let memberIDKeys = [Record.instanceIDKey, "memberID", "uuid"]

    /// The merged members, or nil when the roster must be one conflict.
    static func mergeRoster(base: PropertyValue?, hasBase: Bool, mine: [PropertyValue], theirs: [PropertyValue],
                            at path: SyncFieldPath, conflicts: inout [FieldConflict]) -> [PropertyValue]? {
        guard let mineMembers = PropertyValue.array(mine).members, let theirMembers = PropertyValue.array(theirs).members else { return nil }
        guard hasBase else { return mergeWithoutBase(mineMembers, theirMembers, at: path, conflicts: &conflicts) }
        guard let baseMembers = base?.members else { return nil }
        let sides = [baseMembers, mineMembers, theirMembers]
        let mineSide: MemberAlignment, theirSide: MemberAlignment
        if let key = idKey(sides) {
            mineSide = MemberAlignment(side: mineMembers, base: baseMembers, idKey: key)
            theirSide = MemberAlignment(side: theirMembers, base: baseMembers, idKey: key)
        } else {
            guard let mineByContent = MemberAlignment(side: mineMembers, base: baseMembers),
                  let theirsByContent = MemberAlignment(side: theirMembers, base: baseMembers) else { return nil }
            mineSide = mineByContent
            theirSide = theirsByContent
        }
        guard !(mineSide.reordered && theirSide.reordered) else { return nil }

        // Each base member: merged from both sides, kept as edited against a delete, or gone.
        func held(_ j: Int) -> (mine: [String: PropertyValue]?, theirs: [String: PropertyValue]?) {
            (mineSide.place[j].map { mineMembers[$0] }, theirSide.place[j].map { theirMembers[$0] })
        }
        func survives(_ j: Int) -> Bool {
            switch held(j) {
            case (_?, _?): true
            case (nil, nil): false
            case (let kept?, nil), (nil, let kept?): kept != baseMembers[j]
            }
        }
        guard let order = RosterOrder.merged(mine: mineSide, mineMembers, theirs: theirSide, theirMembers,
                                             baseCount: baseMembers.count) else { return nil }
        func merged(_ j: Int, at place: SyncFieldPath) -> PropertyValue {
            let before = PropertyValue.dictionary(baseMembers[j])
            switch held(j) {
            case (let mine?, let theirs?):
                return mergeValue(base: before, hasBase: true, mine: .dictionary(mine), theirs: .dictionary(theirs),
                                  at: place, conflicts: &conflicts) ?? .dictionary(mine)
            case (let mine, let theirs):
                // Deleted on one side, edited on the other (`survives`); gone on both never comes here.
                conflicts.append(FieldConflict(path: place, base: before, mine: mine.map { .dictionary($0) },
                                               theirs: theirs.map { .dictionary($0) }))
                return .dictionary(mine ?? theirs ?? baseMembers[j])
            }
        }
        let kept = order.filter { item in
            if case .base(let j) = item { return survives(j) }
            return true
        }
        return kept.enumerated().map { k, item in
            switch item {
            case .base(let j): merged(j, at: path.appending(.index(k)))
            case .mine(let p): .dictionary(mineMembers[p])
            case .theirs(let p): .dictionary(theirMembers[p])
            }
        }
    }

    /// The first of `memberIDKeys` under which every member of every version has an id,
    /// unique within each version.
    static func idKey(_ sides: [[[String: PropertyValue]]]) -> String? {
        memberIDKeys.first { key in
            sides.allSatisfy { members in
                let ids = members.compactMap { MemberAlignment.id(of: $0, key: key) }
                return ids.count == members.count && Set(ids).count == ids.count
            }
        }
    }

    /// Two copies that never met: member by member by id when every member has one and both
    /// hold the same ones (mine's order), else by place when both hold as many.
    private static func mergeWithoutBase(_ mine: [[String: PropertyValue]], _ theirs: [[String: PropertyValue]],
                                         at path: SyncFieldPath, conflicts: inout [FieldConflict]) -> [PropertyValue]? {
        var pairs: [(mine: [String: PropertyValue], theirs: [String: PropertyValue])]
        if let key = idKey([mine, theirs]) {
            let theirsByID = Dictionary(uniqueKeysWithValues: theirs.map { (MemberAlignment.id(of: $0, key: key)!, $0) })
            guard mine.count == theirs.count else { return nil }
            pairs = []
            for member in mine {
                guard let other = theirsByID[MemberAlignment.id(of: member, key: key)!] else { return nil }
                pairs.append((member, other))
            }
        } else {
            guard mine.count == theirs.count else { return nil }
            pairs = Array(zip(mine, theirs))
        }
        return pairs.enumerated().map { index, pair in
            .dictionary(mergeEntries(base: nil, mine: pair.mine, theirs: pair.theirs,
                                     at: path.appending(.index(index)), conflicts: &conflicts))
        }
    }
}
