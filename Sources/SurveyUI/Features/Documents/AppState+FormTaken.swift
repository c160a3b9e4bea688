import SurveyValues
import SurveyForms

/// A newer version of the document's form taken by F9's sync (issue 28) is used by the open
/// app at once, as ODK Collect uses a form it downloaded: the list's rules (its `⚠` marks,
/// its sort and sections), the form of a stored survey and every new survey. A New form in
/// progress is the exception: its answers were keyed against the questions it showed, so it
/// is finished under the version it was started with (`FormState.draftForm`), and the
/// status says so; once it is added or cleared, the next New form is the new version's.
extension AppState {
    /// Takes `taken` as the document's form; what to add to the sync's message when a New form
    /// in progress keeps its version (nil: nothing).
    mutating func takeForm(_ taken: DocumentForm) -> String? {
        var taken = taken
        // In the language shown, when the new version has it.
        if let language = session.questionnaire.language, let form = taken.questionnaire.form,
           taken.questionnaire.languages.contains(language) {
            taken.questionnaire = Questionnaire(form: form, language: language)
        }
        let started = draftQuestionnaire
        let draftInProgress = !draft.isBlank(in: started) || (shown == .draft && answerBeingGiven)
        if draftInProgress, form.draftForm == nil { form.keepDraftForm(session.questionnaire) }
        if shown != .draft, answerBeingGiven {
            session.awaitForm(taken)
        } else {
            installForm(taken)
        }
        guard draftInProgress else { return nil }
        if let version = started.form?.version, !version.isEmpty { return "this new survey keeps version \(version)" }
        return "this new survey keeps the form it was started with"
    }

    /// An answer is being typed, picked or attached on the form: its question is known by
    /// its place in the form, which another version may give to another question.
    var answerBeingGiven: Bool {
        editing != nil || form.attaching != nil || { if case .picker = popover { true } else { false } }()
    }

    /// `taken` in use at once: the document's form, the list's rules, the question highlighted.
    mutating func installForm(_ taken: DocumentForm) {
        // The highlighted question of a stored survey stays highlighted, found by its path.
        let highlighted: AnswerPath? = if shown != .draft, case .field(let i) = formItem, i.index < outline.count,
                                          outline.heading(i) == nil { outline.path(i) } else { nil }
        session.takeForm(taken)
        list.rename(ListNames(session.questionnaire))
        list.refresh(records)
        if let highlighted {
            let now = outline
            if let i = now.indices.first(where: { now.heading($0) == nil && now.path($0) == highlighted }) {
                form.highlight(.field(i))
            }
        }
    }
}
