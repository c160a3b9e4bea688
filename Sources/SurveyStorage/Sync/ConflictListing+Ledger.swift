import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension ConflictListing {
    /// `[{"id", "field", "base", "mine", "theirs", "deletedMine", "deletedTheirs"}]`: an
    /// absent value is left out; a whole-survey conflict has `"field": "(survey)"` and says
    /// which side deleted it.
    public static func jsonText(_ ledger: SyncLedger) -> String {
        let items: [PropertyValue] = ledger.conflictList.map { id, field in
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
