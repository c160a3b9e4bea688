import SurveyValues

/// What happened to an entity list on this laptop, in the order it happened: each survey
/// applied, each supervisor's edit taken, each conflict resolved by hand. The storage adds
/// them to `.LIST.entities.log` when it writes the list, and `survey entities --rebuild`
/// replays them, so a rebuilt list is the list the saves and syncs made (the same survey
/// first, the same side of a conflict "mine", the same resolutions), not one in an order
/// of its own. One JSON object a line: `{"survey": ID}`, `{"edit": N}`,
/// `{"resolved": ID, "property": P, "value": V}`.
public enum EntityLogEvent: Equatable, Sendable {
    /// A survey's actions applied (its id).
    case survey(String)
    /// A supervisor's edit taken (its change number; the edit itself is kept beside the list).
    case edit(Int64)
    /// A conflict settled by hand (`survey entities resolve`): the value the property kept.
    case resolved(id: String, property: String, value: String)

    public var jsonLine: String {
        switch self {
        case .survey(let id): return "{\"survey\":\(PropertyValue.jsonString(id))}"
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
        if case .string(let id)? = object["survey"] {
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
