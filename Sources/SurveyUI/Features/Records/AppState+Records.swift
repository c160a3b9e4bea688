import SurveyValues
import SurveyForms

/// Adding, clearing and starting records, and what happens when saving them succeeds or fails.
extension AppState {
    /// Ctrl-N: the New form, editing First name. A New form that already holds answers is
    /// shown without starting to edit it, so the next respondent's name is never typed onto
    /// the last one's; but on that New form, holding answers the form's rules do not pass
    /// yet, Ctrl-N keeps it as an incomplete survey and starts the next one
    /// (`AppState+Incomplete`). After the field is committed.
    mutating func startNewRecord() -> [Effect] {
        guard document != nil else { return [] }
        if shown == .draft, canKeepNewFormIncomplete, !draft.isBlank(in: draftQuestionnaire), !newFormPasses {
            let kept = keepNewFormIncomplete()
            startNextNewForm()
            return kept
        }
        popovers.dismiss()
        screen.showForm(focused: true)
        shown = .draft
        form.highlight(firstFormItem)
        if draft.isBlank(in: questionnaire) {
            beginEditing(inserting: nil, selectingAnswer: true)
        } else {
            form.holdNewForm(true)
            statusLine.tell(heldNewFormMessage)
        }
        return []
    }

    /// [Clear]: an empty New form. A shown record is left alone.
    mutating func clearForm() -> [Effect] {
        guard document != nil, let effects = commitEditing() else { return [] }
        let hadDraft = !draft.isBlank(in: draftQuestionnaire)
        if hadDraft { rollback = captureRollback() }   // a failed save puts the New form back
        shown = .draft
        form.emptyDraft()
        audit.dropDraft()
        statusLine.tell("The form is empty")
        return hadDraft ? effects + [.saveDraft] : effects
    }

    /// [Add]: appends the New form as a new survey and selects it, emptying the New form. On
    /// a stored survey it asks first whether to add a copy of it (the original app's Add):
    /// after an Add the highlight rests on [ Add ] of the survey just added, and one Enter
    /// too many must never key the same interview twice.
    mutating func addRecord() -> [Effect] {
        // Taken before the commit (a click on Add while typing commits first), so a failed
        // save puts back the typed text as well as the record count.
        let before = captureRollback()
        guard document != nil, let effects = commitEditing() else { return [] }
        if case .record(let index) = shown {
            // An incomplete survey's button is [ Finish ] (`AppState+Incomplete`).
            if records[index].isIncomplete { return finishSurvey(index, rollback: before, effects: effects) }
            form.ask(.copy(index))
            statusLine.ask("Add a copy of \(session.quotedTitle(records[index])) as another survey? y/n")
            return effects
        }
        return append(formRecord, fromDraft: true, rollback: before, effects: effects)
    }

    /// `y` to "the same ID items: add this one too?": the New form added as it stands.
    mutating func addDraft(allowingDuplicate: Bool) -> [Effect] {
        guard document != nil, shown == .draft else { return [] }
        return append(formRecord, fromDraft: true, rollback: captureRollback(), effects: [], allowingDuplicate: allowingDuplicate)
    }

    /// `y` to "Add a copy?": the survey again, as a new survey with its own id. The New
    /// form's text is left alone, so no half-entered survey is thrown away.
    mutating func addCopy(of index: Int) -> [Effect] {
        guard records.indices.contains(index) else { return [] }
        return append(records[index], fromDraft: false, rollback: captureRollback(), effects: [])
    }

    /// Appends `source` as a new survey, through the form's gate, and shows it.
    private mutating func append(_ source: Record, fromDraft: Bool, rollback before: Rollback, effects: [Effect],
                                 allowingDuplicate: Bool = false) -> [Effect] {
        var effects = effects
        // A copy is another survey: it gets its own id when saved.
        var record = source.withEmptyTextAnswers(in: questionnaire)
        record.removeValue(forKey: Record.instanceIDKey)
        if record.isBlank(in: questionnaire) {
            statusLine.warn("Nothing to add: the form is empty")
            return effects
        }
        guard let checked = recordForAdding(record) else { return effects }
        record = checked
        // One paper keyed twice (CSPro's duplicate ID items): asked, never added unseen.
        if fromDraft, !allowingDuplicate, let key = questionnaire.idItemsText(of: record),
           let other = records.firstIndex(where: { questionnaire.idItemsText(of: $0) == key }) {
            form.ask(.duplicate(other))
            statusLine.ask("Survey \(other + 1), \(session.quotedTitle(records[other])), has the same \(key): add this one too? y/n")
            return effects
        }
        rollback = before
        session.expect(.change(.add, label: "add of \(session.quotedTitle(record))"))
        document?.records.append(record)
        showRecord(recordCount - 1)
        effects.removeAll { $0 == .saveDocument }   // one save carries the field and the record
        // The field's own write of the New form would remove its file before the save stores
        // the survey (the New form is empty by then): the `.saveDraft` after the save does.
        if fromDraft { effects.removeAll { $0 == .saveDraft } }
        effects.append(.saveDocument)
        if fromDraft {
            // Who keyed it, with how many keys, in how long (`survey stats`, F4).
            let started = form.draftStarted ?? ruleClock.now
            effects.append(.noteKeyed(AddedSurvey(record, near: recordCount - 1), VerificationEntry(
                kind: .keyed, survey: "", login: environment.device.username, date: ruleClock.now,
                keys: form.draftKeys, seconds: max(0, ruleClock.now.timeIntervalSince(started)))))
            effects += audit.draftStored(as: recordCount - 1, finalized: true, in: auditContext)
            form.emptyDraft()
            effects.append(.saveDraft)
        }
        statusLine.tell(fromDraft ? "Added survey \(recordCount): \(session.title(of: record))"
                       : "Added survey \(recordCount), a copy of \(session.title(of: record))")
        if fromDraft, form.addStartsNextForm {
            // Heads-down: the next respondent's form, editing its first question.
            shown = .draft
            form.highlight(firstFormItem)
            beginEditing(inserting: nil, selectingAnswer: true)
        }
        return effects
    }

    mutating func documentWasSaved(replacedCharacters: Int) -> [Effect] {
        let before = rollback
        rollback = nil
        session.saveSucceeded()
        let focusBefore: String? = before.flatMap { b in
            !b.form.showingDraft && b.document.records.indices.contains(b.listCursor) ? b.document.records[b.listCursor].instanceID : nil
        }
        let companion = before.map { changeWasSaved(before: $0.documentOnDisk, focusBefore: focusBefore) } ?? []
        if replacedCharacters > 0 {
            document?.replaceForbiddenCharacters()
            statusLine.tell("Replaced \(counted(replacedCharacters, "control character")) XML cannot hold with U+FFFD")
        }
        // The info view shows the file's size and time: read them again.
        return companion + (screen.detail == .info ? [.listDocuments] : [])
    }

    /// Puts back the document and form as they were before the change, with the typed text,
    /// so a failed save loses nothing the user entered.
    mutating func restoreAfterFailedSave(_ message: String) {
        guard rollback != nil else {
            statusLine.warn("Could not save \(documentName): \(message)")
            return
        }
        restoreRollback()
        statusLine.warn("Could not save \(documentName): \(message). Nothing was lost: your entry is still on the form.")
    }

    /// Undoes the change being saved: the records, the New form, the selection and the
    /// field with what was typed, as they were just before it.
    mutating func restoreRollback() {
        guard let saved = rollback else { return }
        rollback = nil
        session.changeNotSaved()
        document = saved.document
        list.select(saved.listCursor)
        form = saved.form
        // The key that committed may also have opened a popover or moved the focus; the
        // typed text must be where the user can see it, so that is undone too.
        screen = saved.screen
        popovers = saved.popovers
        list.keepCursorInView(in: listContext)
    }

    /// The file changed under us (another survey, `survey add`, a sync tool). Writing our
    /// copy would drop that change, so our change is replayed on the new version instead,
    /// field by field (`SurveyDocument.merge`), and that is saved. Only a real clash (the
    /// same field changed both here and there, or the record removed there) stops: then the
    /// records are re-read and the entry goes back on the form.
    mutating func documentChangedOnDisk(_ reloaded: SurveyDocument) -> [Effect] {
        guard let before = rollback, let mine = document else {
            reloadAfterOutsideChange(reloaded, clash: nil)
            return []
        }
        switch SurveyDocument.merge(base: before.documentOnDisk, mine: mine, theirs: reloaded) {
        case .success(let merge):
            document = merge.document
            // A failed save of the merge puts back what is on disk now, with the entry.
            rollback?.document = reloaded
            rollback?.fileBase = nil
            rollback?.listCursor = merge.indexInMerged[before.listCursor].map { min($0, max(0, reloaded.records.count - 1)) } ?? 0
            if !form.showingDraft, let j = merge.indexInMerged[list.rows.cursor] { list.select(j) }
            list.clampSelection(toCount: recordCount)
            list.keepCursorInView(in: listContext)
            statusLine.tell("“\(documentName)” was also changed elsewhere: your change was added to that version")
            return [.saveDocument]
        case .failure(let clash):
            let inFlight = session.pendingChange
            reloadAfterOutsideChange(reloaded, clash: clash)
            switch inFlight {
            case .undo(let step), .redo(let step):
                let verb = if case .undo = inFlight { "undo" } else { "redo" }
                statusLine.warn("Cannot \(verb) the \(step.label): “\(documentName)” was changed there by another program meanwhile (re-read it)")
            default: break
            }
            return []
        }
    }

    /// After a clash: the records are re-read and the entry goes back on the form, on the
    /// same record (found by id, else by its answers), so saving again applies it on top of
    /// the new version. If that record is gone, the typed text is quoted in the message
    /// rather than applied to some other record.
    mutating func reloadAfterOutsideChange(_ reloaded: SurveyDocument, clash: SurveyDocument.MergeClash?) {
        let before = rollback
        let original: Record? = if let before, !before.form.showingDraft,
                                    before.document.records.indices.contains(before.listCursor) {
            before.document.records[before.listCursor]
        } else { nil }
        restoreRollback()
        // The entry and the highlight by what they are, while the walk is still the one they
        // were made in: a member's place may name another person in the new version.
        let walk = outline
        let typed = editing.flatMap { EntryAnchor($0.entry, in: walk) }
        let highlighted = if case .field(let e) = formItem { EntryAnchor(e, in: walk) } else { EntryAnchor?.none }
        document = reloaded
        var lostText: String?
        if case .record(let i) = shown {
            if let match = original.flatMap({ reloaded.locate($0, near: i) }) {
                shown = .record(match)
                if let original, !form.followMembers(of: original, in: reloaded.records[match], typed: typed, highlighted: highlighted,
                                                            in: formContext) {
                    lostText = editing?.text
                    form.stopEditing()
                }
            } else {
                lostText = editing?.text
                form.stopEditing()
                list.select(min(i, max(0, reloaded.records.count - 1)))
            }
        }
        list.clampSelection(toCount: reloaded.records.count)
        list.keepCursorInView(in: listContext)
        let labels = (clash?.keys ?? []).map { key in questionnaire.field(forKey: key)?.label ?? key }
        if let lostText, original.map({ reloaded.locate($0, near: 0) != nil }) == true {
            statusLine.warn("“\(documentName)” was changed elsewhere and that member is gone or changed there: “\(lostText)” was not saved")
        } else if let lostText {
            statusLine.warn("“\(documentName)” was changed elsewhere and that record is gone: “\(lostText)” was not saved")
        } else if !labels.isEmpty {
            statusLine.warn("\(labels.joined(separator: ", ")) also changed elsewhere: re-read “\(documentName)”. Your entry is back on the form: save it again to replace theirs")
        } else {
            statusLine.warn("“\(documentName)” was changed elsewhere: re-read it. Your entry is back on the form: save it again")
        }
    }
}

extension AppState {
    /// Ids for the records found without one, given where the records are, with no copy of
    /// them held by the list, so no record's answers are copied (see `Program.finishOpening`).
    mutating func identifyRecordsInPlace() {
        list.forgetRecords()
        document?.identifyRecordsFoundWithoutIDs()
    }
}

extension AppState {
    /// A document merged behind the scenes: the same record stays on the form (found by its
    /// id), and what is being typed stays as it is.
    /// Returns whether a y/n question had to be dropped.
    @discardableResult
    mutating func takeMergedDocument(_ merged: SurveyDocument) -> Bool {
        let shownID: String? = if case .record(let i) = shown { records[i].instanceID } else { nil }
        // A y/n question on the status line names a survey by its place: it follows the survey
        // by id, and is dropped when that survey changed or went meanwhile, so `y` never acts
        // on another survey or on answers the person did not see.
        let asked: Record? = form.pendingQuestion.flatMap { records.indices.contains($0.index) ? records[$0.index] : nil }
        if let question = form.pendingQuestion {
            if let asked, let id = asked.instanceID, let j = merged.records.firstIndex(where: { $0.instanceID == id }),
               merged.records[j] == asked {
                form.ask(question.moved(to: j))
            } else {
                form.ask(nil)
            }
        }
        document = merged
        if let shownID, let i = merged.records.firstIndex(where: { $0.instanceID == shownID }) {
            list.select(i)
        }
        list.clampSelection(toCount: recordCount)
        list.keepCursorInView(in: listContext)
        return asked != nil && form.pendingQuestion == nil
    }
}
