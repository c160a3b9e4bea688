import FoundationEssentials
import SurveyValues
import SurveyForms

/// The sub-states' fields by their old names, so the helpers of `AppState+*.swift` read as
/// before: each forwards to one sub-state (`_modify`, so a record list is changed in place,
/// not copied). `document` also keeps the list's projection in step, as every write of the
/// document must.
extension AppState {
    public var document: SurveyDocument? {
        get { session.document }
        _modify {
            yield &session.document
            list.refresh(records)
            session.followLastSaved()
            if form.draftForm != nil { form.followLastSaved(session.document?.lastSaved) }
        }
    }
    public var documents: [DocumentSummary] { manager.documents }

    /// The questionnaire of the survey on the form: the document's form, or, for a New form
    /// started before a sync took a newer version, the version it was started with
    /// (`FormState.draftForm`, issue 28). The list's rules and stored surveys always use the
    /// document's (`session.questionnaire`).
    public var questionnaire: Questionnaire {
        guard let kept = form.draftForm, shown == .draft else { return session.questionnaire }
        return kept
    }
    /// The New form's questionnaire, whatever the form shows.
    public var draftQuestionnaire: Questionnaire { form.draftForm ?? session.questionnaire }
    public var documentName: String { session.documentName }
    public var draft: Record { form.draft }
    public var formItem: FormItem { form.formItem }
    public var editing: EditBuffer? { form.editing }
    public var size: Size { screen.size }
    /// Read only: popovers open and close through `PopoverState`'s methods.
    public var popover: Popover? { popovers.open }
}
