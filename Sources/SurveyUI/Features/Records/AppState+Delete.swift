import SurveyValues
import SurveyForms

/// Deleting a survey: asked on the status line (`Delete "Last, First"? y/n`), saved at once,
/// kept in the deleted-surveys file, and undone with Ctrl-Z.
extension AppState {
    /// `d` or Delete in the list, Delete on the form while browsing: ask first.
    mutating func requestRecordDelete() -> [Effect] {
        guard document != nil, case .record(let index) = shown, let effects = commitEditing() else {
            if document != nil { statusLine.tell("Nothing to delete: the New form is not a saved survey (Clear empties it)") }
            return []
        }
        form.ask(.delete(index))
        statusLine.ask("Delete \(session.quotedTitle(records[index]))? y/n")
        return effects
    }

    /// `y`: delete it and save; the next record in the list shows (the previous one when it
    /// was the last).
    mutating func deleteRecord(_ index: Int) -> [Effect] {
        guard records.indices.contains(index) else { return [] }
        let removed = records[index]
        var next: Int?
        if let position = list.projection.position(ofRecord: index) {
            if position + 1 < list.projection.count { next = list.projection.record(atPosition: position + 1) }
            else if position > 0 { next = list.projection.record(atPosition: position - 1) }
        }
        rollback = captureRollback()
        session.expect(.change(.delete, label: "delete of \(session.quotedTitle(removed))"))
        document?.records.remove(at: index)
        if let next {
            showRecord(next > index ? next - 1 : next)
        } else {
            list.select(0)
            shown = .draft
            screen.moveFocus(to: .form)
        }
        statusLine.tell("Deleted \(session.quotedTitle(removed)): Ctrl-Z brings it back")
        // The copy among the deleted surveys first: a crash between the two then leaves a
        // survey listed twice, never one kept nowhere.
        return [.keepDeleted([removed]), .saveDocument]
    }
}
