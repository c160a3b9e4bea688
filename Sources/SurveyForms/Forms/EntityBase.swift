import SurveyValues

/// The entity an update was made from: ODK's `baseVersion`, with the values of that version.
/// An update survey carries it in its answers (`recordKey`), stamped on the laptop where it
/// was first stored, from that laptop's list, so on every laptop it reaches the update is
/// merged against what it changed, not against whatever the list holds there
/// (`EntityList.apply`). The values travel with the version because versions are counted on
/// each laptop as changes reach it: version 3 here need not be version 3 there.
public struct EntityBase: Equatable, Sendable {
    public var version: Int
    public var label: String
    /// The properties the update saves, as they were.
    public var properties: [String: String]

    public init(version: Int, label: String, properties: [String: String]) {
        self.version = version
        self.label = label
        self.properties = properties
    }

    /// The key a survey keeps its bases under: `{LIST: {ENTITY-ID: {"__version": 3, "label":
    /// …, PROPERTY: …}}}`. No question may be named so (`Questionnaire.reservedKeys`); exports
    /// to CSV leave it out (JSON and property lists keep it whole).
    public static let recordKey = "entityBase"

    /// The label (`EntityConflict.labelKey`) or a property; nil when the base has no value for it.
    func value(of key: String) -> String? {
        key == EntityConflict.labelKey ? label : properties[key]
    }

    /// The base of entity `id` of `list` that `values` (a survey's answers) carry.
    public static func stamped(in values: [String: PropertyValue], list: String, id: String) -> EntityBase? {
        guard case .dictionary(let lists)? = values[recordKey], case .dictionary(let ids)? = lists[list],
              case .dictionary(let fields)? = ids[id] else { return nil }
        var version = 1, label = "", properties: [String: String] = [:]
        for (key, value) in fields {
            switch key {
            case "__version": version = Int(XLSForm.text(of: value)) ?? 1
            case EntityConflict.labelKey: label = XLSForm.text(of: value)
            default: properties[key] = XLSForm.text(of: value)
            }
        }
        return EntityBase(version: version, label: label, properties: properties)
    }

    /// `values` with this base stamped for entity `id` of `list` (one already there is kept:
    /// an update's base is where it started).
    public func stamping(_ values: inout [String: PropertyValue], list: String, id: String) {
        var lists: [String: PropertyValue] = [:]
        if case .dictionary(let old)? = values[Self.recordKey] { lists = old }
        var ids: [String: PropertyValue] = [:]
        if case .dictionary(let old)? = lists[list] { ids = old }
        guard ids[id] == nil else { return }
        var fields: [String: PropertyValue] = ["__version": .integer(version), EntityConflict.labelKey: .string(label)]
        for (key, value) in properties { fields[key] = .string(value) }
        ids[id] = .dictionary(fields)
        lists[list] = .dictionary(ids)
        values[Self.recordKey] = .dictionary(lists)
    }
}

/// One property of an entity changed differently on two laptops from the same base: kept
/// beside the list (`.LIST.entities.json`), this laptop's value staying in `LIST.csv`, until
/// `survey entities resolve` (or a supervisor's edit of it) settles it.
public struct EntityConflict: Equatable, Sendable {
    /// The property `label` stands for the entity's label (no property may be named so).
    public static let labelKey = "label"

    public var id: String
    public var property: String
    public var base: String
    public var mine: String
    public var theirs: String
    /// The survey whose update brought `theirs`, when known.
    public var survey: String?

    public init(id: String, property: String, base: String, mine: String, theirs: String, survey: String? = nil) {
        self.id = id
        self.property = property
        self.base = base
        self.mine = mine
        self.theirs = theirs
        self.survey = survey
    }
}
