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
        }
    }
    public var documents: [DocumentSummary] {
        get { manager.documents }
        _modify { yield &manager.documents }
    }

    public var questionnaire: Questionnaire {
        get { session.questionnaire }
        _modify { yield &session.questionnaire }
    }
    public var documentName: String {
        get { session.documentName }
        _modify { yield &session.documentName }
    }
    public var draft: Record {
        get { form.draft }
        _modify { yield &form.draft }
    }
    public var formItem: FormItem {
        get { form.formItem }
        _modify { yield &form.formItem }
    }
    public var editing: EditBuffer? {
        get { form.editing }
        _modify { yield &form.editing }
    }
    public var size: Size {
        get { screen.size }
        _modify { yield &screen.size }
    }
    public var popover: Popover? {
        get { popovers.open }
        _modify { yield &popovers.open }
    }
}
