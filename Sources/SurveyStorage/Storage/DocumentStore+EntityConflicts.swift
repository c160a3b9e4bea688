import FoundationEssentials
import SurveyValues
import SurveyForms

/// Settling an entity list's conflicts by hand (`survey entities resolve`), as `survey
/// resolve` settles an answer's: keep this laptop's value, take the other laptop's, or a value
/// typed. The list and what is kept beside it are written together under the folder's lock.
extension DocumentStore {
    /// Settles the conflicts of entity `id` of `list` (of `property` only when given); returns
    /// how many. Throws when there is none to settle (nothing is written).
    @discardableResult
    public func resolveEntityConflict(list: String, id: String, property: String?, by choice: EntityList.Choice) throws -> Int {
        if let why = Self.entityListNameProblem(list) { throw DocumentError("--list \(list): \(why)") }
        guard isOccupied(entityListURL(list)) else { throw DocumentError("There is no entity list \(list).csv beside the documents") }
        var count = 0
        try changingEntityLists([list]) { lists, _ in
            count = try lists[list]?.resolve(id: id, property: property, by: choice) ?? 0
        }
        return count
    }
}
