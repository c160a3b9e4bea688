import SurveyValues
import SurveyForms

/// Which questions the highlight visits, in Tab/↑/↓ order: the ones a person answers that
/// `relevant` shows now, then Clear and Add. Notes, group headings, calculated values and rows
/// a terminal cannot collect are shown but skipped, as are read-only questions. Where the
/// highlight goes is the form's own (`FormState.reduce`, `FormState+Highlight`); here is what
/// it reads of the app (`formContext`) and how the app follows what it asks.
extension AppState {
    /// Whether each field shows for the record on the form (always, without a form).
    public var formRelevance: [Bool] {
        guard questionnaire.form != nil else { return Array(repeating: true, count: questionnaire.fields.count) }
        return caches.ruleCache.relevance(questionnaire, formRecord, ruleClock)
    }

    /// The highlight's stops, in order (`FormState.stops(in:)`).
    var navigableItems: [FormItem] { form.stops(in: formContext) }

    /// The first question a survey starts on.
    var firstFormItem: FormItem { navigableItems.first ?? .clear }

    /// What the form's own reducer reads of the app (`FormState.reduce`): the form walked
    /// (through the rule cache, as `outline`) and laid out only when a key asks for them.
    var formContext: FormState.Context {
        let app = self
        return .init(walk: { selection in
            // A flat form has no rosters to select members of.
            guard app.questionnaire.form != nil else { return app.outline }
            return app.caches.ruleCache.outline(app.questionnaire, app.formRecord, app.ruleClock, selection: selection)
        }, geometry: { form in
            var drawn = app
            drawn.form = form
            return drawn.formGeometry
        }, scrolls: questionnaire.form != nil, shown: shown, survey: surveyOnForm, memberHoldsAnswers: { steps in
            app.questionnaire.memberHoldsAnswers(app.formRecord, at: steps)
        })
    }

    /// Does what a key on the form asks (`FormState.reduce`).
    mutating func follow(_ request: FormState.Request) -> [Effect] {
        switch request {
        case .none: break
        case .tell(let message): statusLine.tell(message)
        case .edit: beginEditing(inserting: nil, selectingAnswer: true)
        case .beginEditing: beginEditing(inserting: nil)
        case .addMember(let entry): return outline.heading(entry).map { addInstance(after: $0) } ?? []
        case .ask(let question): statusLine.ask(question)
        case .leaveRoster(let member):
            // In memory only (it was never saved); then on past its roster.
            dropUnsavedMember(member, from: formRecord)
            return follow(form.goOnPast(member, in: formContext))
        case .clear: return clearForm()
        case .add: return addRecord()
        }
        return []
    }

    /// The form's geometry as drawn now.
    public var formGeometry: FormGeometry { shownForm.geometry(in: layout.form) }

    /// Answers hidden for the record on the form (none when it is another record's).
    var hiddenAnswersHere: [String: PropertyValue] { form.hiddenAnswers.values(for: hiddenAnswersOwner) }

    var hiddenAnswersOwner: String {
        switch shown {
        case .draft: return "New"
        case .record: return formRecord.instanceID ?? "record \(list.rows.cursor)"
        }
    }
}

extension FormWalk {
    /// A question a person answers and `relevant` shows, or a roster's heading (where
    /// PgUp/PgDn, ^O and ^D act on its members).
    func isNavigable(_ index: EntryNumber) -> Bool {
        guard isShown(index) else { return false }
        if heading(index) != nil { return true }
        guard field(index).kind.isAnswered else { return false }
        return !isReadOnly(index)
    }
}
