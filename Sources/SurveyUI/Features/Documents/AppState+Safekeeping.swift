import FoundationEssentials
import SurveyValues
import SurveyForms

/// What exists only in memory, and how it is kept: a quit that would lose it asks first, a
/// signal or a closed terminal writes it to a recovery file, and the next start offers it back.
extension AppState {
    /// Something on screen is nowhere on disk: the records of a document that vanished, or
    /// an entry a failed save put back on the form.
    public var holdsUnsavedWork: Bool {
        session.documentMissing || (session.lastSaveError != nil && editing?.isChanged == true)
    }

    /// The surveys to write to a recovery file when the app must stop at once: every record
    /// of a vanished document, or the one record (or New form) holding an entry whose save
    /// failed, with the typed text applied when it is valid. Empty when nothing is at risk.
    public var unsavedRecords: [Record] {
        var form = formRecord
        if let editing, editing.isChanged {
            let outline = self.outline
            let field = outline.field(editing.entry)
            let path = outline.path(editing.entry)
            if path.steps.isEmpty {
                _ = form.setText(editing.text, for: field)
            } else {
                var answer = Record(form.value(at: path).map { [field.key: $0] } ?? [:])
                if answer.setText(editing.text, for: field) == nil { _ = form.store(answer[field.key], at: path) }
            }
        }
        if session.documentMissing {
            var all = records
            if case .record(let i) = shown { all[i] = form }
            if self.form.showingDraft, !form.isBlank(in: questionnaire) { all.append(form) }
            return Array(all)
        }
        guard holdsUnsavedWork else { return [] }
        return [form]
    }

    // MARK: Recovered surveys

    /// How long the offer of kept surveys takes no choice after it appears, or after a key it
    /// refused: it can appear while someone keys heads-down (a save clash found in the
    /// background), and a letter they were typing must not merge or discard anything.
    /// Firefox holds its dialogs' buttons for the same reason (`security.dialog_enable_delay`,
    /// one second).
    static let recoveryChoiceHold: TimeInterval = 1

    /// A key while kept surveys are offered (`Recovery.reduce`), and what it asks done. m / t
    /// into the open document is a change like any other (saved through the journal, undone
    /// with Ctrl-Z), the answer being typed left as it is; their file goes to .trash only once
    /// the merge is saved. Into another document, on disk, and that document is opened.
    mutating func answerRecoveryOffer(_ action: DocumentsAction) -> [Effect] {
        guard case .recovery(let recovery) = popover else { return [] }
        let context = Recovery.OfferContext(now: environment.clock.now, heldUntil: popovers.choicesHeldUntil,
                                            documentName: documentName, documentMissing: session.documentMissing,
                                            documentRead: document != nil)
        switch recovery.reduce(action, in: context) {
        case .refuse(let message):
            popovers.present(.recovery(recovery), holdingChoicesUntil: environment.clock.now.addingTimeInterval(Self.recoveryChoiceHold))
            statusLine.warn(message)
        case .warn(let message):
            statusLine.warn(message)
        case .postpone:
            popovers.dismiss()
        case .discard:
            popovers.dismiss()
            return [.discardRecovery(recovery)]
        case .restoreOnDisk(let theirs):
            return committingField { state in
                state.popovers.dismiss()
                return [.restoreRecovery(recovery, theirsWhereBothChanged: theirs)]
            }
        case .mergeHere(let theirs):
            guard let current = document else { return [] }
            let merge = recovery.merge(into: current, questionnaire: questionnaire, theirsWhereBothChanged: theirs, clock: ruleClock)
            rollback = captureRollback()
            session.expect(.change(.other, label: "merge of the kept surveys"),
                           then: [.putAwayRecovery(recovery, replaced: merge.replaced)])
            popovers.dismiss()
            takeMergedDocument(merge.document)
            let text = merge.summary(into: documentName)
            if merge.clashes.isEmpty { statusLine.tell(text) } else { statusLine.warn(text) }
            return [.saveDocument]
        }
        return []
    }
}

extension AppState {
    /// Surveys an earlier session kept (`Outcome.recovery`).
    mutating func reduce(_ outcome: RecoveryOutcome) -> [Effect] {
        switch outcome {
        case .found(let list):
            guard let first = list.first else {
                if case .recovery = popover { popovers.dismiss() }
                return []
            }
            switch popover {
            case .recovery(first):
                break   // the same offer: its hold goes on
            case nil, .recovery:
                // Never over another popover.
                popovers.present(.recovery(first), holdingChoicesUntil: environment.clock.now.addingTimeInterval(Self.recoveryChoiceHold))
            default: break
            }
            return []
        case .restored(let name, let summary):
            statusLine.tell(summary)
            return [.rememberSession, .openDocument(name), .lookForRecoveries]
        case .discarded(let count):
            statusLine.tell("Moved \(counted(count, "recovered survey")) to .trash in the document folder")
            return [.lookForRecoveries]
        }
    }
}
