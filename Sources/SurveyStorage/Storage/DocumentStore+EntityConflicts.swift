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

/// A supervisor's edits and retirements, taken into the folder's lists.
extension DocumentStore {
    /// Takes the team's edits of `list` that came (`EntityList.takeFromTeam`): the list, and
    /// the cursor kept beside it, written together. A list the folder does not have yet is
    /// started by them (a retirement is kept, an edit of an entity it lacks is `missing`).
    @discardableResult
    public func takeEntityEdits(_ edits: [EntityEdit], list: String) throws -> EntityListChange {
        guard !edits.isEmpty else { return EntityListChange(list: list) }
        if let why = Self.entityListNameProblem(list) { throw DocumentError("The entity list “\(list)” cannot be written: \(why)") }
        let changes = try changingEntityLists([list]) { lists, changes in
            for (edit, change) in lists[list]?.takeFromTeam(edits) ?? [] {
                Self.count(change, of: edit.entityID, in: &changes[0])
            }
        }
        return changes[0]
    }

    /// Takes an edit this laptop made and the server kept: the pull passes it over later.
    @discardableResult
    public func takeOwnEntityEdit(_ edit: EntityEdit) throws -> EntityListChange {
        if let why = Self.entityListNameProblem(edit.list) { throw DocumentError("--list \(edit.list): \(why)") }
        let changes = try changingEntityLists([edit.list]) { lists, changes in
            if let change = lists[edit.list]?.takeOwn(edit) { Self.count(change, of: edit.entityID, in: &changes[0]) }
        }
        return changes[0]
    }

    static func count(_ change: EntityList.Change, of id: String, in summary: inout EntityListChange) {
        switch change {
        case .created: summary.created += 1
        case .updated: summary.updated += 1
        case .missing: summary.missing.append(id)
        case .retired: summary.retired += 1
        case .unchanged: break
        case .refused(let why): summary.setAside.append("\(id): \(why)")
        }
    }
}
