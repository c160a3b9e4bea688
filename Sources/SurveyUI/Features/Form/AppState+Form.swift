import SurveyValues
import SurveyForms

/// The form: typing into a field, and keeping what was typed.
extension AppState {
    /// Starts editing the highlighted field with the caret at the end, optionally typing a
    /// first character (typing on a highlighted field starts editing it).
    ///
    /// Typing on a highlighted answer, and a field arrived at heads-down (`selectingAnswer`),
    /// start with the answer selected, so what is typed replaces it: a keyer correcting 45 to
    /// 41 types 41, never storing 4541. Enter and a click edit it with the caret at its end.
    mutating func beginEditing(inserting character: Character?, selectingAnswer: Bool = false) {
        guard document != nil, case .field(let index) = formItem else { return }
        if character != nil, form.heldNewFormShown {
            statusLine.warn(heldNewFormMessage)
            return
        }
        screen.showForm(focused: true)
        let outline = self.outline
        if outline.heading(index) != nil {
            if character != nil { statusLine.warn("Type into a question: on a roster's heading PgUp/PgDn, ^O and ^D act on its members") }
            return
        }
        let field = outline.field(index)
        let value = outline.value(index, in: formRecord)
        guard field.kind.isAnswered else {
            statusLine.tell("\(field.label) is not answered here: the form fills it in")
            return
        }
        if let value, !field.canEditAsText(value) {
            statusLine.warn("\(field.label) holds a value the form cannot edit as text \(field.displayText(value)): it is kept as it is")
            return
        }
        if field.kind.isPicked {
            openPicker(index, typing: character)
            return
        }
        let stored = outline.storedText(index, in: formRecord)
        // A New form's default is offered as typed text: Enter keeps it, as ODK does.
        let start = value == nil && shown == .draft ? outline.defaultText(index, in: formRecord, clock: ruleClock) ?? stored : stored
        form.beginEditing(EditBuffer(entry: index, text: start, original: stored,
                                     selectingAll: selectingAnswer || character != nil))
        if let character { typeCharacter(character) }
    }

    var heldNewFormMessage: String {
        "The New form holds an unsaved survey (\(session.title(of: draft))): press Enter to edit it, or [ Clear ] to start afresh"
    }

    /// Inserts a typed character unless XML could not store it.
    mutating func typeCharacter(_ character: Character) {
        if character.unicodeScalars.contains(where: { !EditBuffer.isTypable($0) }) {
            statusLine.warn("Control characters cannot be typed into a field")
            return
        }
        editActiveText { $0.insert(character) }
    }

    /// Commits the field being typed. Returns the effects, or nil when the value breaks its
    /// field's rule: then the typed text stays, editing goes on, and the status says why.
    ///
    /// With `goingOn` (Enter, Tab, ↓: moving on through the form), an unchanged empty answer
    /// is still judged, so a required question cannot be passed by; going back never is.
    mutating func commitEditing(goingOn: Bool = false) -> [Effect]? {
        guard let edit = editing else { return [] }
        let outline = self.outline
        let field = outline.field(edit.entry)
        let path = outline.path(edit.entry)
        guard edit.isChanged else {
            if goingOn, questionnaire.form != nil,
               let problem = outline.ruleProblem(edit.entry, value: outline.value(edit.entry, in: formRecord), in: formRecord, clock: ruleClock) {
                audit.note(.constraintError, at: path, in: auditContext)
                statusLine.warn(problem)
                return nil
            }
            form.stopEditing()
            return []
        }
        // The answer alone, as its field parses it (a value shown as typed stays as stored).
        var answer = Record(outline.value(edit.entry, in: formRecord).map { [field.key: $0] } ?? [:])
        if let error = answer.setText(edit.text, for: field) {
            statusLine.warn(error.message)
            return nil
        }
        // The record's answers as the frames read them (`FormRuleCache`): judging and settling
        // the change start from them rather than reading the survey's bytes again.
        let values = questionnaire.form != nil ? caches.ruleCache.values(questionnaire, formRecord, ruleClock) : nil
        if let problem = values.map({ outline.ruleProblem(edit.entry, value: answer[field.key], values: $0, clock: ruleClock) })
            ?? outline.ruleProblem(edit.entry, value: answer[field.key], in: formRecord, clock: ruleClock) {
            audit.note(.constraintError, at: path, in: auditContext)
            statusLine.warn(problem)
            return nil
        }
        var record = formRecord
        // Read once: the id is found by stepping over the survey's bytes (its rosters too).
        let owner = hiddenAnswersOwner
        var hidden = form.hiddenAnswers.values(for: owner)
        if let values, let settled = questionnaire.settled(formRecord, values: values, setting: answer[field.key], at: path,
                                                           hidden: &hidden, clock: ruleClock) {
            // In an instance that exists (the usual case): set, settled and packed at once.
            record = settled.record
            caches.ruleCache.seed(questionnaire, record, ruleClock, values: settled.values)
        } else {
            if path.steps.isEmpty {
                record[field.key] = answer[field.key]
            } else if !record.store(answer[field.key], at: path) {
                statusLine.warn("\(field.label) could not be kept: its roster holds something else than survey answers")
                return nil
            }
            if questionnaire.form != nil {
                record = questionnaire.settled(record, changedAt: path, before: formRecord, hidden: &hidden, clock: ruleClock)
            }
        }
        if questionnaire.form != nil {
            form.keepHidden(HiddenAnswers(owner: owner, values: hidden))
            if shown == .draft { form.startDraftClock(at: ruleClock.now) }
        }
        switch shown {
        case .record(let i):
            rollback = captureRollback()
            // Edited under a filter, it stays listed until the filter changes.
            list.pinWhileFiltered(record.instanceID)
            session.expect(.change(.edit, label: "edit of \(field.label) of \(session.quotedTitle(records[i]))"))
            document?.records[i] = record
            form.stopEditing()
            audit.changeSaved(in: auditContext)
            return [.saveDocument]
        case .draft:
            rollback = captureRollback()
            form.setDraft(record)
            form.stopEditing()
            return [.saveDraft]
        }
    }

    func captureRollback() -> Rollback {
        let document = self.document ?? SurveyDocument()
        var fileBase: SurveyDocument?
        if let member = form.unsavedMember, case .record(let i) = member.survey, document.records.indices.contains(i) {
            fileBase = document
            fileBase?.records[i] = member.before
        }
        return Rollback(document: document, listCursor: list.rows.cursor, form: form, screen: screen, popovers: popovers,
                        fileBase: fileBase)
    }
}
