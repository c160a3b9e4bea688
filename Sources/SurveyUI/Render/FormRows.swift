import SurveyValues
import SurveyForms

/// The questionnaire as rows for the form's layout, for the record on the form: what
/// `relevant` hides drops out, required questions are marked `*`, and a question gets a
/// second line for its hint or for what is wrong with its stored answer.
enum FormRows {
    static func of(_ state: AppState) -> [FormRow] { of(state, outline: state.outline) }

    static func of(_ state: AppState, outline: FormWalk) -> [FormRow] {
        guard state.questionnaire.form != nil else { return made(state, outline: outline, problems: [:], notes: [:]) }
        return state.drawnForm(outline).rows
    }

    /// A roster's heading is a row of its own ("Household member  2 of 4"), which the
    /// highlight visits; its instance's questions follow it.
    static func made(_ state: AppState, outline: FormWalk, problems: [EntryNumber: String], notes: [EntryNumber: String]) -> [FormRow] {
        let questionnaire = state.questionnaire
        guard questionnaire.form != nil else {
            return questionnaire.fields.map { .field(label: $0.label, extraLine: false) }
        }
        let record = state.formRecord
        /// A label or note showing answers (`${people}`), filled in from the row's scope.
        func filledIn(_ text: String, _ i: EntryNumber) -> String {
            guard text.namesAnAnswer else { return text }
            return outline.scope(of: i).questionnaire.filledIn(text, from: Questionnaire.scoped(record, outline.steps(i)))
        }
        return outline.indices.map { i in
            let field = outline.field(i)
            guard outline.isShown(i) else { return .hidden }
            if let heading = outline.heading(i) { return .field(label: heading.label, extraLine: false) }
            switch field.kind {
            case .metadata, .groupEnd: return .hidden
            // A calculation without a label is the form's arithmetic, not something to show
            // (as in ODK); a labelled one shows its value.
            case .calculated where !outline.hasOwnLabel(i): return .hidden
            case .groupStart: return .heading(field.label)
            case .note:
                return .note(filledIn(field.label, i))
            default:
                // `*` when the answer is required now: a `required` reading answers follows them.
                let required = field.isRequired && outline.isRequired(i, values: {
                    state.caches.ruleCache.values(questionnaire, record, state.ruleClock)
                }, clock: state.ruleClock)
                return .field(label: filledIn(required ? field.label + " *" : field.label, i),
                              extraLine: !field.hint.isEmpty || problems[i] != nil || notes[i] != nil)
            }
        }
    }
}

extension AppState {
    /// What is wrong with each stored answer of the shown record under the current form (a
    /// record keyed with an older version, or edited by another program): shown under the
    /// question, never rewritten until the answer is edited.
    var storedAnswerProblems: [EntryNumber: String] { storedAnswerProblems(in: outline) }

    /// The same, by entry of the outline: a roster member's problems under its questions.
    func storedAnswerProblems(in outline: FormWalk) -> [EntryNumber: String] {
        guard questionnaire.form != nil, case .record = shown else { return [:] }
        return drawnForm(outline).problems
    }

    /// The rows and problems of the record on the form, made once per record and members
    /// shown (`FormRuleCache.drawn`): every key and every frame asks for them.
    func drawnForm(_ outline: FormWalk) -> FormRuleCache.Drawn {
        let stored = if case .record = shown { questionnaire.form != nil } else { false }
        return caches.ruleCache.drawn(questionnaire, formRecord, ruleClock, key: drawnKey) {
            // A stored survey's answers judged by the form (a New form's are judged as typed).
            let problems = stored ? caches.ruleCache.storedAnswerProblems(questionnaire, formRecord, ruleClock, in: outline) : [:]
            let notes = ReviewComment.notes(sentBackComment, in: outline)
            return (FormRows.made(self, outline: outline, problems: problems, notes: notes), problems, notes)
        }
    }

    /// A supervisor's comment under the questions it names, by row (`AppState+ReviewNotes`).
    func formNotes(in outline: FormWalk) -> [EntryNumber: String] {
        guard questionnaire.form != nil, case .record = shown else { return [:] }
        return drawnForm(outline).notes
    }

    var drawnKey: FormRuleCache.DrawnKey {
        if case .record = shown {
            return FormRuleCache.DrawnKey(selection: form.instances, storedRecord: true, review: sentBackComment)
        }
        return FormRuleCache.DrawnKey(selection: form.instances, storedRecord: false)
    }
}
