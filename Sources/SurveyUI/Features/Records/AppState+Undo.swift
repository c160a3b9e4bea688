import SurveyValues
import SurveyForms

/// Undo and redo of document changes. A change is recorded only once its save succeeded, so
/// the history never holds a step that is not on disk; an undo is itself a change that is
/// saved at once like any other.
extension AppState {
    /// What the save in flight will mean for the history when it succeeds.
    enum PendingChange: Equatable, Sendable {
        case change(UndoHistory.Step.Kind, label: String)
        case undo(UndoHistory.Step)
        case redo(UndoHistory.Step)
    }

    /// Ctrl-Z (u in the list), after `committingField`: the last change, undone and saved.
    mutating func undoLast() -> [Effect] {
        guard document != nil else { return [] }
        if let effects = putBackDeletedMember() ?? putBackClearedAnswer() { return effects }
        guard let step = session.takeStep(undoing: true) else {
            statusLine.tell("Nothing to undo")
            return []
        }
        return apply(step, undoing: true)
    }

    /// Ctrl-Y (U in the list), after `committingField`: the last undone change, again.
    mutating func redoLast() -> [Effect] {
        guard document != nil else { return [] }
        guard let step = session.takeStep(undoing: false) else {
            statusLine.tell("Nothing to redo")
            return []
        }
        return apply(step, undoing: false)
    }

    /// Makes the document what it was before (or after) `step`, by replaying that change
    /// on the document as it is now: by id, so records added meanwhile stay.
    private mutating func apply(_ step: UndoHistory.Step, undoing: Bool) -> [Effect] {
        let (from, to) = undoing ? (step.after, step.before) : (step.before, step.after)
        guard let current = document else { return [] }
        // Nothing changed since the step (the usual case): the step's other side is the
        // answer as it is, without replaying it survey by survey (a merge reads every id).
        let replayed: Result<SurveyDocument, SurveyDocument.MergeClash> = current.records.isSameStorage(as: from.records)
            ? .success(to) : SurveyDocument.merge(base: from, mine: to, theirs: current).map(\.document)
        switch replayed {
        case .success(let merged):
            rollback = captureRollback()
            session.expect(undoing ? .undo(step) : .redo(step))
            form.stopEditing()
            document = merged
            // The survey to show is usually in what the step changed: looked for there first.
            let (prefix, suffix) = merged.records.changedStretch(from: current.records)
            let changed = prefix..<max(prefix, merged.records.count - suffix)
            if let id = undoing ? step.focusBefore : step.focusAfter,
               let index = changed.first(where: { records[$0].instanceID == id })
                ?? records.firstIndex(where: { $0.instanceID == id }) {
                showRecord(index)
            } else {
                list.clampSelection(toCount: recordCount)
                if recordCount == 0 { shown = .draft }
                list.keepCursorInView(in: listContext)
            }
            // Whatever the step, surveys it takes out of the file (redoing a delete, undoing an
            // Add) are copied to the deleted surveys first, as a delete does; but a New form
            // kept as incomplete goes back on the New form (`AppState+Incomplete`).
            let gone = current.surveysRemoved(in: merged)
            if form.takeBackKeptSurvey(step, undoing: undoing, gone: gone, in: draftQuestionnaire) {
                form.highlight(firstFormItem)
                return [.saveDocument, .saveDraft]
            }
            if form.emptyIfKeptAgain(step, undoing: undoing, in: draftQuestionnaire) { return [.saveDocument, .saveDraft] }
            return (gone.isEmpty ? [] : [.keepDeleted(gone)]) + [.saveDocument]
        case .failure:
            // Put it back: the history stays as it was.
            session.putBack(step, undoing: undoing)
            statusLine.warn("Cannot \(undoing ? "undo" : "redo") the \(step.label): that record was changed or removed since")
            return []
        }
    }

    /// The save of a change succeeded: record it (or move it across for undo/redo) and say so.
    /// Returns what the deleted-surveys file needs.
    mutating func changeWasSaved(before: SurveyDocument, focusBefore: String?) -> [Effect] {
        guard let after = document else { return [] }
        let focusAfter: String? = if case .record(let i) = shown { records[i].instanceID } else { nil }
        let then = session.takeEffectsAfterSave()
        guard let pending = session.changeSaved(before: before, after: after, focusBefore: focusBefore, focusAfter: focusAfter)
        else { return then }
        switch pending {
        case .change:
            return then
        case .undo(let step), .redo(let step):
            let undid = if case .undo = pending { true } else { false }
            statusLine.tell("\(undid ? "Undid" : "Redid") \(step.label)")
            // Surveys it brought back (undoing a delete, redoing an Add) are in the file
            // again: their copies come off the deleted list.
            let back = Set(after.surveysRemoved(in: before).compactMap(\.instanceID))
            return back.isEmpty ? [] : [.forgetDeleted(back)]
        }
    }

    /// Ids of the surveys a change in flight already copied to the deleted list (a delete, an
    /// undo or redo that takes surveys out): if its save fails, those copies are taken back.
    var copiesKeptForDelete: Set<String> {
        let removing: Bool = switch session.pendingChange {
        case .change(.delete, _), .undo, .redo: true
        default: false
        }
        guard removing, let before = rollback?.document, let after = document else { return [] }
        return Set(before.surveysRemoved(in: after).compactMap(\.instanceID))
    }
}

extension SurveyDocument {
    /// Surveys of this document that `after` no longer has, by id.
    func surveysRemoved(in after: SurveyDocument) -> [Record] {
        // Only the stretch the two versions do not share can hold one: not every survey's id.
        let (prefix, suffix) = after.records.changedStretch(from: records)
        let kept = Set(after.records[prefix..<(after.records.count - suffix)].compactMap(\.instanceID))
        return records[prefix..<(records.count - suffix)].filter { $0.instanceID.map { !kept.contains($0) } ?? false }
    }
}
