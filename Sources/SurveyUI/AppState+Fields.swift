import Foundation
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
    var listTitles: ListTitles { caches.listTitles }
    var ruleCache: FormRuleCache { caches.ruleCache }

    public var questionnaire: Questionnaire {
        get { session.questionnaire }
        _modify { yield &session.questionnaire }
    }
    public var documentName: String {
        get { session.documentName }
        _modify { yield &session.documentName }
    }
    public var loading: DocumentLoading? {
        get { session.loading }
        _modify { yield &session.loading }
    }
    public var loadError: String? {
        get { session.loadError }
        _modify { yield &session.loadError }
    }
    public var formTrouble: FormTrouble? {
        get { session.formTrouble }
        _modify { yield &session.formTrouble }
    }
    public var documentMissing: Bool {
        get { session.documentMissing }
        _modify { yield &session.documentMissing }
    }
    public var missingReason: String? {
        get { session.missingReason }
        _modify { yield &session.missingReason }
    }
    public var saveAsSuggestion: String? {
        get { session.saveAsSuggestion }
        _modify { yield &session.saveAsSuggestion }
    }
    public var leaveConfirmed: Bool {
        get { session.leaveConfirmed }
        _modify { yield &session.leaveConfirmed }
    }
    public var lastSaveError: String? {
        get { session.lastSaveError }
        _modify { yield &session.lastSaveError }
    }
    public var history: UndoHistory {
        get { session.history }
        _modify { yield &session.history }
    }
    var pendingChange: PendingChange? {
        get { session.pendingChange }
        _modify { yield &session.pendingChange }
    }
    public var draft: Record {
        get { form.draft }
        _modify { yield &form.draft }
    }
    public var showingDraft: Bool {
        get { form.showingDraft }
        _modify { yield &form.showingDraft }
    }
    public var formItem: FormItem {
        get { form.formItem }
        _modify { yield &form.formItem }
    }
    public var editing: EditBuffer? {
        get { form.editing }
        _modify { yield &form.editing }
    }
    public var formScroll: Int {
        get { form.formScroll }
        _modify { yield &form.formScroll }
    }
    public var hiddenAnswers: HiddenAnswers {
        get { form.hiddenAnswers }
        _modify { yield &form.hiddenAnswers }
    }
    public var draftStarted: Date? {
        get { form.draftStarted }
        _modify { yield &form.draftStarted }
    }
    public var addStartsNextForm: Bool {
        get { form.addStartsNextForm }
        _modify { yield &form.addStartsNextForm }
    }
    public var heldNewFormShown: Bool {
        get { form.heldNewFormShown }
        _modify { yield &form.heldNewFormShown }
    }
    public var pendingQuestion: SurveyQuestion? {
        get { form.pendingQuestion }
        _modify { yield &form.pendingQuestion }
    }
    public var listCursor: Int {
        get { list.rows.cursor }
        _modify { yield &list.rows.cursor }
    }
    public var listScroll: Int {
        get { list.rows.scroll }
        _modify { yield &list.rows.scroll }
    }
    public var size: Size {
        get { screen.size }
        _modify { yield &screen.size }
    }
    public var splitWidth: Int {
        get { screen.splitWidth }
        _modify { yield &screen.splitWidth }
    }
    public var focus: Focus {
        get { screen.focus }
        _modify { yield &screen.focus }
    }
    public var detail: Detail {
        get { screen.detail }
        _modify { yield &screen.detail }
    }
    public var popover: Popover? {
        get { popovers.open }
        _modify { yield &popovers.open }
    }
    public var popoverUnderHelp: Popover? {
        get { popovers.underHelp }
        _modify { yield &popovers.underHelp }
    }
}
