import Foundation
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

/// The screen: the terminal's size, the split, which pane has the focus, form or info.
/// Setters private to this file: features move the focus and switch form and info through
/// these methods, and keeping the focus legal for the layout is `AppState.resize(to:)`'s.
public struct ScreenState: Equatable, Sendable {
    public private(set) var size: Size
    public private(set) var splitWidth: Int
    public private(set) var focus: AppState.Focus = .form
    public private(set) var detail: AppState.Detail = .form

    init(size: Size, splitWidth: Int) {
        self.size = size
        self.splitWidth = splitWidth
    }

    mutating func moveFocus(to pane: AppState.Focus) { focus = pane }
    /// The record form, or facts about the document (F4), in the form's place.
    mutating func showDetail(_ shown: AppState.Detail) { detail = shown }
    mutating func resize(to newSize: Size) { size = newSize }
}

/// The popover open (only one ever is), and the list popover or documents list F1 was
/// pressed over: help describes it, and closing help returns to it. The rule "one popover at
/// a time" is stated here once: the setters are private to this type, so every feature opens
/// and closes popovers through these methods.
public struct PopoverState: Equatable, Sendable {
    public private(set) var open: AppState.Popover?
    public private(set) var underHelp: AppState.Popover?
    public init() {}

    /// Opens `popover` in place of whatever was open: never two at once. Also how an open
    /// popover's own state (the picker's filter, the save-as box) is written back.
    public mutating func present(_ popover: AppState.Popover) {
        if popover != open, popover != .help { underHelp = nil }
        open = popover
    }

    /// Closes whatever is open, help and what it was opened over alike.
    public mutating func dismiss() {
        open = nil
        underHelp = nil
    }

    /// F1: help over the list popover or the documents list explains that list, and closing
    /// help goes back there; over anything else, closing help closes it all.
    mutating func showHelp() {
        underHelp = open.flatMap { $0 == .list || $0 == .documents ? $0 : nil }
        open = .help
    }

    /// Esc (or F1 on help): help goes back to what it was opened over; anything else closes.
    mutating func close() {
        open = open == .help ? underHelp : nil
        underHelp = nil
    }
}

/// Caches views read from, kept between frames: references, so copies of the state share
/// them, and never compared (see `ListTitles`, `FormRuleCache`).
struct ViewCaches: Equatable, Sendable {
    let listTitles = ListTitles()
    let ruleCache = FormRuleCache()
}
