import FoundationEssentials
import SurveyValues
import SurveyForms

/// `survey entities --rebuild`: the entity lists derived again from the documents' surveys,
/// for a list that could not be written when its surveys were stored (a full disk, a file in
/// the way then), or that someone damaged. What no survey carries is kept beside the list and
/// taken again: the retirements stay, and the supervisor's edits taken are applied after the
/// surveys.
extension DocumentStore {
    /// Derives `only` (every list, when nil) again from the complete surveys of every document
    /// whose form has an `entities` sheet: the documents whose forms register first, then
    /// those that only update, each in its own order; each update merged against its base, as
    /// when it came (a conflict found again is kept again). A document that cannot be read
    /// refuses the rebuild (nothing is written). Returns each list with what it holds now.
    public func rebuildEntityLists(only: String? = nil, clock: Questionnaire.Clock) throws -> [EntityListChange] {
        if let only, let why = Self.entityListNameProblem(only) { throw DocumentError("--list \(only): \(why)") }
        var sources: [(registers: Bool, name: String, questionnaire: Questionnaire, records: [Record])] = []
        for name in try documentNames() {
            guard let questionnaire = try? questionnaire(for: name), let form = questionnaire.form,
                  form.entities.contains(where: { only == nil || $0.list == only }) else { continue }
            switch load(name) {
            case .success(let document):
                sources.append((form.entities.contains { $0.mode != .update }, name, questionnaire, Array(document.records)))
            case .failure(let error):
                throw DocumentError("“\(name)” cannot be read (\(error.message)): no entity list was rebuilt")
            }
        }
        sources = sources.filter(\.registers) + sources.filter { !$0.registers }
        var actions: [SurveyEntityAction] = []
        for source in sources {
            for record in source.records where !record.isIncomplete {
                for action in FormInstance(source.questionnaire, record: record, clock: clock).entityActions()
                where only == nil || action.list == only {
                    actions.append(SurveyEntityAction(whole: action, changed: action, survey: record.instanceID))
                }
            }
        }
        var names = actions.map(\.whole.list).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if let only, !names.contains(only) { names.append(only) }
        for name in names { if let why = Self.entityListNameProblem(name) { throw DocumentError("The entity list “\(name)” cannot be written: \(why)") } }
        return try withFolderLock {
            var lists: [String: EntityList] = [:]
            for name in names {
                do {
                    lists[name] = (try readEntityList(name) ?? EntityList()).emptied()
                } catch let error as DocumentError {
                    throw DocumentError("\(error.message): it was left as it is, and no entity list was rebuilt")
                }
            }
            var changes = names.map { EntityListChange(list: $0) }
            for one in actions {
                guard let i = names.firstIndex(of: one.whole.list) else { continue }
                Self.count(lists[one.whole.list]?.apply(one.whole, survey: one.survey) ?? .unchanged, of: one.whole.id, in: &changes[i])
            }
            for (i, name) in names.enumerated() {
                lists[name]?.takeEditsAgain()
                changes[i].conflicts = lists[name]?.conflicts.count ?? 0
                try writeEntityList(lists[name] ?? EntityList(), named: name)
            }
            return changes
        }
    }
}
