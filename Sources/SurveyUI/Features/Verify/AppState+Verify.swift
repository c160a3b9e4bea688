import FoundationEssentials
import SurveyValues
import SurveyForms

/// Verify mode (`v` on the list): the survey re-keyed from paper, question by question, the
/// fields blank (`VerifySession`), each outcome written at once to the document's
/// verification record (`Effect.noteVerification`) with the verifier's login and the date.
/// A keyer error's correction is committed through the form's own commit
/// (`commitEditing`), so the form's rules judge it as they judge any answer keyed.
extension AppState {
    /// `v` starts verifying from the app; every other key is the session's own
    /// (`VerifySession.reduce`), and what it asks of the app is done here.
    mutating func reduce(_ action: VerifyAction) -> [Effect] {
        if action == .start {
            // Once a typed answer is kept: the document's verification record is read first.
            return committingField { state in
                let start = state.session.verificationStart(stillLoading: state.stillLoading)
                if let remark = start.remark { state.statusLine.say(remark) }
                return start.effects
            }
        }
        guard case .verify(var verify) = popover else { return [] }
        let context = verifyContext
        let request = verify.reduce(action, in: context)
        popovers.present(.verify(verify))
        switch request {
        case .none: return []
        case .tell(let message): statusLine.tell(message)
        case .warn(let message): statusLine.warn(message)
        case .stop(let message):
            popovers.dismiss()
            statusLine.tell(message)
        case .settled(let line, let remark):
            if let remark { statusLine.tell(remark) }
            return [.noteVerification([line])] + goOnVerifying(.goOn(verify))
        case .correct(let question, let text, let typed):
            // The keyer's answer replaced by the verifier's, through the form's commit, in the
            // survey verified (shown again, whatever was shown meanwhile). Refused (the survey
            // or the question gone, a constraint, a choice not offered): nothing changes, the
            // status says why, and the next try starts afresh.
            var committed: [Effect]?
            if let index = records.firstIndex(where: { $0.instanceID == verify.survey }) {
                if shown != .record(index) { showRecord(index) }
                if form.beginCorrecting(question.path, to: text, of: formRecord, in: formContext) {
                    committed = commitEditing()
                    if committed == nil { form.stopEditing() }
                } else {
                    statusLine.warn("\(question.label) is not on the form now, or not the keyer's to change: nothing replaced")
                }
            } else {
                statusLine.warn("The survey is no longer in the document: nothing replaced")
            }
            guard let committed else {
                verify.startAgain()
                popovers.present(.verify(verify))
                return []
            }
            let (line, remark) = verify.corrected(question, typed: typed, in: context)
            statusLine.tell(remark)
            guard let index = records.firstIndex(where: { $0.instanceID == verify.survey }) else {
                return committed + [.noteVerification([line])] + goOnVerifying(.goOn(verify))
            }
            // Written once the save is done, and only if the correction stood (`noteCorrection`);
            // a correction can ask or skip other questions (their relevance).
            let correction = Effect.noteCorrection(line, path: question.path, value: records[index].value(at: question.path))
            verify.refresh(VerifySession.questions(of: records[index], in: questionnaire, clock: ruleClock))
            return committed + [correction] + goOnVerifying(.goOn(verify))
        }
        return []
    }

    /// Verification goes on: in the session under way (its next question), or, that survey
    /// verified (written), in the next one waiting; `.begin`: in the survey chosen. A survey
    /// that turns out verified already goes straight on to the next, and the status names the
    /// first survey verified and the one now on the form. One loop, so a long chain of surveys
    /// verified before goes on without a call per survey.
    private mutating func goOnVerifying(_ step: VerifyStep) -> [Effect] {
        var step = step
        var effects: [Effect] = []
        var firstVerified: String?   // the summary of the first survey verified here
        while true {
            switch step {
            case .goOn(var verify):
                guard verify.isComplete else {
                    popovers.present(.verify(verify))
                    if let firstVerified { statusLine.tell(firstVerified + "; next: \(session.quotedTitle(formRecord))") }
                    return effects
                }
                popovers.dismiss()
                effects.append(.noteVerification([verifyContext.entry(.finished, survey: verify.survey)]))
                guard let next = verify.takeNext(where: { id in records.contains { $0.instanceID == id } }) else {
                    statusLine.tell(verify.summary)
                    return effects
                }
                firstVerified = firstVerified ?? verify.summary
                step = .begin(next)
            case .begin(let next):
                guard let index = records.firstIndex(where: { $0.instanceID == next.survey }) else { return effects }
                let record = records[index]
                if record.isIncomplete {
                    statusLine.warn("\(session.quotedTitle(record)) is incomplete: finish it before verifying it")
                    return effects
                }
                showRecord(index)
                screen.showForm(focused: false)
                step = .goOn(VerifySession(survey: next.survey, title: session.quotedTitle(record),
                                           questions: VerifySession.questions(of: record, in: questionnaire, clock: ruleClock),
                                           settled: next.settled, waiting: next.waiting, resumes: next.resumes))
            }
        }
    }

    /// What verify mode reads of the app: who is verifying, and the clock.
    fileprivate var verifyContext: VerifySession.Context {
        VerifySession.Context(login: environment.device.username, clock: environment.clock)
    }
}

extension AppState {
    /// The verification record read (`Outcome.verify`): kept for F4's statistics, and verify
    /// mode starts from it when it was read for that (`VerifySession.choose` says with which survey).
    mutating func reduce(_ outcome: VerifyOutcome) -> [Effect] {
        switch outcome {
        case .read(let name, let log, let thenVerify):
            guard session.verificationRead(log, document: name), thenVerify else { return [] }
            let shownIndex: Int? = if case .record(let i) = shown { i } else { nil }
            switch VerifySession.choose(from: log, records: records, shown: shownIndex, title: { session.quotedTitle($0) }) {
            case .tell(let message):
                statusLine.tell(message)
                return []
            case .warn(let message):
                statusLine.warn(message)
                return []
            case .begin(let id, let settled, let waiting, let resumes, let noteChosen):
                let chosen: [Effect] = noteChosen ? [.noteVerification([verifyContext.entry(.chosen, survey: id)])] : []
                return chosen + goOnVerifying(.begin(.init(survey: id, settled: settled, waiting: waiting, resumes: resumes)))
            }
        }
    }
}

/// Where verification goes on (`AppState.goOnVerifying`): in a session under way, or by
/// beginning the survey `Next` names.
private enum VerifyStep {
    case goOn(VerifySession)
    case begin(VerifySession.Next)
}
