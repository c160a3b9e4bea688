import FoundationEssentials
import SurveyValues
import SurveyForms

/// Verify mode's own reducer (issue 29: a child reducer, as `FormState.reduce`): Enter judges
/// the answer keyed from paper by CSPro's rules (`VerificationRules`), Tab shows both answers,
/// Esc stops; decided from the session and the little it reads of the app (`Context`: who is
/// verifying, the clock), and what it asks of the app as a value. `AppState` keeps what
/// reaches past the session (`AppState+Verify`): `v`'s start, choosing the survey, a keyer
/// error's correction through the form's commit, and going on to the next survey waiting.
extension VerifySession {
    /// What the session reads of the app: each outcome is written with the verifier's login
    /// and the moment.
    struct Context {
        var login: String
        var clock: WallClock

        /// A line of the document's verification record.
        func entry(_ kind: VerificationEntry.Kind, survey: String, path: String = "",
                   stored: String? = nil, keyed: String? = nil) -> VerificationEntry {
            VerificationEntry(kind: kind, survey: survey, path: path, login: login, date: clock.now,
                              stored: stored, keyedValue: keyed)
        }
    }

    /// What a key in verify mode asks of the app.
    enum Request: Equatable {
        case none
        /// The session stays, and the status line says this.
        case tell(String)
        /// The key was refused (or the answer differs), and this says why.
        case warn(String)
        /// Esc: verification stops (the popover closes), and the status says this.
        case stop(String)
        /// The question is verified: `entry` is written, the status says `remark` (if any),
        /// then on to the next question or survey.
        case settled(VerificationEntry, remark: String?)
        /// A keyer error: `text` (shown as `typed`) replaces the stored answer through the
        /// form's commit; then `corrected` if it stood, `startAgain` if the form refused it.
        case correct(Question, text: String, typed: String)
    }

    mutating func reduce(_ action: VerifyAction, in context: Context) -> Request {
        switch action {
        case .keep:
            return keep(in: context)
        case .toggleBoth:
            guard firstTry != nil else {
                return .tell("Key the answer first: both are shown once what you key differs from what is stored")
            }
            toggleBoth()
            return .none
        case .close:
            // Counted as verified, not as the question the box showed ("2 of 2" there while
            // 1 is verified): said so, so neither is read as the other.
            return .stop("Verification stopped with \(verifiedCount) of \(questions.count) questions verified in "
                + "\(title): v on the list resumes it")
        case .start:
            return .none   // the app's: it reads the document's verification record
        }
    }

    /// Enter: the answer typed judged against the stored one.
    private mutating func keep(in context: Context) -> Request {
        guard let question = currentQuestion else { return .none }
        var answer = Record()
        if let error = answer.setText(input.text, for: question.field) { return .warn(error.message) }
        let keyed = answer[question.field.key]
        let typed = question.field.screenText(keyed)
        let verdict = VerificationRules.judge(stored: question.stored, keyed: keyed, earlier: firstTry,
                                              isChoice: question.field.kind.isPicked)
        switch verdict {
        case .reKey(let first):
            askAgain(first: first, text: typed)
            return .warn("Not what was keyed: key it again from the paper (Tab shows both)")
        case .same:
            settle(question, as: .same)
            return .settled(line(.same, question, typed: typed, in: context), remark: nil)
        case .verifierError:
            settle(question, as: .verifierError)
            return .settled(line(.verifierError, question, typed: typed, in: context),
                            remark: "Kept \(question.label): \(Self.shown(question.storedText)) as stored (a verifier error)")
        case .keyerError:
            return .correct(question, text: input.text, typed: typed)
        }
    }

    /// The keyer error's correction stood: the question is verified; this is its line (the app
    /// writes it once the save is done) and what the status says.
    mutating func corrected(_ question: Question, typed: String, in context: Context) -> (line: VerificationEntry, remark: String) {
        settle(question, as: .keyerError)
        return (line(.keyerError, question, typed: typed, in: context),
                "Replaced \(question.label): \(Self.shown(question.storedText)) → \(Self.shown(typed)) (a keyer error)")
    }

    /// The survey is verified: what the status says.
    var summary: String {
        "\(title) is verified: \(tally.same) the same, \(tally.keyerErrors) keyer error"
            + (tally.keyerErrors == 1 ? "" : "s") + ", \(tally.verifierErrors) verifier error" + (tally.verifierErrors == 1 ? "" : "s")
    }

    private func line(_ kind: VerificationEntry.Kind, _ question: Question, typed: String, in context: Context) -> VerificationEntry {
        context.entry(kind, survey: survey, path: question.path.description, stored: question.storedText, keyed: typed)
    }

    private static func shown(_ text: String) -> String { text.isEmpty ? "(no answer)" : "“\(text)”" }
}
