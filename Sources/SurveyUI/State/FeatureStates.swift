import FoundationEssentials
import SurveyModel

/// The document open (one feature's state): its records and form, the file's condition,
/// undo, and what saving needs to know.
public struct DocumentSession: Equatable, Sendable {
    public var questionnaire: Questionnaire
    public var documentName: String
    /// nil when the file could not be read: then `loadError` says why and nothing is saved.
    /// Written through `AppState.document`, which keeps the list's projection in step.
    public var document: SurveyDocument?
    /// Set while the rest of a large document is still being read: `document` then holds
    /// the records read so far, and nothing may change it (see `AppState+Loading`).
    public var loading: DocumentLoading?
    public var loadError: String?
    /// Set when the document's form cannot be used (it has errors, or is missing): its
    /// surveys are shown as stored and nothing may change them (`AppState+ReadOnly`).
    public var formTrouble: FormTrouble?
    /// Set when the current file was deleted or renamed outside the app: never recreated
    /// behind the user's back.
    public var documentMissing = false
    /// Why, when the file is still there but another program made it unreadable.
    public var missingReason: String?
    /// The name the save-as box offers: the document's own when its file is gone, a free
    /// one ("Farm 2") when an unreadable file still holds the name.
    public var saveAsSuggestion: String?
    /// The user was warned that leaving loses the in-memory records, and may now leave.
    public var leaveConfirmed = false
    /// Why the last save failed, until a save succeeds: while the entry it put back on the
    /// form is still there, that entry exists only in memory and quitting asks first.
    public var lastSaveError: String?
    /// Changes to step back and forth through, and what the save in flight will add to them.
    public var history = UndoHistory()
    var pendingChange: AppState.PendingChange?

    init(questionnaire: Questionnaire, documentName: String) {
        self.questionnaire = questionnaire
        self.documentName = documentName
    }
}

/// The record form's state: what it shows, the highlighted item, the answer being typed.
public struct FormState: Equatable, Sendable {
    /// The unsent New form.
    public var draft: Record
    /// The form shows the New form; the list's cursor still remembers the highlighted row.
    public var showingDraft: Bool
    public var formItem: AppState.FormItem = .field(0)
    public var editing: EditBuffer?
    /// The first row of a long form shown (the highlighted question is kept in view).
    public var formScroll = 0
    /// Answers of questions a later answer hid, for the record on the form: kept for this
    /// session, not saved (as ODK does), and put back if the question shows again.
    public var hiddenAnswers = HiddenAnswers()
    /// When the New form's first answer was committed: the form's `start` metadata.
    public var draftStarted: Date?
    /// Heads-down entry: [ Add ] on the New form goes straight on to the next empty New
    /// form, editing its first question, instead of showing the survey just added (F5).
    public var addStartsNextForm = false
    /// Ctrl-N showed a New form that already holds answers: until the next other key, typed
    /// letters are refused instead of landing on the last respondent's answers.
    public var heldNewFormShown = false
    /// The y/n question about a survey asked on the status line: delete it, add a copy of it,
    /// clear the answers this form version does not ask.
    public var pendingQuestion: SurveyQuestion?

    init(draft: Record, showingDraft: Bool) {
        self.draft = draft
        self.showingDraft = showingDraft
    }
}

/// The screen: the terminal's size, the split, which pane has the focus, form or info.
public struct ScreenState: Equatable, Sendable {
    public var size: Size
    public var splitWidth: Int
    public var focus: AppState.Focus = .form
    public var detail: AppState.Detail = .form

    init(size: Size, splitWidth: Int) {
        self.size = size
        self.splitWidth = splitWidth
    }
}

/// The popover open (only one ever is), and the list popover or documents list F1 was
/// pressed over: help describes it, and closing help returns to it.
public struct PopoverState: Equatable, Sendable {
    public var open: AppState.Popover?
    public var underHelp: AppState.Popover?
    public init() {}
}

/// Caches views read from, kept between frames: references, so copies of the state share
/// them, and never compared (see `ListTitles`, `FormRuleCache`).
struct ViewCaches: Equatable, Sendable {
    let listTitles = ListTitles()
    let ruleCache = FormRuleCache()
}
