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

    /// A survey's create and its saves after it, folded by the log's compaction
    /// (`compacted`): the entity as they left it, at the version they left it at.
    case created(survey: String, action: EntityAction, version: Int)

    /// The id of the survey, edit or entity the event is of: a write that changed nothing
    /// adds no event the log's end already has for the same id.
    public var key: String {
        switch self {
        case .survey(let id): return "s " + id
        case .applied(let id, let action), .created(let id, let action, _): return "a " + id + "\u{0}" + action.id
        case .edit(let change): return "e \(change)"
        case .resolved(let id, let property, _): return "r " + id + "\u{0}" + property
        }
    }

    /// `events` without what a rebuild would replay to no effect, and with each run of a
    /// survey's create and its saves after it folded into one event at the create's place: a
    /// rebuild of the result is a rebuild of `events`. Dropped: an edit or a `{"survey": ID}`
    /// seen before (a rebuild takes each once), a resolution of a property resolved before
    /// with nothing else of its entity between. Folded: a create of an entity nothing before
    /// it named, no edit of which was taken (`edited`: such an edit is taken again at its
    /// create), then the same survey's saves of it while nothing else names it, each made on
    /// top of the values the run left (its base) and bringing no new property (a column keeps
    /// its place). A visit's saves are kept one by one: each merges against the list as it
    /// was then, which only a replay knows.
    public static func compacted(_ events: [EntityLogEvent], edited: Set<String>) -> [EntityLogEvent] {
        struct Run {
            var at: Int
            var survey: String
            var action: EntityAction
            var entity: EntityList.Entity

            /// Takes a later save of the run's survey, when a replay of it would take each
            /// of its values (made on top of what the run left, as `EntityList.apply` merges)
            /// and add no column; false (the run unchanged) otherwise.
            mutating func fold(_ later: EntityAction) -> Bool {
                var values: [(key: String, value: String)] = later.properties.map { ($0.name, $0.value) }
                if let label = later.label { values.insert((EntityConflict.labelKey, label), at: 0) }
                for (key, value) in values {
                    if key != EntityConflict.labelKey, !action.properties.contains(where: { $0.name == key }) { return false }
                    if let base = later.base?.value(of: key), base != entity.value(of: key), value != entity.value(of: key) { return false }
                }
                var now = entity
                for (key, value) in values { now.set(key, value) }
                if now != entity { now.version += 1 }
                entity = now
                if let label = later.label { action.label = label }
                for property in later.properties {
                    if let at = action.properties.firstIndex(where: { $0.name == property.name }) { action.properties[at] = property }
                }
                return true
            }
        }
        var kept: [EntityLogEvent?] = []
        var runs: [String: Run] = [:]
        var resolvedSince: [String: Set<String>] = [:]   // by entity: the properties resolved since it was last named
        var named = Set<String>()
        var edits = Set<Int64>(), surveys = Set<String>()
        var blind = false       // a `{"survey": ID}` came: which entities it named is not known
        func close(_ id: String) {
            guard let run = runs.removeValue(forKey: id) else { return }
            if run.entity.version > 1 { kept[run.at] = .created(survey: run.survey, action: run.action, version: run.entity.version) }
        }
        for event in events {
            switch event {
            case .edit(let change):
                guard edits.insert(change).inserted else { continue }
                resolvedSince = [:]
                kept.append(event)
            case .survey(let id):
                guard surveys.insert(id).inserted else { continue }
                for id in Array(runs.keys) { close(id) }
                resolvedSince = [:]
                blind = true
                kept.append(event)
            case .resolved(let id, let property, _):
                guard resolvedSince[id, default: []].insert(property).inserted else { continue }
                close(id)
                named.insert(id)
                kept.append(event)
            case .applied(let survey, let action), .created(let survey, let action, _):
                let id = action.id
                resolvedSince[id] = nil
                if var run = runs[id], run.survey == survey, case .applied = event, run.fold(action) {
                    runs[id] = run
                    continue
                }
                close(id)
                if case .applied = event, action.kind == .create, !blind, !named.contains(id), !edited.contains(id) {
                    var properties: [String: String] = [:]
                    for property in action.properties { properties[property.name] = property.value }
                    runs[id] = Run(at: kept.count, survey: survey, action: action,
                                   entity: EntityList.Entity(id: id, label: action.label ?? "", version: 1, properties: properties))
                }
                named.insert(id)
                kept.append(event)
            }
        }
        for id in Array(runs.keys) { close(id) }
        return kept.compactMap { $0 }
    }

    public var jsonLine: String {
        switch self {
        case .survey(let id): return "{\"survey\":\(PropertyValue.jsonString(id))}"
        case .applied(let survey, let action), .created(let survey, let action, _):
            var object: [String: PropertyValue] = [
                "survey": .string(survey), "entity": .string(action.id), "kind": .string(action.kind.rawValue),
                "set": .array(action.properties.map { .array([.string($0.name), .string($0.value)]) }),
            ]
            if let label = action.label { object["label"] = .string(label) }
            if let base = action.base {
                object["base"] = .dictionary(["version": .integer(base.version), "label": .string(base.label),
                                              "properties": .dictionary(base.properties.mapValues { .string($0) })])
            }
            if case .created(_, _, let version) = self { object["version"] = .integer(version) }
            return PropertyValue.jsonObjectText(object)
        case .edit(let change): return "{\"edit\":\(change)}"
        case .resolved(let id, let property, let value):
            return "{\"resolved\":\(PropertyValue.jsonString(id)),\"property\":\(PropertyValue.jsonString(property)),"
                + "\"value\":\(PropertyValue.jsonString(value))}"
        }
    }

    /// nil for a line that is none of these (a line a crash cut short, a newer version's
    /// event). An action line whose action this version cannot read (a newer kind, a base of
    /// another shape) is its survey's `{"survey": ID}`: replayed as the survey is now, there.
    public init?(jsonLine line: Substring) {
        var text = String(line)
        guard let object = try? text.withUTF8({ try PropertyValue.answers(jsonObject: $0) }) else { return nil }
        if case .string(let survey)? = object["survey"], object["entity"] != nil {
            guard let action = Self.action(in: object) else {
                self = .survey(survey)
                return
            }
            if let value = object["version"] {
                guard case .integer(let version) = value, action.kind == .create, version >= 1 else {
                    self = .survey(survey)
                    return
                }
                self = .created(survey: survey, action: action, version: version)
            } else {
                self = .applied(survey: survey, action: action)
            }
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

    /// Replays a folded create (`EntityLogEvent.created`): the entity as its survey's saves
    /// left it, at the version they left it at (one where it was created here), and one more
    /// for each change a supervisor's edit taken at its creation made on top.
    @discardableResult
    public mutating func replayCreated(_ action: EntityAction, survey: String, version: Int) -> Change {
        note(.created(survey: survey, action: action.forLog, version: version))
        let result = applyUnnoted(action, survey: survey)
        if result == .created, let i = place(of: action.id) {
            let index = placeOfID
            entities[i].version += version - 1
            placeOfID = index
        }
        return result
    }

    /// Forgets the events noted (once the storage has written them).
    public mutating func clearLog() { log = [] }
}
