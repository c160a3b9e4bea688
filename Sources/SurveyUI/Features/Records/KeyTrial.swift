import SurveyValues
import SurveyForms

/// A key tried on a copy of the state, and what it would start or change: asked by the
/// guards of surveys that may not change here (another role's, `AppState+Owners`; an
/// encrypted one, `AppState+Sealed`) before the copy is kept, so a refused key leaves the
/// state exactly as it was. Both guards ask the same questions of a trial, so they are
/// asked here once.
struct KeyTrial {
    /// The state before the key.
    let before: AppState
    /// The copy after it.
    let after: AppState
    /// What the key asked for (a delete keeps the surveys it removes, a conflict's choice).
    let effects: [Effect]

    /// The stored survey on the form that the key starts changing, by its index in `after`:
    /// typing, the picker opened, a member added by hand or asked about.
    var startsChangingShown: Int? {
        guard case .record(let i) = after.shown else { return nil }
        let pickerOpened: Bool = if case .picker = after.popover, after.popover != before.popover { true } else { false }
        let starts = (after.editing != nil && before.editing == nil) || pickerOpened
            || (after.form.unsavedMember != nil && before.form.unsavedMember == nil)
            || (after.form.rosterQuestion != nil && before.form.rosterQuestion == nil)
        return starts ? i : nil
    }

    /// The y/n question the key asks about a survey, when it is a new one.
    var asks: SurveyQuestion? {
        after.form.pendingQuestion != before.form.pendingQuestion ? after.form.pendingQuestion : nil
    }

    /// The stored surveys changed in place (neither added nor removed: undo, redo, an
    /// answer), by index. Unchanged chunks of the list are skipped whole, so a key that
    /// changed one survey costs little.
    var changedInPlace: [Int] {
        guard after.records.count == before.records.count, !after.records.isSameStorage(as: before.records) else { return [] }
        return after.records.differingIndices(from: before.records)
    }

    /// The first survey of another role (`session`'s owners) that the key starts changing
    /// or changes, with its owner.
    var othersSurveyTouched: (owner: String, record: Record)? {
        let session = before.session
        func others(_ i: Int, in state: AppState) -> (owner: String, record: Record)? {
            guard state.records.indices.contains(i) else { return nil }
            let record = state.records[i]
            return session.othersOwner(of: record).map { ($0, record) }
        }
        if let i = startsChangingShown, let found = others(i, in: after) { return found }
        // Deleting it or clearing its answers (a copy is a new survey, this laptop's).
        switch asks {
        case .delete(let i)?, .clearNotAsked(let i, _)?: if let found = others(i, in: after) { return found }
        default: break
        }
        for effect in effects {
            switch effect {
            case .keepDeleted(let removed):
                for record in removed { if let owner = session.othersOwner(of: record) { return (owner, record) } }
            case .resolveConflict(let id, _, true):
                if let owner = session.sync?.othersSurveys[id], let i = before.records.firstIndex(where: { $0.instanceID == id }) {
                    return (owner, before.records[i])
                }
            default: break
            }
        }
        for i in changedInPlace { if let found = others(i, in: before) { return found } }
        return nil
    }

    /// The encrypted survey the key starts changing, copies or changes (a delete, or an
    /// Add undone, is allowed: the survey goes or comes back encrypted).
    var sealedSurveyTouched: Record? {
        let records = before.records
        func sealed(_ i: Int) -> Record? { records.indices.contains(i) && records[i].isSealed ? records[i] : nil }
        if let i = startsChangingShown, let found = sealed(i) { return found }
        switch asks {
        case .copy(let i)?, .clearNotAsked(let i, _)?: if let found = sealed(i) { return found }
        default: break
        }
        for i in changedInPlace { if let found = sealed(i) { return found } }
        return nil
    }
}

extension DocumentSession {
    /// "“Kamau, John” is read-only here: it is ana's survey (only ana changes it; a
    /// supervisor reviews it)".
    func othersSurveyRemark(_ record: Record, owner: String) -> String {
        "\(quotedTitle(record)) is read-only here: \(SurveyOwner.reason(owner))"
    }

    /// "“(encrypted)” is encrypted for the data manager's key: it cannot be opened here".
    func sealedSurveyRemark(_ record: Record) -> String {
        "\(quotedTitle(record)) is encrypted for the data manager's key: it cannot be opened here"
    }
}
