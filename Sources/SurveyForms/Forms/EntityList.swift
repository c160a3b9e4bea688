import SurveyValues

/// An entity list as ODK keeps it and a follow-up form reads it: `LIST.csv` with `name` (the
/// entity's id), `label`, `__version` (1 when created, one more at each update that changes
/// something), then a column per property. `select_one_from_file LIST.csv` reads it as any
/// choice file (`name` and `label`), and `instance('LIST')/root/item[name=…]/prop` its
/// properties. A value: the storage reads and writes the file, this applies a survey's
/// `EntityAction`s to it.
public struct EntityList: Equatable, Sendable {
    public struct Entity: Equatable, Sendable {
        public var id: String
        public var label: String
        public var version: Int
        public var properties: [String: String]
    }

    /// What applying an action did. `retired`: the entity was retired by a supervisor, and
    /// stays out of the list whatever a survey says of it. `refused`: a supervisor's edit the
    /// list cannot take (why), set aside; the others are taken.
    public enum Change: Equatable, Sendable {
        case created, updated, unchanged, missing, retired
        case refused(String)
    }

    /// The property columns, in the order they were first seen.
    public internal(set) var columns: [String] = []
    public internal(set) var entities: [Entity] = [] { didSet { placeOfID = nil } }
    /// Where each id is in `entities`, made when first asked: a first pull of 100,000
    /// registrations looked each up by walking the list (10¹⁰ comparisons).
    var placeOfID: [String: Int]?
    /// What the list keeps beside its CSV (`.LIST.entities.json`, never in the CSV's columns,
    /// which are ODK's): the same property changed on two laptops from one base, the
    /// entities a supervisor retired, and how far the team's edits were taken
    /// (`EntityList+Team.swift`).
    public internal(set) var conflicts: [EntityConflict] = []
    public internal(set) var retired: Set<String> = []
    /// The last supervisor's edit taken from the team's database (its change number), and
    /// those after it this laptop made and applied already.
    public var editCursor: Int64 = 0
    public var editsApplied: [Int64] = []
    /// The supervisor's edits taken (not retirements, which `retired` keeps), so a list
    /// derived again from the surveys (`survey entities --rebuild`) takes them again.
    public internal(set) var editsTaken: [EntityEdit] = []
    /// What happened to the list since it was read, for its log (`EntityLogEvent`); not
    /// what the list is.
    public internal(set) var log: [EntityLogEvent] = []
    /// The digest of the CSV the companion file was written with (its `csv`), nil when it
    /// names none (none was there, or a companion written before survey kept it).
    public var companionCSVDigest: String?
    /// Set by the storage when the companion was written with another CSV than the one
    /// beside it (a write cut off between the two, or the CSV replaced by hand): what the
    /// companion keeps may not be of these rows.
    public var companionOutOfStep = false

    /// The place of entity `id`, found through the index.
    package mutating func place(of id: String) -> Int? {
        if placeOfID == nil {
            var index: [String: Int] = [:]
            index.reserveCapacity(entities.count)
            for (i, entity) in entities.enumerated() where index[entity.id] == nil { index[entity.id] = i }
            placeOfID = index
        }
        return placeOfID?[id]
    }

    /// Whether the list holds entity `id`.
    public mutating func holds(_ id: String) -> Bool { place(of: id) != nil }

    /// The same columns, entities and what is kept beside them (the index is how they are
    /// found, not what they are; the log and the files' marks are how it was written).
    public static func == (a: EntityList, b: EntityList) -> Bool {
        a.columns == b.columns && a.entities == b.entities && a.conflicts == b.conflicts && a.retired == b.retired
            && a.editCursor == b.editCursor && a.editsApplied == b.editsApplied && a.editsTaken == b.editsTaken
    }

    public init() {}

    /// The list in `text` (ODK Central's CSV, or one written here). A row without a `name`
    /// is skipped; a `__version` that is not a number counts as 1.
    public init(csv text: String) throws {
        let rows = try CSV.rows(text)
        guard let header = rows.first else { return }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let nameColumn = column("name") else { throw DocumentError("an entity list needs a name column") }
        let labelColumn = column("label"), versionColumn = column("__version")
        let reserved: Set<String> = ["name", "label", "__version"]
        let propertyColumns = header.indices.filter { !reserved.contains(header[$0]) && !header[$0].hasPrefix("__") && !header[$0].isEmpty }
        columns = propertyColumns.map { header[$0] }
        for row in rows.dropFirst() {
            func cell(_ i: Int?) -> String { i.flatMap { $0 < row.count ? row[$0] : nil } ?? "" }
            let id = cell(nameColumn)
            guard !id.isEmpty else { continue }
            var properties: [String: String] = [:]
            for i in propertyColumns { properties[header[i]] = cell(i) }
            entities.append(Entity(id: id, label: cell(labelColumn), version: Int(cell(versionColumn)) ?? 1, properties: properties))
        }
    }

    /// The list as CSV, RFC 4180 (`CSV.text`).
    public var csv: String {
        CSV.text([["name", "label", "__version"] + columns]
            + entities.map { e in [e.id, e.label, String(e.version)] + columns.map { e.properties[$0] ?? "" } })
    }

    public func entity(_ id: String) -> Entity? { entities.first { $0.id == id } }

    /// Applies one survey's action: a create adds the entity (or, finished again, updates
    /// the one it made: its id is derived from the survey); an update changes the label when
    /// the form gives one and each property saved, one version more when anything changed;
    /// an update of an entity the list does not have changes nothing (`missing`), nor does
    /// anything of an entity a supervisor retired.
    ///
    /// An update that carries its base (`EntityAction.base`: the entity as the laptop that
    /// made it held it, ODK's `baseVersion`) is merged property by property, three-way, as
    /// answers are: a property the update left as it found it keeps the value here (newer);
    /// one only the update changed takes the update's; one changed here and by the update to
    /// different values is a conflict (`EntityConflict`), this laptop's value staying in
    /// the list until it is resolved. An update without a base (a survey stored before bases
    /// were kept) writes what it saves.
    @discardableResult
    public mutating func apply(_ action: EntityAction, survey: String? = nil) -> Change {
        if let survey { note(.applied(survey: survey, action: action.forLog)) }
        return applyUnnoted(action, survey: survey)
    }

    /// `apply`, noting nothing for the log.
    mutating func applyUnnoted(_ action: EntityAction, survey: String?) -> Change {
        guard !retired.contains(action.id) else { return .retired }
        let place = place(of: action.id)
        guard place != nil || action.kind != .update else { return .missing }
        for property in action.properties where !columns.contains(property.name) { columns.append(property.name) }
        guard let i = place else {
            var properties: [String: String] = [:]
            for property in action.properties { properties[property.name] = property.value }
            let index = placeOfID
            entities.append(Entity(id: action.id, label: action.label ?? "", version: 1, properties: properties))
            placeOfID = index
            placeOfID?[action.id] = entities.count - 1
            // A supervisor's edit of it that came before its registration reached this laptop.
            if !editsTaken.isEmpty {
                for edit in editsTaken where edit.entityID == action.id { take(edit) }
            }
            return .created
        }
        var entity = entities[i]
        var values: [(key: String, value: String)] = action.properties.map { ($0.name, $0.value) }
        if let label = action.label { values.insert((EntityConflict.labelKey, label), at: 0) }
        for (key, value) in values {
            let base = action.base.flatMap { $0.value(of: key) }
            if let merged = merge(key, of: &entity, theirs: value, base: base, survey: survey) {
                entity.set(key, merged)
            }
        }
        guard entity != entities[i] else { return .unchanged }
        entity.version += 1
        let index = placeOfID
        entities[i] = entity
        placeOfID = index
        return .updated
    }

    /// What property `key` of `entity` becomes when an update brings `theirs`, made from
    /// `base` (nil: not known, the update's value is taken): nil to leave it. A conflict is
    /// kept, or an old one settled, on the way.
    private mutating func merge(_ key: String, of entity: inout Entity, theirs: String, base: String?,
                                survey: String?) -> String? {
        let mine = entity.value(of: key)
        if let c = conflicts.firstIndex(where: { $0.id == entity.id && $0.property == key }) {
            // No base (a survey stored before bases were kept): it writes what it saves, and
            // the conflict on that property, whose side here it replaces, is settled so.
            guard base != nil else {
                conflicts.remove(at: c)
                return theirs
            }
            // Made on top of either side of the conflict: a later change, which settles it.
            guard let base, base == conflicts[c].mine || base == conflicts[c].theirs else {
                if theirs != mine, theirs != conflicts[c].theirs, base != theirs { conflicts[c].theirs = theirs; conflicts[c].survey = survey }
                return nil
            }
            guard theirs != base else { return nil }
            conflicts.remove(at: c)
            return theirs
        }
        guard let base else { return theirs }
        if theirs == base || theirs == mine { return nil }      // the update left it, or made the same change
        if mine == base { return theirs }                       // only the update changed it
        conflicts.append(EntityConflict(id: entity.id, property: key, base: base, mine: mine, theirs: theirs, survey: survey))
        return nil
    }
}

extension EntityList.Entity {
    /// The label (`EntityConflict.labelKey`) or a property.
    func value(of key: String) -> String {
        key == EntityConflict.labelKey ? label : properties[key] ?? ""
    }

    mutating func set(_ key: String, _ value: String) {
        if key == EntityConflict.labelKey { label = value } else { properties[key] = value }
    }
}
