import FoundationEssentials
import SurveyValues

/// A supervisor's change to an entity made by no survey (`survey entities edit` or
/// `retire`), kept on the team's database and taken by every laptop's sync.
public struct EntityEdit: Equatable, Sendable {
    public var list: String
    public var entityID: String
    /// nil: the label stays.
    public var label: String?
    public var properties: [String: String]
    public var retired: Bool
    /// Its place in the team's order of changes (0 before the server kept it).
    public var change: Int64
    public var by: String?
    public var at: Date?

    public init(list: String, entityID: String, label: String? = nil, properties: [String: String] = [:], retired: Bool = false,
                change: Int64 = 0, by: String? = nil, at: Date? = nil) {
        self.list = list
        self.entityID = entityID
        self.label = label
        self.properties = properties
        self.retired = retired
        self.change = change
        self.by = by
        self.at = at
    }
}

extension EntityEdit {
    /// Why a list's CSV cannot take this edit as it is, or nil: a property pyxform would not
    /// accept as a `save_to` (`name`, `label`, `__…`, not an XML name; the server refuses them
    /// since migration 7's checks, a row from before could hold one), or too many or too big.
    public var problem: String? {
        if properties.count > 500 { return "it sets \(properties.count) properties (500 at most)" }
        if properties.reduce(0, { $0 + $1.key.utf8.count + $1.value.utf8.count }) > 100_000 { return "its values are over 100 kB" }
        for name in properties.keys.sorted() {
            if name.isEmpty || ["name", "label"].contains(name.lowercased()) || name.hasPrefix("__") || name.utf8.count > 255
                || !XLSFormReader.isXMLName(name) {
                return "its property “\(name)” cannot be a column of the list"
            }
        }
        return nil
    }
}

extension EntityList {
    /// Applies a supervisor's edit: a retirement, or the label and properties it sets.
    @discardableResult
    public mutating func take(_ edit: EntityEdit) -> Change {
        if edit.retired { return retire(id: edit.entityID) }
        if let why = edit.problem { return .refused(why) }
        if edit.change == 0 || !editsTaken.contains(where: { $0.change == edit.change }) {
            // As the companion file keeps it: the list is the file's, the time the server's.
            // Kept in the team's order (an older edit may come after an own later one): a
            // rebuild takes them again in it.
            let kept = EntityEdit(list: "", entityID: edit.entityID, label: edit.label, properties: edit.properties,
                                  change: edit.change, by: edit.by)
            let at = edit.change == 0 ? editsTaken.count : editsTaken.firstIndex { $0.change == 0 || $0.change > edit.change } ?? editsTaken.count
            editsTaken.insert(kept, at: at)
        }
        return self.edit(id: edit.entityID, label: edit.label,
                    properties: edit.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Takes the team's edits that came (in their order), each once: those this laptop made
    /// and applied already (`editsApplied`) are passed over, and the cursor moves past them all.
    /// An older edit that reaches this laptop after one of its own (numbered later) is taken,
    /// then the own one's values of the same properties again: the team's order decides, as on
    /// every laptop that takes both from the pull.
    public mutating func takeFromTeam(_ edits: [EntityEdit]) -> [(edit: EntityEdit, change: Change)] {
        var changes: [(edit: EntityEdit, change: Change)] = []
        for edit in edits.sorted(by: { $0.change < $1.change }) where edit.change > editCursor {
            if !editsApplied.contains(edit.change) {
                changes.append((edit, take(edit)))
                note(.edit(edit.change))
                reapplyOwnEdits(after: edit)
            }
            editCursor = edit.change
        }
        editsApplied.removeAll { $0 <= editCursor }
        return changes
    }

    /// This laptop's own edits numbered after `older` (taken at once, not yet passed by the
    /// cursor), of what `older` set, applied again over it.
    private mutating func reapplyOwnEdits(after older: EntityEdit) {
        guard !older.retired, editsApplied.contains(where: { $0 > older.change }) else { return }
        for own in editsTaken.sorted(by: { $0.change < $1.change })
        where own.change > older.change && editsApplied.contains(own.change) && own.entityID == older.entityID {
            let label = older.label == nil ? nil : own.label
            let properties = own.properties.filter { older.properties[$0.key] != nil }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            guard label != nil || !properties.isEmpty else { continue }
            edit(id: own.entityID, label: label, properties: properties)
        }
    }

    /// Takes an edit this laptop just made and the server kept (number `edit.change`): its
    /// pull will pass it over.
    @discardableResult
    public mutating func takeOwn(_ edit: EntityEdit) -> Change {
        let change = take(edit)
        note(.edit(edit.change))
        // One of an entity not here yet is taken again by the pull, after the surveys.
        if change != .missing, edit.change > editCursor, !editsApplied.contains(edit.change) { editsApplied.append(edit.change) }
        return change
    }
}
