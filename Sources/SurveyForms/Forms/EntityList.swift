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

    /// What applying an action did.
    public enum Change: Equatable, Sendable { case created, updated, unchanged, missing }

    /// The property columns, in the order they were first seen.
    public private(set) var columns: [String] = []
    public private(set) var entities: [Entity] = [] { didSet { placeOfID = nil } }
    /// Where each id is in `entities`, made when first asked: a first pull of 100,000
    /// registrations looked each up by walking the list (10¹⁰ comparisons).
    private var placeOfID: [String: Int]?

    /// The place of entity `id`, found through the index.
    private mutating func place(of id: String) -> Int? {
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

    /// The same columns and entities (the index is how they are found, not what they are).
    public static func == (a: EntityList, b: EntityList) -> Bool { a.columns == b.columns && a.entities == b.entities }

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
    /// an update of an entity the list does not have changes nothing (`missing`).
    @discardableResult
    public mutating func apply(_ action: EntityAction) -> Change {
        for property in action.properties where !columns.contains(property.name) { columns.append(property.name) }
        guard let i = place(of: action.id) else {
            guard action.kind != .update else { return .missing }
            var properties: [String: String] = [:]
            for property in action.properties { properties[property.name] = property.value }
            let index = placeOfID
            entities.append(Entity(id: action.id, label: action.label ?? "", version: 1, properties: properties))
            placeOfID = index
            placeOfID?[action.id] = entities.count - 1
            return .created
        }
        var entity = entities[i]
        if let label = action.label { entity.label = label }
        for property in action.properties { entity.properties[property.name] = property.value }
        guard entity != entities[i] else { return .unchanged }
        entity.version += 1
        let index = placeOfID
        entities[i] = entity
        placeOfID = index
        return .updated
    }
}
