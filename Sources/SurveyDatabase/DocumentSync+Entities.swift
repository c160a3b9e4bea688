import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// A sync takes a supervisor's edits and retirements of entities (`survey.entity_edits`)
/// after the surveys: for every entity list beside the documents and each the form
/// registers into or updates, those after the cursor kept beside the list. A list that
/// cannot take them is said, as a list that cannot take the surveys' changes; the surveys
/// are kept whatever happens.
extension DocumentSync {
    /// Why the lists could not take the edits, or nil.
    static func takeEntityEdits(_ server: SurveyServer, _ store: DocumentStore, form: XLSForm?,
                                target: ConnectionString) -> String? {
        var names = store.entityListNames()
        for list in form?.entities.map(\.list) ?? [] where !names.contains(list) && DocumentStore.entityListNameProblem(list) == nil {
            names.append(list)
        }
        for name in names {
            do {
                let cursor = try store.entityEditCursor(name)
                var edits: [EntityEdit] = []
                repeat {
                    edits = try server.entityEdits(list: name, since: edits.last?.change ?? cursor)
                    try store.takeEntityEdits(edits, list: name)
                } while edits.count == 10_000
            } catch {
                return describe(error, target: target)
            }
        }
        return nil
    }
}
