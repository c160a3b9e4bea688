import FoundationEssentials
import SurveyValues
import SurveyForms

/// Verify mode (`v` on the list): the survey re-keyed from paper, question by question, the
/// fields blank (`VerifySession`), each outcome written at once to the document's
/// verification record (`Effect.noteVerification`) with the verifier's login and the date.
/// A keyer error's correction is committed through the form's own commit
/// (`commitEditing`), so the form's rules judge it as they judge any answer keyed.
extension AppState {
    mutating func reduce(_ action: VerifyAction) -> [Effect] {
        switch action {
        case .start:
            return committingField { $0.startVerifying() }
        case .keep:
            return keepVerifiedAnswer()
        case .toggleBoth:
            guard case .verify(var session) = popover else { return [] }
            guard session.firstTry != nil else {
                tell("Key the answer first: both are shown once what you key differs from what is stored")
                return []
            }
            session.toggleBoth()
            popovers.present(.verify(session))
        case .close:
            guard case .verify(let session) = popover else { return [] }
            popovers.dismiss()
            tell("Verification stopped at \(session.verifiedCount) of \(session.questions.count) questions of "
                + "\(session.title): v on the list resumes it")
        }
        return []
    }

    /// `v`: read the verification record first; `verificationRead` starts.
    private mutating func startVerifying() -> [Effect] {
        guard document != nil else { return [] }
        if session.loading != nil {
            warn("\(stillLoading): verification starts once the whole document is read")
            return []
        }
        guard recordCount > 0 else {
            tell("No surveys to verify yet")
            return []
        }
        return [.readVerification(thenVerify: true)]
    }

    /// The record read: the survey shown when it waits for verification (chosen by `survey
    /// verify`, or none chosen and not verified yet), else the first survey waiting.
    mutating func verificationRead(_ log: VerificationLog) -> [Effect] {
        // An incomplete survey is finished before it is verified: it never blocks the others.
        // An encrypted one cannot be keyed again here (as `survey verify` leaves it out).
        let ids = Set(records.compactMap { $0.isIncomplete || $0.isSealed ? nil : $0.instanceID })
        let waiting = log.waiting.filter { ids.contains($0) }
        let shownID: String? = if case .record(let i) = shown, records.indices.contains(i) { records[i].instanceID } else { nil }
        let target: String
        if let shownID, waiting.contains(shownID) {
            target = shownID
        } else if let first = waiting.first {
            target = first
        } else if let shownID, ids.contains(shownID), log.progress(of: shownID) != .verified {
            target = shownID
        } else if let shownID, !ids.contains(shownID), log.chosen.isEmpty {
            if case .record(let i) = shown, records[i].isSealed {
                warn("\(quotedTitle(records[i])) is encrypted for the data manager's key: it cannot be verified here")
            } else {
                warn("This survey is incomplete: finish it before verifying it")
            }
            return []
        } else {
            tell(log.chosen.isEmpty ? "Nothing to verify: show a survey (or choose some with survey verify), then v"
                                    : "Every survey chosen for verification is verified")
            return []
        }
        let rest = waiting.filter { $0 != target }
        var effects: [Effect] = []
        if !log.chosen.contains(target) {
            effects.append(.noteVerification([entry(.chosen, survey: target)]))
        }
        // What each waiting survey already has verified, so one left half done and reached
        // next in the chain resumes instead of starting over.
        let settled = log.settledBySurvey
        let resumes = Dictionary(rest.map { ($0, settled[$0] ?? []) }, uniquingKeysWith: { a, _ in a })
        return effects + beginVerifying(target, settled: log.settled(target), waiting: rest, resumes: resumes)
    }

    private mutating func beginVerifying(_ id: String, settled: Set<String>, waiting: [String],
                                         resumes: [String: Set<String>]) -> [Effect] {
        guard let index = records.firstIndex(where: { $0.instanceID == id }) else { return [] }
        let record = records[index]
        if record.isIncomplete {
            warn("\(quotedTitle(record)) is incomplete: finish it before verifying it")
            return []
        }
        showRecord(index)
        screen.showForm(focused: false)
        let verify = VerifySession(survey: id, title: quotedTitle(record),
                                   questions: VerifySession.questions(of: record, in: questionnaire, clock: ruleClock),
                                   settled: settled, waiting: waiting, resumes: resumes)
        return continueVerifying(verify)
    }

    /// Enter: judge the answer typed against the stored one.
    private mutating func keepVerifiedAnswer() -> [Effect] {
        guard case .verify(var session) = popover, let question = session.currentQuestion else { return [] }
        var answer = Record()
        if let error = answer.setText(session.input.text, for: question.field) {
            warn(error.message)
            return []
        }
        let keyed = answer[question.field.key]
        let typed = question.field.screenText(keyed)
        let verdict = VerificationRules.judge(stored: question.stored, keyed: keyed, earlier: session.firstTry,
                                              isChoice: question.field.kind.isPicked)
        var effects: [Effect] = []
        switch verdict {
        case .reKey(let first):
            session.askAgain(first: first, text: typed)
            popovers.present(.verify(session))
            warn("Not what was keyed: key it again from the paper (Tab shows both)")
            return []
        case .same:
            session.settle(question, as: .same)
        case .verifierError:
            session.settle(question, as: .verifierError)
            tell("Kept \(question.label): \(shownAnswer(question.storedText)) as stored (a verifier error)")
        case .keyerError:
            guard let committed = correct(question, in: session.survey, to: session.input.text) else {
                // The form refuses it (a constraint, a choice not offered): nothing changes,
                // the status says why; the next try starts afresh.
                session.startAgain()
                popovers.present(.verify(session))
                return []
            }
            effects = committed
            session.settle(question, as: .keyerError)
            tell("Replaced \(question.label): \(shownAnswer(question.storedText)) → \(shownAnswer(typed)) (a keyer error)")
        }
        let kind: VerificationEntry.Kind = switch verdict {
        case .same: .same
        case .verifierError: .verifierError
        default: .keyerError
        }
        let line = entry(kind, survey: session.survey, path: question.path.description, stored: question.storedText, keyed: typed)
        if kind == .keyerError, let survey = records.first(where: { $0.instanceID == session.survey }) {
            // Written once the save is done, and only if the correction stood (`noteCorrection`).
            effects.append(.noteCorrection(line, path: question.path, value: survey.value(at: question.path)))
        } else {
            effects.append(.noteVerification([line]))
        }
        if kind == .keyerError, let index = records.firstIndex(where: { $0.instanceID == session.survey }) {
            // A correction can ask or skip other questions (their relevance).
            session.refresh(VerifySession.questions(of: records[index], in: questionnaire, clock: ruleClock))
        }
        return effects + continueVerifying(session)
    }

    /// On to the next question, or the survey is verified: written, and the next waiting one begins.
    private mutating func continueVerifying(_ verify: VerifySession) -> [Effect] {
        var verify = verify
        guard verify.isComplete else {
            popovers.present(.verify(verify))
            return []
        }
        popovers.dismiss()
        let done: [Effect] = [.noteVerification([entry(.finished, survey: verify.survey)])]
        let tally = verify.tally
        let summary = "\(verify.title) is verified: \(tally.same) the same, \(tally.keyerErrors) keyer error"
            + (tally.keyerErrors == 1 ? "" : "s") + ", \(tally.verifierErrors) verifier error" + (tally.verifierErrors == 1 ? "" : "s")
        while let next = verify.takeNext() {
            guard records.contains(where: { $0.instanceID == next }) else { continue }
            let effects = beginVerifying(next, settled: verify.resumes[next] ?? [], waiting: verify.waiting, resumes: verify.resumes)
            if case .verify = popover { tell(summary + "; next: \(quotedTitle(formRecord))") }
            return done + effects
        }
        tell(summary)
        return done
    }

    /// The keyer's answer replaced by the verifier's, through the form's commit.
    private mutating func correct(_ question: VerifySession.Question, in survey: String, to text: String) -> [Effect]? {
        // The survey verified is the one on the form, whatever was shown meanwhile.
        guard let record = records.firstIndex(where: { $0.instanceID == survey }) else {
            warn("The survey is no longer in the document: nothing replaced")
            return nil
        }
        if shown != .record(record) { showRecord(record) }
        guard form.highlight(problemAt: question.path, in: formContext), case .field(let index) = formItem, outline.isNavigable(index) else {
            warn("\(question.label) is not on the form now, or not the keyer's to change: nothing replaced")
            return nil
        }
        form.beginEditing(EditBuffer(fieldIndex: index, text: text, original: outline.storedText(index, in: formRecord)))
        guard let effects = commitEditing() else {
            form.stopEditing()
            return nil
        }
        return effects
    }

    private func entry(_ kind: VerificationEntry.Kind, survey: String, path: String = "",
                       stored: String? = nil, keyed: String? = nil) -> VerificationEntry {
        VerificationEntry(kind: kind, survey: survey, path: path, login: environment.device.username,
                          date: environment.clock.now, stored: stored, keyedValue: keyed)
    }

    private func shownAnswer(_ text: String) -> String { text.isEmpty ? "(no answer)" : "“\(text)”" }
}

extension AppState {
    /// The verification record read (`Outcome.verify`): kept for F4's statistics, and verify
    /// mode starts from it when it was read for that.
    mutating func reduce(_ outcome: VerifyOutcome) -> [Effect] {
        switch outcome {
        case .read(let name, let log, let thenVerify):
            guard session.verificationRead(log, document: name) else { return [] }
            return thenVerify ? verificationRead(log) : []
        }
    }
}
