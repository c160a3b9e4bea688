import FoundationEssentials
import SurveyValues

/// What an entity list keeps beside its CSV, and the changes a person makes to it by hand:
/// settling a conflict (`resolve`, as `survey resolve` settles an answer's), a supervisor's
/// edit and retirement (`edit`, `retire`), each the same on every laptop it reaches.
extension EntityList {
    /// How a conflict is settled: this laptop's value, the other's, or a value typed.
    public enum Choice: Equatable, Sendable {
        case mine, theirs
        case value(String)
    }

    /// Settles the conflicts of entity `id` (of its `property` only when given); returns how
    /// many. Taking another value than the list's is a change: one version more.
    public mutating func resolve(id: String, property: String?, by choice: Choice) throws -> Int {
        let settled = conflicts.filter { $0.id == id && (property == nil || $0.property == property) }
        guard !settled.isEmpty else {
            let what = property.map { "\($0) of \(id)" } ?? id
            throw DocumentError("\(what) has no conflict to resolve (survey entities --list NAME shows them)")
        }
        guard let i = place(of: id) else { throw DocumentError("the list has no entity \(id)") }
        var entity = entities[i]
        for conflict in settled {
            switch choice {
            case .mine: break
            case .theirs: entity.set(conflict.property, conflict.theirs)
            case .value(let text): entity.set(conflict.property, text)
            }
        }
        conflicts.removeAll { $0.id == id && (property == nil || $0.property == property) }
        if entity != entities[i] {
            entity.version += 1
            let index = placeOfID
            entities[i] = entity
            placeOfID = index
        }
        return settled.count
    }

    /// A supervisor's edit: the label (when given) and each property take the values given,
    /// one version more when anything changed, and a conflict on any of them is settled so
    /// (the supervisor's word is the team's). Of an entity the list lacks: `missing`.
    @discardableResult
    public mutating func edit(id: String, label: String?, properties: [(name: String, value: String)]) -> Change {
        guard !retired.contains(id) else { return .retired }
        guard let i = place(of: id) else { return .missing }
        var entity = entities[i]
        var values = properties
        if let label { values.insert((EntityConflict.labelKey, label), at: 0) }
        for (key, value) in values {
            if key != EntityConflict.labelKey, !columns.contains(key) { columns.append(key) }
            entity.set(key, value)
        }
        let keys = Set(values.map(\.0))
        conflicts.removeAll { $0.id == id && keys.contains($0.property) }
        guard entity != entities[i] else { return .unchanged }
        entity.version += 1
        let index = placeOfID
        entities[i] = entity
        placeOfID = index
        return .updated
    }

    /// A supervisor's retirement: the entity leaves the list (so no follow-up form offers it)
    /// and stays out whatever a survey later says of it (a registration saved again, a rebuild).
    @discardableResult
    public mutating func retire(id: String) -> Change {
        guard retired.insert(id).inserted else { return .unchanged }
        conflicts.removeAll { $0.id == id }
        guard let i = place(of: id) else { return .missing }
        entities.remove(at: i)
        return .updated
    }

    /// The list's surveys-derived part emptied, what is kept beside it left: what a rebuild
    /// starts from (the retirements and the team's edits taken stay taken).
    public func emptied() -> EntityList {
        var list = EntityList()
        list.columns = columns
        list.retired = retired
        list.editCursor = editCursor
        list.editsApplied = editsApplied
        list.editsTaken = editsTaken
        return list
    }

    /// Takes again the supervisor's edits taken before (after a rebuild from the surveys).
    public mutating func takeEditsAgain() {
        let edits = editsTaken
        editsTaken = []
        for edit in edits { take(edit) }
    }

    /// Whether anything is kept beside the CSV (else the companion file is not needed).
    public var keepsCompanion: Bool {
        !conflicts.isEmpty || !retired.isEmpty || editCursor != 0 || !editsApplied.isEmpty || !editsTaken.isEmpty
    }

    // MARK: The companion file, `.LIST.entities.json`

    /// `{"conflicts": [{"name", "property", "base", "mine", "theirs", "survey"}], "retired":
    /// [ids], "editCursor": N, "editsApplied": [N], "edits": [{"change", "name", "label",
    /// "properties", "by"}]}`, keys sorted.
    public var companionJSON: String {
        var members: [String: PropertyValue] = [:]
        members["conflicts"] = .array(conflicts.map { c in
            var fields: [String: PropertyValue] = ["name": .string(c.id), "property": .string(c.property), "base": .string(c.base),
                                                   "mine": .string(c.mine), "theirs": .string(c.theirs)]
            if let survey = c.survey { fields["survey"] = .string(survey) }
            return .dictionary(fields)
        })
        members["retired"] = .array(retired.sorted().map { .string($0) })
        members["editCursor"] = .integer(Int(editCursor))
        members["editsApplied"] = .array(editsApplied.map { .integer(Int($0)) })
        members["edits"] = .array(editsTaken.map { edit in
            var fields: [String: PropertyValue] = ["change": .integer(Int(edit.change)), "name": .string(edit.entityID),
                                                   "properties": .dictionary(edit.properties.mapValues { .string($0) })]
            if let label = edit.label { fields["label"] = .string(label) }
            if let by = edit.by { fields["by"] = .string(by) }
            return .dictionary(fields)
        })
        return PropertyValue.jsonObjectText(members) + "\n"
    }

    /// Takes what the companion file holds (`companionJSON`'s shape); throws when it is not that.
    public mutating func readCompanion(_ bytes: [UInt8]) throws {
        let members = try PropertyValue.answers(jsonObject: bytes)
        func text(_ value: PropertyValue?) -> String? { if case .string(let s)? = value { return s } else { return nil } }
        func number(_ value: PropertyValue?) -> Int64? { if case .integer(let n)? = value { return Int64(n) } else { return nil } }
        var conflicts: [EntityConflict] = []
        if case .array(let items)? = members["conflicts"] {
            for item in items {
                guard case .dictionary(let f) = item, let id = text(f["name"]), let property = text(f["property"]) else {
                    throw DocumentError("a conflict without its entity and property")
                }
                conflicts.append(EntityConflict(id: id, property: property, base: text(f["base"]) ?? "", mine: text(f["mine"]) ?? "",
                                                theirs: text(f["theirs"]) ?? "", survey: text(f["survey"])))
            }
        }
        var retired: Set<String> = []
        if case .array(let items)? = members["retired"] { for item in items { if let id = text(item) { retired.insert(id) } } }
        var applied: [Int64] = []
        if case .array(let items)? = members["editsApplied"] { applied = items.compactMap(number) }
        var taken: [EntityEdit] = []
        if case .array(let items)? = members["edits"] {
            for item in items {
                guard case .dictionary(let f) = item, let id = text(f["name"]) else { continue }
                var properties: [String: String] = [:]
                if case .dictionary(let p)? = f["properties"] { for (k, v) in p { properties[k] = text(v) ?? "" } }
                taken.append(EntityEdit(list: "", entityID: id, label: text(f["label"]), properties: properties,
                                        change: number(f["change"]) ?? 0, by: text(f["by"])))
            }
        }
        editsTaken = taken
        self.conflicts = conflicts
        self.retired = retired
        editCursor = number(members["editCursor"]) ?? 0
        editsApplied = applied
    }
}

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

extension EntityList {
    /// Applies a supervisor's edit: a retirement, or the label and properties it sets.
    @discardableResult
    public mutating func take(_ edit: EntityEdit) -> Change {
        if edit.retired { return retire(id: edit.entityID) }
        if edit.change == 0 || !editsTaken.contains(where: { $0.change == edit.change }) {
            // As the companion file keeps it: the list is the file's, the time the server's.
            editsTaken.append(EntityEdit(list: "", entityID: edit.entityID, label: edit.label, properties: edit.properties,
                                         change: edit.change, by: edit.by))
        }
        return self.edit(id: edit.entityID, label: edit.label,
                    properties: edit.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Takes the team's edits that came (in their order), each once: those this laptop made
    /// and applied already (`editsApplied`) are passed over, and the cursor moves past them all.
    public mutating func takeFromTeam(_ edits: [EntityEdit]) -> [(edit: EntityEdit, change: Change)] {
        var changes: [(edit: EntityEdit, change: Change)] = []
        for edit in edits where edit.change > editCursor {
            if !editsApplied.contains(edit.change) { changes.append((edit, take(edit))) }
            editCursor = edit.change
        }
        editsApplied.removeAll { $0 <= editCursor }
        return changes
    }

    /// Takes an edit this laptop just made and the server kept (number `edit.change`): its
    /// pull will pass it over.
    @discardableResult
    public mutating func takeOwn(_ edit: EntityEdit) -> Change {
        let change = take(edit)
        // One of an entity not here yet is taken again by the pull, after the surveys.
        if change != .missing, edit.change > editCursor, !editsApplied.contains(edit.change) { editsApplied.append(edit.change) }
        return change
    }
}
