import SurveyValues
import SurveyForms

/// Keying a roster (a repeat) heads-down, as CSPro and ODK Collect do: one member at a time
/// under its heading ("Household member 2 of 4"); PgUp/PgDn pick the member (the form's own
/// keys, `FormState.reduce`), ^O adds one after the one shown, ^D deletes it (y/n). After the
/// last question of a member, Enter asks "Add another Household member? y/n" (`y` starts the
/// next one, `n` goes on past the roster), so a keyer never leaves the home row. With `repeat_count` the form says how many:
/// Enter goes from one member to the next, and none is added or deleted by hand. Where the
/// keys go through rosters is the form's (`FormState+Roster`); here is what changes the
/// survey: adding, deleting and putting back members, and the y/n answers.
extension AppState {
    /// The roster heading the highlight is on or inside, if any.
    var rosterHeadingHere: (entry: EntryNumber, heading: FormWalk.RepeatHeading)? {
        // A flat form has no rosters: asked on every key (the key table's mode), so it must
        // not walk the form to find that out.
        guard questionnaire.form != nil, case .field(let i) = formItem else { return nil }
        let outline = self.outline
        guard outline.indices.contains(i), let h = outline.enclosingHeading(of: i), let heading = outline.heading(h) else { return nil }
        return (h, heading)
    }

    /// ^O (or `y` to "Add another …?"): a new member after the one shown, editing its first
    /// question. It is in memory only until an answer is kept in it (`AppState+UnsavedMember`).
    mutating func addInstance() -> [Effect] {
        guard document != nil, let (_, heading) = rosterHeadingHere else { return [] }
        return addInstance(after: heading)
    }

    mutating func addInstance(after heading: FormWalk.RepeatHeading) -> [Effect] {
        let name = RosterText.name(heading)
        if let fixed = heading.fixedCount {
            statusLine.warn("The form sets how many: \(counted(fixed, name)); none is added by hand")
            return []
        }
        if let empty = form.unsavedMember {
            statusLine.warn("\(empty.label) \((empty.steps.last?.index ?? 0) + 1) has no answer yet: type one, or leave it and it is not kept")
            return []
        }
        let at = heading.count == 0 ? 0 : heading.shown + 1
        let before = formRecord
        var record = before
        // A member of a roster the form shows but the survey does not hold yet is made first.
        guard record.makeInstances(upTo: heading.parent),
              record.insertInstance(of: heading.name, in: heading.parent, at: at) != nil else {
            statusLine.warn("\(name) could not be added: the survey holds something else than answers under “\(heading.name)”")
            return []
        }
        // Not saved: the member is stored with its first answer, or not at all.
        changeFormRecordInMemory(to: record, roster: AnswerPath(heading.parent, heading.name))
        form.keepUnsavedMember(UnsavedMember(survey: shown, steps: heading.parent + [AnswerPath.Step(name: heading.name, index: at)],
                                             before: before, added: formRecord, label: name))
        form.showInstance(at, of: heading.selectionKey)
        audit.note(.addRepeat, at: AnswerPath(heading.parent + [AnswerPath.Step(name: heading.name, index: at)], ""), in: auditContext)
        statusLine.tell("Added \(name) \(at + 1) of \(heading.count + 1)")
        return follow(form.enterMember(of: heading.selectionKey, in: formContext))
    }

    /// ^D: asks before deleting the member shown.
    mutating func requestInstanceDelete() {
        guard document != nil, let (_, heading) = rosterHeadingHere else { return }
        let name = RosterText.name(heading)
        guard heading.count > 0, heading.shown < formRecord.instanceCount(of: heading.name, in: heading.parent) else {
            statusLine.tell("No \(name) to delete here")
            return
        }
        // Within the form's count a member is the form's to keep; one after it (the count
        // went down once it was keyed) is the keyer's to delete.
        if let fixed = heading.fixedCount, heading.shown < fixed {
            statusLine.warn("The form counts the \(name) entries from its answers: change that answer instead")
            return
        }
        form.askRoster(.deleteInstance(heading.steps, label: name, survey: surveyOnForm))
        statusLine.ask("Delete \(name) \(heading.shown + 1) of \(heading.count)\(RosterText.memberTitle(heading.steps, in: formRecord, questionnaire))? y/n")
    }

    /// `y` or `n` (Esc) to the roster's question.
    mutating func answerRoster(_ yes: Bool) -> [Effect] {
        guard let question = form.rosterQuestion else { return [] }
        form.askRoster(nil)
        guard question.survey == surveyOnForm else {
            statusLine.warn("The survey on the form changed: nothing was done, ask again")
            return []
        }
        switch question {
        case .addAnother(let key, _, _):
            let outline = self.outline
            guard let h = outline.headingEntry(key), let heading = outline.heading(h) else { return [] }
            if yes { return addInstance(after: heading) }
            return follow(form.goOnPastRoster(h, in: formContext))
        case .deleteInstance(let steps, let name, _):
            guard yes else {
                statusLine.tell("Kept \(name) \((steps.last?.index ?? 0) + 1)")
                return []
            }
            var record = formRecord
            guard let answers = record.removeInstance(at: steps) else { return [] }
            audit.note(.deleteRepeat, at: AnswerPath(steps, ""), in: auditContext)
            if shown == .draft { form.keepDeletedMember(DeletedMember(steps: steps, answers: answers, label: name)) }
            // Kept in the deleted surveys' file first (as a deleted survey is), then saved without.
            let kept = DeletedMemberEntry(answers: answers, survey: shown == .draft ? "New form" : surveyOnForm,
                                          roster: AnswerPath(Array(steps.dropLast()), steps.last?.name ?? "").description
                                              + "[\((steps.last?.index ?? 0) + 1)]",
                                          deletedAt: ruleClock.now)
            let effects = [.keepDeletedMember(kept)]
                + changeFormRecord(to: record, roster: AnswerPath(Array(steps.dropLast()), steps.last?.name ?? ""),
                                   label: "delete of \(name) \((steps.last?.index ?? 0) + 1)")
            if let last = steps.last {
                let key = FormWalk.RepeatHeading.selectionKey(parent: Array(steps.dropLast()), name: last.name)
                form.showInstance(max(0, last.index - 1), of: key)
                if let h = outline.headingEntry(key) { form.highlight(.field(h)) }
            }
            statusLine.tell("Deleted \(name) \((steps.last?.index ?? 0) + 1): Ctrl-Z brings it back")
            return effects
        }
    }

    /// Ctrl-Z on the New form: the member last deleted from it, back in its place.
    mutating func putBackDeletedMember() -> [Effect]? {
        guard shown == .draft, case .member(let member)? = form.draftUndo.last, let last = member.steps.last else { return nil }
        var record = formRecord
        let parent = Array(member.steps.dropLast())
        guard record.makeInstances(upTo: parent),
              let at = record.insertInstance(of: last.name, in: parent, at: last.index, answers: member.answers) else { return nil }
        _ = form.takeDraftUndo()
        let effects = changeFormRecord(to: record, roster: AnswerPath(parent, last.name), label: "undelete of \(member.label)")
        form.showInstance(at, of: FormWalk.RepeatHeading.selectionKey(parent: parent, name: last.name))
        statusLine.tell("Put back \(member.label) \(at + 1)")
        return effects
    }

    /// Which survey the form shows, so a question asked about it is never answered for another.
    var surveyOnForm: String {
        switch shown {
        case .draft: return "New"
        case .record(let i): return formRecord.instanceID ?? "record \(i)"
        }
    }

    /// The form's record, settled after a change to `roster`'s members.
    private mutating func settledFormRecord(_ changed: Record, roster: AnswerPath) -> Record {
        guard questionnaire.form != nil else { return changed }
        var hidden = hiddenAnswersHere
        // Settling told which roster gained or lost a member compares that roster only.
        let record = questionnaire.settled(changed, changedAt: roster, before: formRecord, hidden: &hidden, clock: ruleClock)
        form.keepHidden(HiddenAnswers(owner: hiddenAnswersOwner, values: hidden))
        return record
    }

    /// The form's record changed in memory only (a member added by hand, not yet answered).
    private mutating func changeFormRecordInMemory(to changed: Record, roster: AnswerPath) {
        let record = settledFormRecord(changed, roster: roster)
        switch shown {
        case .record(let i): document?.records[i] = record
        case .draft: form.setDraft(record)
        }
    }

    /// Writes the form's record (the shown survey, saved with an undo step, or the New form).
    mutating func changeFormRecord(to changed: Record, roster: AnswerPath, label: String) -> [Effect] {
        let record = settledFormRecord(changed, roster: roster)
        rollback = captureRollback()
        switch shown {
        case .record(let i):
            list.pinWhileFiltered(record.instanceID)
            session.expect(.change(.edit, label: "\(label) of \(session.quotedTitle(records[i]))"))
            document?.records[i] = record
            return [.saveDocument]
        case .draft:
            form.setDraft(record)
            form.startDraftClock(at: ruleClock.now)
            return [.saveDraft]
        }
    }
}

/// Answers kept inside rosters: the members a path leads to are made first.
extension Record {
    /// Stores an answer inside a roster, making the members the form shows but the survey
    /// does not hold yet (a `repeat_count` of 3 with one stored). False when the survey
    /// holds something else under the roster's name (never overwritten).
    mutating func store(_ value: PropertyValue?, at path: AnswerPath) -> Bool {
        guard makeInstances(upTo: path.steps) else { return false }
        return setValue(value, at: path)
    }

    /// Makes every instance `steps` leads to, outermost first.
    mutating func makeInstances(upTo steps: [AnswerPath.Step]) -> Bool {
        for (depth, step) in steps.enumerated() {
            let parent = Array(steps.prefix(depth))
            while instanceCount(of: step.name, in: parent) <= step.index {
                guard insertInstance(of: step.name, in: parent) != nil else { return false }
            }
        }
        return true
    }
}

/// A y/n question about a roster of the survey on the form, asked on the status line.
public enum RosterQuestion: Equatable, Sendable {
    /// "Add another Household member? y/n" (after a member's last question), or "Add a …?".
    case addAnother(String, label: String, survey: String)
    /// "Delete Household member 2 of 4 (“Ana”)? y/n"
    case deleteInstance([AnswerPath.Step], label: String, survey: String)

    /// The survey it is about (`AppState.surveyOnForm`).
    var survey: String {
        switch self {
        case .addAnother(_, _, let survey), .deleteInstance(_, _, let survey): survey
        }
    }
}
