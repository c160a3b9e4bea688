/// A roster merges member by member only when both sides kept the same members, so an
/// answer can never land on another person: matched by each member's own id when every
/// member has one (`memberIDKeys`), else by place when all sides have the same number and
/// no member moved (one side's member at a place is, unchanged, the base's member of
/// another place: a delete and an add, or a reordering, that kept the count).
/// A member added, removed or moved on one side while the roster changed on the other is
/// one conflict on the roster as a whole (the choice is then between two whole lists).
extension AnswerMerge {
    /// The keys a member may carry its own id under, as ODK's repeat instances and other
    /// tools name them; the first one every member has is used.
    public static let memberIDKeys = [Record.instanceIDKey, "memberID", "uuid"]

    /// The merged members, or nil when the roster must be one conflict.
    static func mergeRoster(base: PropertyValue?, hasBase: Bool, mine: [PropertyValue], theirs: [PropertyValue],
                            at path: SyncFieldPath, conflicts: inout [FieldConflict]) -> [PropertyValue]? {
        guard let mineMembers = PropertyValue.array(mine).members, let theirMembers = PropertyValue.array(theirs).members else { return nil }
        var baseMembers: [[String: PropertyValue]]?
        if hasBase {
            guard let members = base?.members else { return nil }
            baseMembers = members
        }
        let sides = [mineMembers, theirMembers] + (baseMembers.map { [$0] } ?? [])
        if let key = memberIDKeys.first(where: { key in sides.allSatisfy { $0.allSatisfy { id(of: $0, key: key) != nil } } }) {
            let mineIDs = mineMembers.map { id(of: $0, key: key)! }
            guard Set(mineIDs).count == mineIDs.count,
                  sides.allSatisfy({ Set($0.map { id(of: $0, key: key)! }) == Set(mineIDs) && $0.count == mineIDs.count })
            else { return nil }
            let theirsByID = Dictionary(uniqueKeysWithValues: theirMembers.map { (id(of: $0, key: key)!, $0) })
            let baseByID = baseMembers.map { Dictionary(uniqueKeysWithValues: $0.map { (id(of: $0, key: key)!, $0) }) }
            // Mine's order: a reordering on my side alone is kept.
            return mineMembers.enumerated().map { index, member in
                let id = mineIDs[index]
                return .dictionary(mergeEntries(base: baseByID?[id], mine: member, theirs: theirsByID[id]!,
                                                at: path.appending(.index(index)), conflicts: &conflicts))
            }
        }
        guard sides.allSatisfy({ $0.count == mineMembers.count }) else { return nil }
        if let baseMembers, movedAny(mineMembers, from: baseMembers) || movedAny(theirMembers, from: baseMembers) { return nil }
        return mineMembers.indices.map { index in
            .dictionary(mergeEntries(base: baseMembers?[index], mine: mineMembers[index], theirs: theirMembers[index],
                                     at: path.appending(.index(index)), conflicts: &conflicts))
        }
    }

    /// True when a member of `side` is, as it is, the base's member of another place (and not
    /// also the one of its own): that person moved, and a place no longer names them.
    private static func movedAny(_ side: [[String: PropertyValue]], from base: [[String: PropertyValue]]) -> Bool {
        for (i, member) in side.enumerated() where i >= base.count || member != base[i] {
            if base.indices.contains(where: { $0 != i && base[$0] == member }) { return true }
        }
        return false
    }

    private static func id(of member: [String: PropertyValue], key: String) -> String? {
        if case .string(let id)? = member[key], !id.isEmpty { return id }
        return nil
    }
}
