import FoundationEssentials
import SurveyModel

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
        }
    }
    public var documents: [DocumentSummary] { manager.documents }

    public var questionnaire: Questionnaire { session.questionnaire }
    public var documentName: String { session.documentName }
    public var draft: Record { form.draft }
    public var formItem: FormItem { form.formItem }
    public var editing: EditBuffer? { form.editing }
    public var size: Size { screen.size }
    /// Read only: popovers open and close through `PopoverState`'s methods.
    public var popover: Popover? { popovers.open }
}
