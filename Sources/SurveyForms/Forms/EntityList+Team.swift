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
        for conflict in settled { note(.resolved(id: id, property: conflict.property, value: entity.value(of: conflict.property))) }
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

    /// What a rebuild starts from: the columns, the retirements and how far the team's edits
    /// were taken, kept; the entities, conflicts and edits taken left to be replayed.
    public func emptied() -> EntityList {
        var list = EntityList()
        list.columns = columns
        list.retired = retired
        list.editCursor = editCursor
        list.editsApplied = editsApplied
        return list
    }

    /// Puts `entity` in as it is (a row no survey registers, kept by a rebuild).
    public mutating func keep(_ entity: Entity) {
        guard !retired.contains(entity.id), place(of: entity.id) == nil else { return }
        for name in entity.properties.keys.sorted() where !columns.contains(name) { columns.append(name) }
        let index = placeOfID
        entities.append(entity)
        placeOfID = index
        placeOfID?[entity.id] = entities.count - 1
    }

    /// Whether anything is kept beside the CSV (else the companion file is not needed).
    public var keepsCompanion: Bool {
        !conflicts.isEmpty || !retired.isEmpty || editCursor != 0 || !editsApplied.isEmpty || !editsTaken.isEmpty
    }
}
