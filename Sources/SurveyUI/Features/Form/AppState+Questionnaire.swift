import SurveyValues
import SurveyForms

/// Keeping the form in step with a designer's questionnaire after every action: the
/// highlight never rests on a question that is hidden, and a long form scrolls to it.
extension AppState {
    mutating func followQuestionnaire() {
        // A form version that waited for a field of a stored survey to be left (`takeForm`)
        // is taken once it is.
        if let waiting = session.formWaiting, shown == .draft || !answerBeingGiven { installForm(waiting) }
        guard questionnaire.form != nil else { return }
        if editing == nil, picker == nil { form.settleHighlight(in: formContext) }
        form.keepHighlightInView(in: formContext)
    }

    /// F7: the labels, hints and choices in the form's next language.
    mutating func switchLanguage() {
        guard let next = questionnaire.nextLanguage() else {
            statusLine.tell(questionnaire.form == nil ? "The form has one language" : "The form has only one language")
            return
        }
        if let kept = form.draftForm {
            // Two versions on screen (a New form keeping its own, `AppState+FormTaken`): both
            // in the language chosen.
            func inLanguage(_ q: Questionnaire) -> Questionnaire { q.form.map { Questionnaire(form: $0, language: next.language) } ?? q }
            session.relabel(inLanguage(session.questionnaire))
            form.keepDraftForm(inLanguage(kept).withLastSaved(document?.lastSaved))
        } else {
            session.relabel(next)
        }
        list.rename(ListNames(session.questionnaire))
        if var p = picker {
            // The open picker's labels follow too.
            let outline = self.outline
            let field = outline.field(p.entry)
            p = ChoicePicker(entry: p.entry, title: field.label,
                             choices: outline.choices(p.entry, in: formRecord, clock: ruleClock),
                             labels: field.choiceLabels, multiple: p.multiple, current: p.answer)
            popovers.present(.picker(p))
        }
        statusLine.tell("Language: \(next.language ?? "default")")
    }

    /// [ Add ]'s gate for a designer's form: the record as it will be stored (defaults,
    /// calculations, metadata, the form's id and version), or the first problem, with the
    /// highlight moved to its question.
    mutating func recordForAdding(_ record: Record) -> Record? {
        guard questionnaire.form != nil else { return record }
        let completed = questionnaire.completed(record, started: shown == .draft ? form.draftStarted : nil,
                                                device: environment.device, clock: ruleClock)
        return passesTheForm(completed, refusal: "Not added") ? completed : nil
    }

    /// Whether a survey as it will be stored passes every rule of the form; if not, the first
    /// problem is highlighted and said after `refusal` ("Not added").
    mutating func passesTheForm(_ completed: Record, refusal: String) -> Bool {
        let problems = FormInstance(questionnaire, record: completed, clock: ruleClock).problems()
        guard let first = problems.first else {
            // A member `repeat_count` made and nobody answered is refused as `survey add` and
            // `survey import` refuse it (an empty member stored here would not import back).
            let empty = questionnaire.emptyMemberProblems(in: completed, clock: ruleClock)
            guard let member = empty.first else { return true }
            statusLine.warn("\(refusal): \(member)" + (empty.count > 1 ? " (and \(counted(empty.count - 1, "other problem")))" : ""))
            return false
        }
        // The question at fault, in the member it is in: the problem's index is its
        // top-level row, not its row on a form with rosters.
        form.highlight(problemAt: first.path, in: formContext)
        // Every one can be reached: F8 walks them, ^G's tree lists them (Tab: problems only).
        let more = problems.count > 1 ? " (and \(counted(problems.count - 1, "other problem")): F8 goes to each, ^G lists them)" : ""
        statusLine.warn("\(refusal): \(first.message)\(more)")
        return false
    }
}

extension DocumentSession {
    /// The title of a record as the list shows it (the form's `instance_name`, or `Last,
    /// First`), by the document's form.
    public func title(of record: Record, limit: Int? = nil) -> String {
        questionnaire.title(of: record, limit: limit)
    }

    /// `“Last, First”` as the list shows it, for messages.
    func quotedTitle(_ record: Record) -> String { "“\(title(of: record, limit: 60))”" }
}
