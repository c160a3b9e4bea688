import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension SyncLedger {
    /// `conflictList`, each answer's "mine" as the survey holds it now among `records`, which
    /// is what `--mine` (the app's `m`) keeps (`SyncPlan.resolve`): a correction keyed since
    /// the pull found the clash shows. An answer inside a roster's member is read from that
    /// member wherever it stands now (`ConflictPlaces`: a member deleted before it in the app
    /// puts another person at the conflict's place): none when the member is no longer here,
    /// the pull's when it cannot be told from another. A member deleted on one side and a
    /// whole survey keep the sides the pull found (their choice is keep or delete).
    public func conflictList(holding records: [Record]) -> [(id: String, field: FieldConflict)] {
        let list = conflictList
        let ids = Set(list.lazy.filter { !$0.field.path.isWholeSurvey && !$0.field.path.isMember }.map(\.id))
        guard !ids.isEmpty else { return list }
        var held: [String: [String: PropertyValue]] = [:]
        for record in records {
            if let id = record.instanceID, ids.contains(id), held[id] == nil { held[id] = record.values }
        }
        var places: [String: ConflictPlaces] = [:]
        return list.map { id, field in
            guard !field.path.isWholeSurvey, !field.path.isMember, let answers = held[id] else { return (id, field) }
            var now = field
            guard field.path.hasPlace, let conflict = conflicts[id] else {
                now.mine = PropertyValue.dictionary(answers).value(at: field.path)
                return (id, now)
            }
            if places[id] == nil {
                places[id] = ConflictPlaces(fields: conflict.fields, base: bases[id]?.answers,
                                            theirs: conflict.theirs.answers, now: answers)
            }
            switch places[id]!.place(of: field.path) {
            case .at(let path): now.mine = PropertyValue.dictionary(answers).value(at: path)
            case .gone: now.mine = nil
            case .unclear: break
            }
            return (id, now)
        }
    }
}

extension ConflictListing {
    /// `[{"id", "field", "base", "mine", "theirs", "deletedMine", "deletedTheirs"}]`: an
    /// absent value is left out; a whole-survey conflict has `"field": "(survey)"` and says
    /// which side deleted it. With the document's `records`, "mine" is the survey's value now.
    public static func jsonText(_ ledger: SyncLedger, records: [Record]? = nil) -> String {
        let list = records.map { ledger.conflictList(holding: $0) } ?? ledger.conflictList
        let items: [PropertyValue] = list.map { id, field in
            var entry: [String: PropertyValue] = ["id": .string(id), "field": .string(field.path.description)]
            if let base = field.base { entry["base"] = base }
            if let mine = field.mine { entry["mine"] = mine }
            if let theirs = field.theirs { entry["theirs"] = theirs }
            if field.path.isWholeSurvey {
                entry["deletedMine"] = .bool(field.mine == nil)
                entry["deletedTheirs"] = .bool(field.theirs == nil)
            }
            return .dictionary(entry)
        }
        return PropertyValue.array(items).jsonText() + "\n"
    }
}
