/// The three-way merge of one survey's answers: what changed on one side only is taken,
/// the same answer changed differently on both sides is a conflict kept with its three
/// values (the merged answers hold mine there until it is resolved), never decided by which
/// side wrote last. Dictionaries merge key by key at any depth; a roster (an array of
/// member dictionaries) member by member when both sides kept the same members
/// (`AnswerMerge+Rosters.swift`); anything else, an unknown key of any type included, is
/// one value that travels whole.
///
/// With no common version (`base` nil: two copies of a document that never met), an answer
/// only one side has is taken, and one both have with different values is a conflict.
///
/// Rejected: merging by `SurveyDocument.replay`, the app's merge for a file changed on
/// disk: it works on top-level keys and refuses the whole save on a clash, where a sync
/// must keep going and remember each clash.
public enum AnswerMerge {
    public struct Outcome: Equatable, Sendable {
        public var answers: [String: PropertyValue]
        public var conflicts: [FieldConflict]
    }

    public static func merge(base: [String: PropertyValue]?, mine: [String: PropertyValue],
                             theirs: [String: PropertyValue]) -> Outcome {
        // An encrypted survey (issue 31) is one opaque version: taken whole from the side that
        // changed it, and changed on both sides it is one conflict of the whole survey, never
        // merged answer by answer (its readable answers and its submission must stay one).
        if [mine, theirs].contains(where: Record.isSealed) || base.map(Record.isSealed) == true {
            if mine == theirs { return Outcome(answers: mine, conflicts: []) }
            if let base, mine == base { return Outcome(answers: theirs, conflicts: []) }
            if let base, theirs == base { return Outcome(answers: mine, conflicts: []) }
            return Outcome(answers: mine, conflicts: [FieldConflict(path: SyncFieldPath(), base: base.map { .dictionary($0) },
                                                                    mine: .dictionary(mine), theirs: .dictionary(theirs))])
        }
        var conflicts: [FieldConflict] = []
        let merged = mergeEntries(base: base, mine: mine, theirs: theirs, at: SyncFieldPath(), conflicts: &conflicts)
        return Outcome(answers: merged, conflicts: conflicts)
    }

    /// Key by key, in sorted order so conflicts are listed the same way every time.
    static func mergeEntries(base: [String: PropertyValue]?, mine: [String: PropertyValue],
                             theirs: [String: PropertyValue], at path: SyncFieldPath,
                             conflicts: inout [FieldConflict]) -> [String: PropertyValue] {
        var merged: [String: PropertyValue] = [:]
        let keys = Set(mine.keys).union(theirs.keys).union(base?.keys ?? [:].keys)
        for key in keys.sorted() {
            let value = mergeValue(base: base?[key], hasBase: base != nil, mine: mine[key], theirs: theirs[key],
                                   at: path.appending(.key(key)), conflicts: &conflicts)
            if let value { merged[key] = value }
        }
        return merged
    }

    /// One value; nil means absent in the result.
    static func mergeValue(base: PropertyValue?, hasBase: Bool, mine: PropertyValue?, theirs: PropertyValue?,
                           at path: SyncFieldPath, conflicts: inout [FieldConflict]) -> PropertyValue? {
        if mine == theirs { return mine }
        if hasBase {
            if mine == base { return theirs }
            if theirs == base { return mine }
        } else {
            if mine == nil { return theirs }
            if theirs == nil { return mine }
        }
        // Changed on both sides (or held differently by both, with no base): look inside.
        switch (mine, theirs) {
        case (.dictionary(let m)?, .dictionary(let t)?):
            var inner: [String: PropertyValue]?
            if case .dictionary(let b)? = base { inner = b } else if hasBase { inner = [:] }
            return .dictionary(mergeEntries(base: inner, mine: m, theirs: t, at: path, conflicts: &conflicts))
        case (.array(let m)?, .array(let t)?):
            if let members = mergeRoster(base: base, hasBase: hasBase, mine: m, theirs: t, at: path, conflicts: &conflicts) {
                return .array(members)
            }
        default:
            break
        }
        conflicts.append(FieldConflict(path: path, base: base, mine: mine, theirs: theirs))
        return mine
    }
}
