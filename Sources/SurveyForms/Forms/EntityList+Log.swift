import SurveyValues

/// What happened to an entity list on this laptop, in the order it happened: each survey's
/// action applied (the action itself, as applied: a survey re-saved brings only what it
/// changed, from its last version), each supervisor's edit taken, each conflict resolved by
/// hand. The storage adds them to `.LIST.entities.log` when it writes the list, and `survey
/// entities --rebuild` replays them, so a rebuilt list is the list the saves and syncs made
/// (the same survey first, each version of it where it came, the same side of a conflict
/// "mine", the same resolutions), not one in an order of its own. One JSON object a line:
/// `{"survey": ID, "entity": E, "kind": K, "label": L, "set": [[P, V]…], "base": {…}}`,
/// `{"edit": N}`, `{"resolved": ID, "property": P, "value": V}`; `{"survey": ID}` alone is a
/// line of a log written before the actions were (its survey's actions as they are now).
public enum EntityLogEvent: Equatable, Sendable {
    /// A survey's actions applied, not recorded (a log written before they were).
    case survey(String)
    /// A survey's action applied, as it was applied (its `list` and `member` left out: the
    /// log is the list's, and a member only finds the entity's id).
    case applied(survey: String, action: EntityAction)
    /// A supervisor's edit taken (its change number; the edit itself is kept beside the list).
    case edit(Int64)
    /// A conflict settled by hand (`survey entities resolve`): the value the property kept.
    case resolved(id: String, property: String, value: String)

    /// The id of the survey, edit or entity the event is of, for the log's compaction: the
    /// same id's earlier events are those a later one of it may stand for.
    public var key: String {
        switch self {
        case .survey(let id): return "s " + id
        case .applied(let id, let action): return "a " + id + "\u{0}" + action.id
        case .edit(let change): return "e \(change)"
        case .resolved(let id, let property, _): return "r " + id + "\u{0}" + property
        }
    }

    /// `events` with each id's events folded into one at its last place: a survey's actions
    /// into one bringing its last values (from its first action's base, a create staying
    /// one), a resolution's last, an edit as it is. What a rebuild replays of a compacted log
    /// differs from the saves only where a survey was changed again after another change
    /// of the same entity came: its values are replayed once, at its last change.
    public static func compacted(_ events: [EntityLogEvent]) -> [EntityLogEvent] {
        var last: [String: Int] = [:]
        var folded: [String: EntityAction] = [:]
        for (i, event) in events.enumerated() {
            last[event.key] = i
            guard case .applied(_, let action) = event else { continue }
            guard var into = folded[event.key] else { folded[event.key] = action; continue }
            if let label = action.label { into.label = label }
            for property in action.properties {
                if let at = into.properties.firstIndex(where: { $0.name == property.name }) { into.properties[at] = property } else { into.properties.append(property) }
            }
            folded[event.key] = into
        }
        return events.enumerated().compactMap { i, event in
            guard last[event.key] == i else { return nil }
            if case .applied(let survey, _) = event, let action = folded[event.key] { return .applied(survey: survey, action: action) }
            return event
        }
    }

    public var jsonLine: String {
        switch self {
        case .survey(let id): return "{\"survey\":\(PropertyValue.jsonString(id))}"
        case .applied(let survey, let action):
            var object: [String: PropertyValue] = [
                "survey": .string(survey), "entity": .string(action.id), "kind": .string(action.kind.rawValue),
                "set": .array(action.properties.map { .array([.string($0.name), .string($0.value)]) }),
            ]
            if let label = action.label { object["label"] = .string(label) }
            if let base = action.base {
                object["base"] = .dictionary(["version": .integer(base.version), "label": .string(base.label),
                                              "properties": .dictionary(base.properties.mapValues { .string($0) })])
            }
            return PropertyValue.jsonObjectText(object)
        case .edit(let change): return "{\"edit\":\(change)}"
        case .resolved(let id, let property, let value):
            return "{\"resolved\":\(PropertyValue.jsonString(id)),\"property\":\(PropertyValue.jsonString(property)),"
                + "\"value\":\(PropertyValue.jsonString(value))}"
        }
    }

    /// nil for a line that is none of these (a line a crash cut short).
    public init?(jsonLine line: Substring) {
        var text = String(line)
        guard let object = try? text.withUTF8({ try PropertyValue.answers(jsonObject: $0) }) else { return nil }
        if case .string(let survey)? = object["survey"], object["entity"] != nil {
            guard let action = Self.action(in: object) else { return nil }
            self = .applied(survey: survey, action: action)
        } else if case .string(let id)? = object["survey"] {
            self = .survey(id)
        } else if case .integer(let change)? = object["edit"] {
            self = .edit(Int64(change))
        } else if case .string(let id)? = object["resolved"], case .string(let property)? = object["property"],
                  case .string(let value)? = object["value"] {
            self = .resolved(id: id, property: property, value: value)
        } else {
            return nil
        }
    }

    /// The action an `applied` line records; nil when any part is not what the log writes.
    private static func action(in object: [String: PropertyValue]) -> EntityAction? {
        guard case .string(let id)? = object["entity"], case .string(let kindName)? = object["kind"],
              let kind = EntityAction.Kind(rawValue: kindName), case .array(let pairs)? = object["set"] else { return nil }
        var properties: [EntityAction.Property] = []
        for pair in pairs {
            guard case .array(let two) = pair, two.count == 2, case .string(let name) = two[0], case .string(let value) = two[1] else { return nil }
            properties.append(EntityAction.Property(name: name, value: value))
        }
        var label: String?
        if let value = object["label"] {
            guard case .string(let text) = value else { return nil }
            label = text
        }
        var base: EntityBase?
        if let value = object["base"] {
            guard case .dictionary(let fields) = value, case .integer(let version)? = fields["version"],
                  case .string(let baseLabel)? = fields["label"], case .dictionary(let values)? = fields["properties"] else { return nil }
            var baseProperties: [String: String] = [:]
            for (name, value) in values {
                guard case .string(let text) = value else { return nil }
                baseProperties[name] = text
            }
            base = EntityBase(version: version, label: baseLabel, properties: baseProperties)
        }
        return EntityAction(kind: kind, list: "", id: id, label: label, properties: properties, member: [], base: base)
    }
}

extension EntityAction {
    /// The action as the log keeps it (`EntityLogEvent.applied`).
    var forLog: EntityAction {
        var action = self
        action.list = ""
        action.member = []
        return action
    }
}

extension EntityList {
    /// Notes `event` for the log (a survey applied twice in a row once).
    mutating func note(_ event: EntityLogEvent) {
        if log.last == event { return }
        log.append(event)
    }

    /// Settles, as a resolution replayed from the log does, the conflict of `property` of
    /// entity `id` with `value`: only when that conflict is open (else nothing: the surveys
    /// replayed since settled it, or never made it). True when one was settled.
    @discardableResult
    public mutating func replayResolution(id: String, property: String, value: String) -> Bool {
        guard conflicts.contains(where: { $0.id == id && $0.property == property }) else { return false }
        return ((try? resolve(id: id, property: property, by: .value(value))) ?? 0) > 0
    }

    /// Takes `edit` again where the log says it was taken, then, as `takeFromTeam` did then,
    /// the values of edits taken before it but numbered after it (a supervisor's own, applied
    /// at once) over what it set: the team's order decides.
    public mutating func replayEdit(_ edit: EntityEdit) {
        take(edit)
        note(.edit(edit.change))
        guard !edit.retired else { return }
        for later in editsTaken where later.change > edit.change && later.entityID == edit.entityID {
            let label = edit.label == nil ? nil : later.label
            let properties = later.properties.filter { edit.properties[$0.key] != nil }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            guard label != nil || !properties.isEmpty else { continue }
            self.edit(id: later.entityID, label: label, properties: properties)
        }
    }

    /// Forgets the events noted (once the storage has written them).
    public mutating func clearLog() { log = [] }
}
