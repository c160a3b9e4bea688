import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// A sync takes a supervisor's edits and retirements of entities (`survey.entity_edits`) in
/// the server's order of changes, which numbers the surveys too: those up to where the pull
/// read, between the pulled surveys that change the same lists (`DocumentStore.recordEntities`),
/// then the rest, for every entity list beside the documents and each the form registers into
/// or updates. One query asks for every list's. A list that cannot take them is said, and the
/// others take theirs; the surveys are kept whatever happens.
extension DocumentSync {
    /// Why lists could not take the edits (each list's reason, joined), or nil.
    static func takeEntityEdits(_ server: SurveyServer, _ store: DocumentStore, form: XLSForm?, upTo last: Int64? = nil,
                                target: ConnectionString) -> String? {
        let names = listNames(store, form: form)
        var problems: [String] = []
        let edits: [EntityEdit]
        do {
            edits = try entityEditsWaiting(server, store, lists: names, upTo: last)
        } catch {
            return describe(error, target: target)
        }
        for name in names {
            let own = edits.filter { $0.list == name }
            guard !own.isEmpty else { continue }
            do {
                let change = try store.takeEntityEdits(own, list: name)
                if !change.setAside.isEmpty { problems.append(change.summary) }
            } catch {
                problems.append(describe(error, target: target))
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The folder's lists and those `form` names, each once.
    static func listNames(_ store: DocumentStore, form: XLSForm?) -> [String] {
        var names = store.entityListNames()
        for list in form?.entities.map(\.list) ?? [] where !names.contains(list) && DocumentStore.entityListNameProblem(list) == nil {
            names.append(list)
        }
        return names
    }

    /// The edits of `lists` after the lowest cursor kept beside them (each list passes over
    /// those it took), up to `last`: one round trip per 10,000. A list whose cursor cannot be
    /// read asks from the start (taking them then says why it cannot).
    static func entityEditsWaiting(_ server: SurveyServer, _ store: DocumentStore, lists: [String],
                                   upTo last: Int64?) throws -> [EntityEdit] {
        let names = lists.filter { DocumentStore.entityListNameProblem($0) == nil }
        guard !names.isEmpty else { return [] }
        let cursor = names.map { (try? store.entityEditCursor($0)) ?? 0 }.min() ?? 0
        var edits: [EntityEdit] = []
        var batch: [EntityEdit] = []
        repeat {
            batch = try server.entityEdits(lists: names, since: edits.last?.change ?? cursor, upTo: last)
            edits += batch
        } while batch.count == 10_000
        return edits
    }
}
