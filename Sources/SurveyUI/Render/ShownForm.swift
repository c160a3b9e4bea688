import SurveyValues
import SurveyForms

/// The form as a frame reads it: the record on the form, the walk shown, the answer being
/// typed, and the caches that remember its rows and their layout. Made from the state
/// (`init(_:outline:)`) where a frame, the mouse or the Tab order needs the form's rows,
/// answers or geometry, so those questions are asked of what they read, not of the whole app.
///
/// Read only: nothing here changes the state (the caches are references that remember
/// what was worked out for this record, never what is shown).
public struct ShownForm: Sendable {
    let questionnaire: Questionnaire
    /// The shown survey, or the New form.
    let record: Record
    /// Whether `record` is a stored survey (its answers are judged as stored, and a New
    /// form's defaults are not offered in it).
    let isStored: Bool
    let editing: EditBuffer?
    /// The walk the rows, entries and answers are counted in.
    let outline: FormWalk
    let clock: Questionnaire.Clock
    /// A supervisor's comment on a survey sent back, noted under the questions it names.
    let sentBackComment: String?
    /// The members shown, which key the cached rows with the record.
    let instances: [String: Int]
    let scroll: Int
    /// An incomplete survey: the second button is `[ Finish ]`.
    let finishing: Bool
    /// Whether the highlight is in a member, so its roster's heading stays on screen.
    let keepHeading: Bool
    let caches: ViewCaches

    /// The form as the state shows it, counted in `outline` (the state's, unless the caller
    /// has it already: every frame reads it several times).
    init(_ state: AppState, outline: FormWalk? = nil) {
        let outline = outline ?? state.outline
        self.questionnaire = state.questionnaire
        self.record = state.formRecord
        if case .record = state.shown { self.isStored = true } else { self.isStored = false }
        self.editing = state.editing
        self.outline = outline
        self.clock = state.ruleClock
        self.sentBackComment = state.sentBackComment
        self.instances = state.form.instances
        self.scroll = state.form.formScroll
        self.finishing = state.finishesShownSurvey
        self.keepHeading = state.form.highlightsMember(in: outline)
        self.caches = state.caches
    }

    /// Text displayed in a field: the edit buffer for the field being typed, else the stored value.
    public func fieldText(_ index: EntryNumber) -> String {
        if let editing, editing.entry == index { return editing.text }
        return outline.storedText(index, in: record)
    }

    /// What a field shows when it is not being typed: the stored answer (a choice by its
    /// label), a New form's default (dimmed, not yet an answer), or why a row is not asked.
    public func displayedAnswer(_ index: EntryNumber) -> (text: String, placeholder: Bool) {
        if let heading = outline.heading(index) { return (RosterText.position(heading), false) }
        let field = outline.field(index)
        let value = outline.value(index, in: record)
        switch field.kind {
        case .notCollected: return ("(not collected here)", true)
        case .choice:
            guard case .string(let names)? = value else { break }
            let labels = names.split(separator: " ").map { field.choiceLabels[String($0)] ?? String($0) }
            return (labels.joined(separator: ", "), false)
        default: break
        }
        if value == nil, !isStored, let text = outline.defaultText(index, in: record, clock: clock) { return (text, true) }
        // `fieldText`, with the value already read (each field is drawn on every frame).
        if let editing, editing.entry == index { return (editing.text, false) }
        // Nothing yet: the format it takes, dimmed, as a placeholder (never stored).
        if value == nil, let hint = field.kind.formatHint { return (hint, true) }
        return (field.screenText(value), false)
    }

    /// The questionnaire as rows for the layout (`FormRows`).
    var rows: [FormRow] {
        guard questionnaire.form != nil else { return FormRows.made(self, problems: [:], notes: [:]) }
        return drawn.rows
    }

    /// What is wrong with each stored answer of the shown survey under the current form (a
    /// survey keyed with an older version, or edited by another program), by entry of the
    /// walk: shown under the question, never rewritten until the answer is edited.
    var storedAnswerProblems: [EntryNumber: String] {
        guard questionnaire.form != nil, isStored else { return [:] }
        return drawn.problems
    }

    /// A supervisor's comment under the questions it names, by entry (`AppState+ReviewNotes`).
    var notes: [EntryNumber: String] {
        guard questionnaire.form != nil, isStored else { return [:] }
        return drawn.notes
    }

    /// The rows and problems of the survey on the form, made once per survey and members
    /// shown (`FormRuleCache.drawn`): every key and every frame asks for them.
    var drawn: FormRuleCache.Drawn {
        let stored = isStored && questionnaire.form != nil
        return caches.ruleCache.drawn(questionnaire, record, clock, key: drawnKey) {
            // A stored survey's answers judged by the form (a New form's are judged as typed).
            let problems = stored ? caches.ruleCache.storedAnswerProblems(questionnaire, record, clock, in: outline) : [:]
            let notes = ReviewComment.notes(sentBackComment, in: outline)
            return (FormRows.made(self, problems: problems, notes: notes), problems, notes)
        }
    }

    var drawnKey: FormRuleCache.DrawnKey {
        isStored ? FormRuleCache.DrawnKey(selection: instances, storedRecord: true, review: sentBackComment)
                 : FormRuleCache.DrawnKey(selection: instances, storedRecord: false)
    }

    /// The form's geometry in `rect`, its rows laid out once per survey and width
    /// (`FormRuleCache.layout`).
    func geometry(in rect: Rect) -> FormGeometry {
        guard questionnaire.form != nil else {
            return caches.flatGeometry.geometry(form: rect, rows: rows, scroll: scroll, finishing: finishing)
        }
        let rows = drawn.rows
        let laidOut = caches.ruleCache.layout(questionnaire, record, clock, key: drawnKey, rows: rows, width: rect.width)
        return FormGeometry(form: rect, rows: rows, scroll: scroll, layout: laidOut, keepHeading: keepHeading, finishing: finishing)
    }
}
