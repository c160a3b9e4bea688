import SurveyValues
import SurveyForms

/// The questionnaire as rows for the form's layout, for the record on the form: what
/// `relevant` hides drops out, required questions are marked `*`, and a question gets a
/// second line for its hint or for what is wrong with its stored answer.
enum FormRows {
    static func of(_ state: AppState) -> [FormRow] { ShownForm(state).rows }

    /// A roster's heading is a row of its own ("Household member  2 of 4"), which the
    /// highlight visits; its instance's questions follow it.
    static func made(_ form: ShownForm, problems: [EntryNumber: String], notes: [EntryNumber: String]) -> [FormRow] {
        let questionnaire = form.questionnaire
        guard questionnaire.form != nil else {
            return questionnaire.fields.map { .field(label: $0.label, extraLine: false) }
        }
        let record = form.record, outline = form.outline, clock = form.clock
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
                    form.caches.ruleCache.values(questionnaire, record, clock)
                }, clock: clock)
                return .field(label: filledIn(required ? field.label + " *" : field.label, i),
                              extraLine: !field.hint.isEmpty || problems[i] != nil || notes[i] != nil)
            }
        }
    }
}
