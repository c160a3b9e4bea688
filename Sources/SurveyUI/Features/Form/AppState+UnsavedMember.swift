import SurveyValues
import SurveyForms

/// A member that holds no answer is never stored (issue 27). ^O and `y` to "Add another …?"
/// add a member in memory only; the first answer kept in it saves the survey with it, as any
/// answer does. Left empty (another member, out of the roster, another survey, a sync or
/// quitting), it is taken out again: the file never holds an empty `{}` member, the count never
/// goes up by one, and an export never writes a blank row for it. Collect likewise keeps no
/// repeat instance nobody answered when the keyer declines it.
extension AppState {
    /// After every action (`update`): a member added by hand that now holds an answer is an
    /// ordinary member; one left empty goes. `effects`: what the action asked for; anything
    /// that writes or leaves the document counts as leaving, so nothing is written with it.
    mutating func settleUnsavedMember(after effects: [Effect]) {
        guard let member = form.unsavedMember else { return }
        guard let record = member.survey(in: records, draft: draft) else {
            form.keepUnsavedMember(nil)   // the survey is gone (undone, reloaded): nothing to keep
            return
        }
        if questionnaire.memberHoldsAnswers(record, at: member.steps) {
            form.keepUnsavedMember(nil)   // its first answer was kept: stored with the survey
            return
        }
        let leaves = effects.contains { $0.writesOrLeavesDocument }
        if !leaves, shown == member.survey, member.holds(formItem, in: outline) { return }
        dropUnsavedMember(member, from: record)
    }

    /// Takes the empty member out of its survey, in memory (it was never saved), and shows
    /// the member before it. The highlight, the field being typed and an open picker stay
    /// on the same questions, whose places in the walk may move (the member shown now can
    /// hold a roster the empty one did not).
    mutating func dropUnsavedMember(_ member: UnsavedMember, from record: Record) {
        form.keepUnsavedMember(nil)
        let walk = outline
        let highlighted = if case .field(let i) = formItem { EntryAnchor(i, in: walk) } else { EntryAnchor?.none }
        let typed = editing.flatMap { EntryAnchor($0.entry, in: walk) }
        let picked = picker.flatMap { EntryAnchor($0.entry, in: walk) }
        defer { follow(highlighted: highlighted, typed: typed, picked: picked, member: member) }
        var restored: Record
        if record == member.added {
            restored = member.before   // exactly what the file holds
        } else {
            restored = record
            restored.removeInstance(at: member.steps)
            if questionnaire.form != nil, let last = member.steps.last {
                var hidden = hiddenAnswersHere
                restored = questionnaire.settled(restored, changedAt: AnswerPath(Array(member.steps.dropLast()), last.name),
                                                 before: record, hidden: &hidden, clock: ruleClock)
            }
        }
        switch member.survey {
        case .draft: form.setDraft(restored)
        case .record(let i): document?.records[i] = restored
        }
        if let last = member.steps.last {
            let key = FormWalk.RepeatHeading.selectionKey(parent: Array(member.steps.dropLast()), name: last.name)
            if (form.instances[key] ?? 0) >= last.index { form.showInstance(max(0, last.index - 1), of: key) }
            if status == nil { statusLine.tell("\(member.label) \(last.index + 1) held no answer: not kept") }
        }
    }
}

extension AppState {
    /// The highlight, the field being typed and the picker, found again in the walk after
    /// the member went; one inside it moves to its roster's heading, and stops typing.
    private mutating func follow(highlighted: EntryAnchor?, typed: EntryAnchor?, picked: EntryAnchor?, member: UnsavedMember) {
        let walk = outline
        guard let last = member.steps.last else { return }
        let heading = walk.headingEntry(FormWalk.RepeatHeading.selectionKey(parent: Array(member.steps.dropLast()), name: last.name))
        if let highlighted {
            if let i = highlighted.entry(in: walk) { form.highlight(.field(i)) } else if let heading { form.highlight(.field(heading)) }
        }
        if let typed, var buffer = editing {
            if let i = typed.entry(in: walk) {
                buffer.entry = i
                form.beginEditing(buffer)
            } else {
                form.stopEditing()
            }
        }
        if let picked, var p = picker {
            if let i = picked.entry(in: walk) {
                p.entry = i
                popovers.present(.picker(p))
            } else {
                popovers.dismiss()
            }
        }
    }
}

extension UnsavedMember {
    /// The survey the member was added to, if it is still there (the New form, or the stored
    /// survey at its place with the same id).
    func survey(in records: RecordList, draft: Record) -> Record? {
        switch survey {
        case .draft:
            return draft
        case .record(let i):
            guard records.indices.contains(i), records[i].instanceID == before.instanceID else { return nil }
            return records[i]
        }
    }

    /// Whether the highlight (`item`) is on a question of the member (or of a roster inside
    /// it); the walk is read only for a question.
    func holds(_ item: AppState.FormItem, in walk: @autoclosure () -> FormWalk) -> Bool {
        guard case .field(let entry) = item else { return false }
        let outline = walk()
        guard outline.indices.contains(entry) else { return false }
        let steps = outline.heading(entry)?.parent ?? outline.steps(entry)
        return steps.starts(with: self.steps)
    }
}

/// An entry of the form's walk by what it is rather than where it stands: its instance, its
/// row there, and the name of the roster it heads (its place is in `steps`).
struct EntryAnchor: Equatable {
    let steps: [AnswerPath.Step]
    let fieldIndex: FieldIndex
    let heading: String?

    init(steps: [AnswerPath.Step], fieldIndex: FieldIndex, heading: String?) {
        self.steps = steps
        self.fieldIndex = fieldIndex
        self.heading = heading
    }

    init?(_ i: EntryNumber, in walk: FormWalk) {
        guard let entries = walk.entries, entries.indices.contains(i.index) else { return nil }
        steps = entries[i.index].steps
        fieldIndex = entries[i.index].fieldIndex
        heading = entries[i.index].heading?.name
    }

    func entry(in walk: FormWalk) -> EntryNumber? {
        walk.entries?.firstIndex { $0.steps == steps && $0.fieldIndex == fieldIndex && $0.heading?.name == heading }.map { EntryNumber($0) }
    }
}

extension Effect {
    /// Effects after which a member added by hand and still empty must not be in memory:
    /// those that write the document or leave it (`changesDocument`), and the New form's
    /// save, quitting and keeping what is in memory only.
    var writesOrLeavesDocument: Bool {
        switch self {
        case .saveDraft, .quit, .keepUnsavedWork: true
        default: changesDocument
        }
    }
}
