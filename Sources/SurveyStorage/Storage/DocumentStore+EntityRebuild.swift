import FoundationEssentials
import SurveyValues
import SurveyForms

/// `survey entities --rebuild`: the entity lists derived again from the documents' surveys,
/// for a list that could not be written when its surveys were stored (a full disk, a file in
/// the way then), that someone damaged, or whose two files a crash left out of step. It gives
/// the list the saves and syncs made: the surveys' actions as they were applied, the
/// supervisor's edits and the conflicts resolved by hand are replayed in the order the list's
/// log (`.LIST.entities.log`) says they came here, then what the surveys hold now and the log
/// lacks; what no survey carries is kept (the retirements, and the rows no survey registers,
/// such as those of a list ODK Central handed over, as the list held them).
extension DocumentStore {
    /// Derives `only` (every list, when nil) again from the complete surveys of every document
    /// whose form has an `entities` sheet, under the folder's lock from the first read (a save
    /// or a sync waits, and is never lost between the read and the write). First the
    /// registrations and supervisor's edits the log does not name (a list made before there
    /// was a log, a log lost; an edit of an entity not there yet after the log's events),
    /// then the log's events in its order, then the rest (`replay`).
    /// Each update is merged against its base, as when it came (a conflict found again is
    /// kept again). A document that cannot be read refuses
    /// the rebuild (nothing is written). Returns each list with what it holds now.
    public func rebuildEntityLists(only: String? = nil, clock: Questionnaire.Clock) throws -> [EntityListChange] {
        if let only, let why = Self.entityListNameProblem(only) { throw DocumentError("--list \(only): \(why)") }
        return try withFolderLock {
            let surveys = try entitySurveys(only: only, clock: clock)
            var names = surveys.names
            if let only, !names.contains(only) { names.append(only) }
            for name in names { if let why = Self.entityListNameProblem(name) { throw DocumentError("The entity list “\(name)” cannot be written: \(why)") } }
            // Every list read before any is written: one that cannot be read refuses them all.
            var old: [String: (list: EntityList, log: [EntityLogEvent], unreadable: Int)] = [:]
            for name in names {
                do {
                    let (events, unreadable) = try entityLog(of: name)
                    old[name] = (try readEntityList(name) ?? EntityList(), events, unreadable)
                } catch let error as DocumentError {
                    throw DocumentError("\(error.message): it was left as it is, and no entity list was rebuilt")
                }
            }
            var changes: [EntityListChange] = []
            for name in names {
                guard let (was, events, unreadable) = old[name] else { continue }
                var change = EntityListChange(list: name)
                change.unreadableLogLines = unreadable
                var list = Self.replay(surveys.actions[name] ?? [], created: surveys.created, over: was, log: events, counting: &change)
                change.conflicts = list.conflicts.count
                change.keptAsHeld = was.entities.filter { !surveys.created.contains($0.id) && !was.retired.contains($0.id) }.count
                try replaceEntityLog(list.log, of: name)
                list.clearLog()
                try writeEntityList(list, named: name)
                changes.append(change)
            }
            return changes
        }
    }

    /// One survey's actions on one list, in the order a rebuild falls back to.
    struct SurveyActions {
        var survey: String?
        var actions: [EntityAction]
    }

    /// The complete surveys' actions by list (in the fallback order: the documents whose
    /// forms register first, each in its own order), the lists they name, and the ids of the
    /// entities they create.
    private func entitySurveys(only: String?, clock: Questionnaire.Clock)
        throws -> (actions: [String: [SurveyActions]], names: [String], created: Set<String>) {
        var sources: [(registers: Bool, name: String, questionnaire: Questionnaire, records: [Record])] = []
        for name in try documentNames() {
            guard let questionnaire = try? questionnaire(for: name), let form = questionnaire.form,
                  form.entities.contains(where: { only == nil || $0.list == only }) else { continue }
            // As its commits stand: a survey the app keeps in its journal yet counts.
            switch loadWithJournal(name) {
            case .success(let document):
                sources.append((form.entities.contains { $0.mode != .update }, name, questionnaire, Array(document.records)))
            case .failure(let error):
                throw DocumentError("“\(name)” cannot be read (\(error.message)): no entity list was rebuilt")
            }
        }
        sources = sources.filter(\.registers) + sources.filter { !$0.registers }
        var byList: [String: [SurveyActions]] = [:]
        var names: [String] = []
        var created = Set<String>()
        for source in sources {
            for record in source.records where !record.isIncomplete && !record.isSealed {
                var mine: [String: [EntityAction]] = [:]
                for action in FormInstance(source.questionnaire, record: record, clock: clock).entityActions()
                where only == nil || action.list == only {
                    if action.kind == .create { created.insert(action.id) }
                    if !names.contains(action.list) { names.append(action.list) }
                    mine[action.list, default: []].append(action)
                }
                for (list, actions) in mine { byList[list, default: []].append(SurveyActions(survey: record.instanceID, actions: actions)) }
            }
        }
        return (byList, names, created)
    }

    /// `was` derived again: its rows no survey creates kept as they are; the registrations
    /// the log does not name (a list made before there was a log, a write cut off before its
    /// log) and the supervisor's edits it does not name; the log's events, each survey's
    /// action as it was applied then (a survey re-saved, what it changed from its last
    /// version); then what each survey's answers hold now and the log does not (a survey the
    /// log does not name, an update-only one after the registrations it updates; a survey
    /// changed since its last line), as a save would write it. An update whose entity is not
    /// there yet is tried again once the rest is in (it is never taken for done).
    private static func replay(_ surveys: [SurveyActions], created: Set<String>, over was: EntityList, log: [EntityLogEvent],
                               counting change: inout EntityListChange) -> EntityList {
        var list = was.emptied()
        for entity in was.entities where !created.contains(entity.id) { list.keep(entity) }
        var place: [String: Int] = [:]
        for (i, one) in surveys.enumerated() { if let id = one.survey, place[id] == nil { place[id] = i } }
        var edits: [Int64: EntityEdit] = [:]
        for edit in was.editsTaken where edit.change != 0 { edits[edit.change] = edit }
        var logged = Set<String>()
        var loggedEdits = Set<Int64>()
        for event in log {
            switch event {
            case .survey(let id), .applied(let id, _), .created(let id, _, _): logged.insert(id)
            case .edit(let number): loggedEdits.insert(number)
            case .resolved: break
            }
        }
        // What each survey's entity held after its last action applied here (by survey's
        // place, then entity id): a later version of it changes only what differs.
        var known: [Int: [String: EntityAction]] = [:]
        func remember(_ i: Int, _ action: EntityAction) {
            var now = known[i]?[action.id] ?? EntityAction(kind: action.kind, list: action.list, id: action.id, label: nil,
                                                             properties: [], member: [])
            if let label = action.label { now.label = label }
            for property in action.properties {
                if let at = now.properties.firstIndex(where: { $0.name == property.name }) { now.properties[at] = property } else { now.properties.append(property) }
            }
            known[i, default: [:]][action.id] = now
        }
        var waiting: [(Int, EntityAction)] = []
        var waits = Set<String>()
        /// Applies one of survey `i`'s actions; a whole one not taken for done while its
        /// entity is not there.
        func apply(_ i: Int, _ action: EntityAction, whole: Bool) {
            let result = list.apply(action, survey: surveys[i].survey)
            if result == .missing, whole {
                if waits.insert("\(i) \(action.id)").inserted { waiting.append((i, action)) }
                return
            }
            count(result, of: action.id, in: &change)
            remember(i, action)
        }
        func applyWhole(_ i: Int) {
            guard known[i] == nil else { return }
            for action in surveys[i].actions { apply(i, action, whole: true) }
            if known[i] == nil { known[i] = [:] }
        }
        func unlogged(_ one: SurveyActions) -> Bool { one.survey.map { !logged.contains($0) } ?? true }
        for (i, one) in surveys.enumerated() where unlogged(one) && one.actions.contains(where: { $0.kind != .update }) { applyWhole(i) }
        // The edits the log does not name: of an entity here, now; of one not here yet, after
        // the log's events (over the saves it most likely came after: a lost `{"edit": N}`
        // line then rebuilds the same whether the saves were folded into a create or not).
        var replayed = Set<Int64>()
        var unnamed: [EntityEdit] = []
        for edit in was.editsTaken where edit.change == 0 || !loggedEdits.contains(edit.change) {
            replayed.insert(edit.change)
            if list.holds(edit.entityID) { list.replayEdit(edit) } else { unnamed.append(edit) }
        }
        for event in log {
            switch event {
            case .survey(let id):
                if let i = place[id] { applyWhole(i) }
            case .applied(let id, var action), .created(let id, var action, _):
                // A survey no document holds complete now no longer counts.
                guard let i = place[id], surveys[i].actions.contains(where: { $0.id == action.id }) else { continue }
                action.list = surveys[i].actions[0].list
                let first = known[i]?[action.id] == nil
                let result: EntityList.Change
                if case .created(_, _, let version) = event {
                    result = list.replayCreated(action, survey: id, version: version)
                } else {
                    result = list.apply(action, survey: id)
                }
                if result == .missing {
                    if !first { count(result, of: action.id, in: &change) }
                    continue        // waits for the end, whole
                }
                count(result, of: action.id, in: &change)
                remember(i, action)
            case .edit(let number):
                guard let edit = edits[number], replayed.insert(number).inserted else { continue }
                list.replayEdit(edit)
            case .resolved(let id, let property, let value):
                list.replayResolution(id: id, property: property, value: value)
            }
        }
        for edit in unnamed { list.replayEdit(edit) }
        // What the answers hold now and no line of the log did, as a save writes it.
        for (i, one) in surveys.enumerated() {
            for action in one.actions {
                guard let old = known[i]?[action.id] else {
                    apply(i, action, whole: true)
                    continue
                }
                var changed = action
                if changed.label == old.label { changed.label = nil }
                changed.properties = action.properties.filter { property in
                    old.properties.first { $0.name == property.name }?.value != property.value
                }
                guard changed.label != nil || !changed.properties.isEmpty else { continue }
                var properties: [String: String] = [:]
                for property in old.properties { properties[property.name] = property.value }
                changed.base = EntityBase(version: action.base?.version ?? 0, label: old.label ?? "", properties: properties)
                apply(i, list.holds(action.id) ? changed : action, whole: !list.holds(action.id))
            }
        }
        // The updates whose entity was not there, again, while one more finds its entity.
        var progress = true
        while progress, !waiting.isEmpty {
            progress = false
            let again = waiting
            waiting = []
            for (i, action) in again {
                let result = list.apply(action, survey: surveys[i].survey)
                if result == .missing { waiting.append((i, action)) } else { progress = true; count(result, of: action.id, in: &change); remember(i, action) }
            }
        }
        for (_, action) in waiting { count(.missing, of: action.id, in: &change) }
        return list
    }
}
