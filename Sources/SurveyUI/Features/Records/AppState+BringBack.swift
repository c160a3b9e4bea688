import SurveyValues
import SurveyForms

/// `b` in F4 (issue 31, edit history): the survey shown as it was before its last change
/// made here, brought back as a new change, as `survey history ID --bring-back N` brings back
/// one of the team's versions: saved like any edit (asked why first when the form or a
/// supervisor's approval asks it, `AppState+ChangeReasons`), noted in the history with what it
/// changed, and undone with Ctrl-Z. Pressed again, it brings back the version it replaced.
extension AppState {
    mutating func bringBackBeforeLastChange() -> [Effect] {
        guard case .record(let index) = shown, records.indices.contains(index), let id = records[index].instanceID,
              let edits = session.edits, edits.survey == id, let last = edits.entries.last else {
            statusLine.tell("No change made here to bring back (b brings back a survey as it was before its last change)")
            return []
        }
        let record = records[index]
        guard let brought = Self.answers(of: record, before: last) else {
            statusLine.warn("\(session.quotedTitle(record)) is not as its last change left it, or that change cannot be taken back here: "
                 + "nothing changed (survey history \(id) --bring-back N brings back one of the team's versions)")
            return []
        }
        rollback = captureRollback()
        session.expect(.change(.edit, label: "bring-back of \(session.quotedTitle(record))"))
        document?.records[index] = brought
        let when = LocalTime.text(last.at, in: environment.timeZone, seconds: false)
        statusLine.tell("Brought back \(session.quotedTitle(brought)) as it was before the change of \(when) (\(counted(last.changes.count, "answer"))): "
             + "Ctrl-Z undoes it")
        // The history shown in F4 read again, with this change in it.
        return [.saveDocument, .readHistory(survey: id)]
    }

    /// `record` with `change`'s answers set back to what they were before it; nil when the
    /// survey no longer holds what that change left (a later change, noted or not) or its
    /// members moved so the change cannot be taken back exactly: the result is checked by
    /// working out the change again from it.
    static func answers(of record: Record, before change: EditHistoryEntry) -> Record? {
        guard !record.isSealed, !change.changes.isEmpty else { return nil }
        let current = record.answers
        var answers = PropertyValue.dictionary(current)
        for step in change.changes.reversed() {
            guard !step.path.isWholeSurvey, answers.setValue(step.old, at: step.path) else { return nil }
        }
        guard case .dictionary(let before) = answers, AnswerChanges.between(before, current) == change.changes else { return nil }
        var brought = Record(before)
        if let id = record[Record.instanceIDKey] { brought[Record.instanceIDKey] = id }
        return brought
    }
}
